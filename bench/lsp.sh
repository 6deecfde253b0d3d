#!/usr/bin/env bash
# The language server's budgets (issue 27), from the Go benchmarks in
# internal/lsp: edit -> diagnostics published (median, p95, and CPU per
# edit) on a real pack (default: the corpus's largest) and on a generated
# 150-node pack; initialize -> first diagnostics inside a generated 150-pack
# registry checkout; the heap after EDITS edits against after the first.
# Wall-clock figures include the 10 ms debounce and whatever else the
# machine runs; cpu-ms/op is what an edit costs.
# Usage: bench/lsp.sh [PACK]   (env: EDITS=300)
set -euo pipefail
cd "$(dirname "$0")/.."
pack=$(realpath "${1:-../shared/corpus/packs/core.openwop.data}")
edits=${EDITS:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$pack" "$work/pack" # the server edits buffers only; a copy keeps the corpus out of reach anyway
echo "== $(basename "$pack") =="
WOP_LSP_BENCH_PACK="$work/pack" go test -run '^$' -bench '^BenchmarkEditToDiagnostics$' -benchtime "${edits}x" ./internal/lsp/
echo "== generated: a 150-node pack; a 150-pack registry checkout =="
go test -run '^$' -bench '^(BenchmarkEditToDiagnostics|BenchmarkInitializeToFirstDiagnostics)$' -benchtime "${edits}x" ./internal/lsp/
