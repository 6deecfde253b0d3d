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

# Package initialisation, summed over 20 runs of --version
# (GODEBUG=inittrace=1): wop's own packages against its dependencies.
# Everything of wop's own is deferred to first use (regex.Lazy, schemas
# parsed on demand); what remains is the dependencies' own init.
for _ in $(seq 20); do GODEBUG=inittrace=1 bench/out/startup/wop --version 2>&1 >/dev/null; done |
  awk '$1 == "init" { ms[$2] += $5 } END {
    for (p in ms) { if (p ~ /^github.com\/wop-cli\//) own += ms[p]; else deps += ms[p] }
    printf "package init per run: wop %.2f ms, dependencies %.2f ms; the largest:\n", own / 20, deps / 20
    for (p in ms) printf "  %6.2f ms  %s\n", ms[p] / 20, p | "sort -rn | head -8"
  }'
