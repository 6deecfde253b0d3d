#!/usr/bin/env bash
# Installs Mermaid's own parser (the mermaid npm package, with jsdom for the
# DOM its sanitiser needs) outside the repository, for the test that parses
# every Mermaid drawing wop makes (internal/chaindraw, TestMermaidParses).
# The test looks in $WOP_MERMAID_DIR, else ~/.cache/wop-mermaid, and skips
# with a message when neither holds the packages. Needs node and npm.
#
#   bench/mermaid-setup.sh            # into ~/.cache/wop-mermaid
#   WOP_MERMAID_DIR=/x bench/mermaid-setup.sh
set -euo pipefail
dir=${WOP_MERMAID_DIR:-$HOME/.cache/wop-mermaid}
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || npm init -y >/dev/null
if [ "$(node -p 'try { require("./node_modules/mermaid/package.json").version } catch { "" }')" = 11.17.2 ] &&
  [ -d node_modules/jsdom ]; then
  exit 0 # installed already
fi
npm install --no-audit --no-fund mermaid@11.17.2 jsdom@26
echo "Mermaid's parser is in $dir; go test ./internal/chaindraw -run TestMermaidParses uses it"
