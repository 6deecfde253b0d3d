#!/usr/bin/env bash
# Start-up cost of linking sigstore-go: wop as shipped (Sigstore in the
# wop-sigstore helper) against a build that links the helper's package
# directly. Needs hyperfine (Debian package).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out/startup
go build -trimpath -o bench/out/startup/wop ./cmd/wop
# The same wop, with the Sigstore package linked in (as an unused import).
cat > cmd/wop/zz_linked_sigstore.go <<'GO'
package main

import _ "github.com/wop-cli/wop/internal/sign/sigstore"
GO
go build -trimpath -o bench/out/startup/wop-linked ./cmd/wop || true
rm -f cmd/wop/zz_linked_sigstore.go
pack=examples/community.example.support-agents
WOP_CACHE_DIR=off hyperfine -N --warmup 10 --runs 100 \
  "bench/out/startup/wop --version" "bench/out/startup/wop-linked --version" \
  "bench/out/startup/wop pack lint --no-cache $pack" "bench/out/startup/wop-linked pack lint --no-cache $pack"
