#!/bin/sh
# package.sh OUTDIR VERSION [WOP_BINARY [TARGET]]
#
# Builds the VS Code extension into OUTDIR/wop-VERSION[-TARGET].vsix:
# npm ci, tsc (type checks), esbuild (bundles the extension and its
# dependencies into dist/extension.js, one file), @vscode/vsce package, in a scratch copy of this folder (the
# working tree, its node_modules and out/ are left alone).
#   VERSION     the release's version, written into the extension's package.json
#   WOP_BINARY  a wop built for TARGET: it goes in the .vsix as bin/wop (bin/wop.exe
#               for win32-*), the binary the extension runs when no wop.path,
#               node_modules or PATH gives one; the .vsix is then platform-specific.
#               A wop-graphviz beside it goes in too (the chain graph panel's
#               SVG layout), with its wop-graphviz-precompiled folder if any
#   TARGET      a vsce target (linux-x64, linux-arm64, darwin-x64, darwin-arm64,
#               win32-x64, win32-arm64, alpine-x64, ...); default: this machine's
# Without WOP_BINARY the .vsix is universal and runs the wop it finds.
#
# Two runs from the same commit write the same bytes: vsce sorts the entries
# and stamps every one with SOURCE_DATE_EPOCH (default: the last commit's time).
#
# WOP_VSIX_NODE_MODULES=DIR takes DIR (an `npm ci` of this package-lock.json,
# e.g. editors/vscode/node_modules) instead of running npm ci: the tests use
# it to stay offline.
set -eu

if [ $# -lt 2 ] || [ $# -gt 4 ]; then
	echo "usage: $0 OUTDIR VERSION [WOP_BINARY [TARGET]]" >&2
	exit 2
fi
outdir=$1
version=${2#v}
binary=${3:-}
target=${4:-}
here=$(cd "$(dirname "$0")" && pwd)

case $version in
[0-9]*.[0-9]*.[0-9]*) ;;
*)
	echo "package.sh: version $version is not semver (MAJOR.MINOR.PATCH[-pre]): VS Code refuses it" >&2
	exit 2
	;;
esac
if [ -n "$binary" ] && [ ! -f "$binary" ]; then
	echo "package.sh: $binary: no such file (the wop to bundle)" >&2
	exit 2
fi
if [ -n "$binary" ] && [ -z "$target" ]; then
	target=$(node -p 'process.platform + "-" + process.arch')
fi

: "${SOURCE_DATE_EPOCH:=$(git -C "$here" log -1 --format=%ct 2>/dev/null || echo 315532800)}"
export SOURCE_DATE_EPOCH
export LC_ALL=C

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
if [ -n "$binary" ]; then
	binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
fi
stage=$(mktemp -d "${TMPDIR:-/tmp}/wop-vsix.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM

cp -R "$here/package.json" "$here/package-lock.json" "$here/tsconfig.json" "$here/.vscodeignore" \
	"$here/README.md" "$here/src" "$here/test" "$stage/"
cp "$here/../../LICENSE" "$stage/LICENSE"
cd "$stage"
if [ -n "${WOP_VSIX_NODE_MODULES:-}" ]; then
	# hard links where the file system allows: a copy of 160 MB is slow
	cp -al "$WOP_VSIX_NODE_MODULES" node_modules 2>/dev/null || cp -R "$WOP_VSIX_NODE_MODULES" node_modules
else
	npm ci --no-audit --no-fund --prefer-offline >&2
fi
npm pkg set "version=$version"
npx tsc -p .
npm run --silent bundle >&2

name=wop-$version.vsix
set --
if [ -n "$binary" ]; then
	mkdir bin
	exe=
	case $target in win32-*) exe=.exe ;; esac
	cp "$binary" "bin/wop$exe"
	# The chain graph panel's layout helper, found beside wop (as wop finds
	# it) when it was built there: without it, the panel says how to get it.
	helper=$(dirname "$binary")/wop-graphviz$exe
	if [ -f "$helper" ]; then cp "$helper" "bin/wop-graphviz$exe"; fi
	chmod 0755 bin/*
	# and its compiled Graphviz, where the release made one (release/precompile-graphviz,
	# which set its modes)
	if [ -d "$(dirname "$binary")/wop-graphviz-precompiled" ]; then
		cp -R "$(dirname "$binary")/wop-graphviz-precompiled" bin/
	fi
	name=wop-$version-$target.vsix
	set -- --target "$target"
fi
# --no-dependencies: the bundle holds them; node_modules stays out.
npx vsce package --no-dependencies "$@" --out "$outdir/$name" >&2
echo "$outdir/$name"
