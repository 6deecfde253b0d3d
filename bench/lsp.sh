#!/usr/bin/env bash
# The language server's budgets (issues 27 and 32), from the Go benchmarks
# in internal/lsp, with one client (this checkout's) driving two builds of
# `wop lsp`: BASE's (default main) and this checkout's, alternated ROUNDS
# times so both see the same machine. Per build, the median over rounds of:
# edit -> diagnostics published (median, p95, the server's CPU per edit) on
# a generated 150-node pack; hover (on a typeId) and completion (in the
# license value) asked while an edit is linted (median, p95); then, once per
# build, edit -> diagnostics on a real pack (default: the corpus's largest)
# and initialize -> first diagnostics inside a 150-pack registry checkout.
# Wall-clock figures include whatever else the machine runs; cpu-ms/op is
# what an edit costs. The heap after EDITS edits against after the first:
# go test -run '^$' -bench BenchmarkEditToDiagnostics ./internal/lsp/
# Usage: bench/lsp.sh [PACK]   (env: EDITS=300 ROUNDS=3 BASE=main)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
pack=$(realpath "${1:-../shared/corpus/packs/core.openwop.data}")
edits=${EDITS:-300}
rounds=${ROUNDS:-3}
base=${BASE:-main}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$pack" "$work/pack" # the server edits buffers only; a copy keeps the corpus out of reach anyway
buildpair "$work/bin" "$base"
go test -c -o "$work/lsp.test" ./internal/lsp/

# bench BUILD PATTERN [ENV...]: the benchmarks matching PATTERN against
# BUILD's wop lsp, their result lines tagged with BUILD.
bench() {
  local build=$1 pattern=$2 bin=$work/bin/wop
  shift 2
  [ "$build" = base ] && bin=$work/bin/wop-base
  env WOP_LSP_BENCH_BIN="$bin" "$@" "$work/lsp.test" -test.run '^$' -test.bench "$pattern" -test.benchtime "${edits}x" |
    awk -v b="$build" '/^Benchmark/ { print b, $0 }'
}

echo "== base: $(git rev-parse --short "$base") ($base); head: $(git rev-parse --short HEAD) and the working tree =="
for r in $(seq "$rounds"); do
  for build in base head; do
    bench "$build" '^(BenchmarkEditToDiagnostics|BenchmarkRequestsWhileTyping)$' | tee -a "$work/rounds"
  done
done
echo "== generated 150-node pack: medians over $rounds rounds =="
# Each line is: build name iterations value unit value unit ...
awk '{ for (i = 4; i < NF; i += 2) { k = $2 " " $(i+1); v[$1, k, ++n[$1, k]] = $i; keys[k] = 1 } }
END {
  for (k in keys) for (b = 0; b < 2; b++) {
    build = b ? "head" : "base"; m = n[build, k]; if (!m) continue
    for (i = 1; i <= m; i++) s[i] = v[build, k, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
    printf "%-50s %-5s %10.2f\n", k, build, s[int((m + 1) / 2)]
  }
}' "$work/rounds" | sort
echo "== $(basename "$pack") and a 150-pack registry checkout =="
for build in base head; do
  bench "$build" '^BenchmarkEditToDiagnostics$' WOP_LSP_BENCH_PACK="$work/pack"
  edits=$((edits / 10 + 1)) bench "$build" '^BenchmarkInitializeToFirstDiagnostics$'
done
