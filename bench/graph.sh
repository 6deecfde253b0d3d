#!/usr/bin/env bash
# wop pack graph's figures: every chain of a checkout drawn in every format
# (one process per format, all chains in it), the largest chain's SVG in a
# fresh process (wazero's compiled Graphviz cached; not cached; not cached
# but seeded from the precompiled folder a release installs), the binaries'
# sizes, and `wop --version` and one-pack lint against BASE's wop (the
# layout library must cost them nothing: it lives in the wop-graphviz
# helper, and GODEBUG=inittrace=1 shows no go-graphviz or wazero package).
# Usage: bench/graph.sh CHECKOUT [PACK]   (env: REPS=10, BASE=main)
#   CHECKOUT  a folder of packs (a registry checkout's packs/)
#   PACK      the pack holding the largest chain (default: the one in
#             CHECKOUT with the most nodes in one chain)
# Needs perf (Debian linux-perf). Times are perf stat means over REPS runs.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
checkout=$(realpath "${1:?usage: bench/graph.sh CHECKOUT [PACK]}")
reps=${REPS:-10} base=${BASE:-main}
out=$PWD/bench/out/graph

buildpair "$out" "$base"
(CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out/wop-graphviz" ./cmd/wop-graphviz)
wop=$out/wop

if [ -n "${2:-}" ]; then
  pack=$(realpath "$2")
else
  pack=$(cd "$checkout" && for p in */pack.json; do
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(max([len(c.get("dag",{}).get("nodes",[])) for c in m.get("chains") or []] or [0]), sys.argv[1])' "$p"
  done | sort -n | tail -1 | cut -d' ' -f2 | xargs dirname)
  pack=$checkout/$pack
fi

mean() { # "CPU ms, wall s": means over REPS runs (CPU is task-clock: every thread, user+sys)
  { perf stat -r "$reps" "$@" 2>&1 >/dev/null || true; } |
    awk '/task-clock/ {cpu=$1} /seconds time elapsed/ {wall=$1} END {printf "cpu %6.1f ms  wall %.3f s", cpu, wall}'
}

echo "== sizes"
printf '%-28s %s bytes\n' "wop ($base)" "$(stat -c %s "$out/wop-base")" "wop (this)" "$(stat -c %s "$wop")" "wop-graphviz" "$(stat -c %s "$out/wop-graphviz")"

echo "== init: packages of go-graphviz or wazero initialised by wop --version"
GODEBUG=inittrace=1 "$wop" --version 2>&1 | grep -c -E 'goccy|wazero' || true

cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export WOP_CACHE_DIR=$cache
chains=$("$wop" pack graph "$checkout" --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["charts"]), max(len(c["chain"]["nodes"]) for c in d["charts"]))')
echo "== every chain of $checkout ($chains: chains, nodes in the largest), one process per format, mean of $reps"
for f in text mermaid dot json svg; do
  printf '%-8s %s\n' "$f" "$(mean "$wop" pack graph "$checkout" --format "$f")"
done
printf '%-8s %s\n' "all five" "$(mean bash -c 'for f in text mermaid dot json svg; do "$0" pack graph "$1" --format $f >/dev/null; done' "$wop" "$checkout")"

echo "== every chain in every format in one process (the analysis once, then each printer): go test -bench"
WOP_BENCH_CHECKOUT=$checkout go test ./internal/graphrun -run '^$' -bench DrawCheckout -benchtime "${reps}x" | grep Benchmark

echo "== the largest chain's SVG ($(basename "$pack")), a fresh process each"
printf '%-38s %s\n' "compiled Graphviz cached" "$(mean "$wop" pack graph "$pack" --format svg)"
cold() { rm -rf "$cache/graphviz"; "$wop" pack graph "$pack" --format svg; }
export -f cold; export wop pack cache
printf '%-38s %s\n' "nothing cached, no seed (go install)" "$(mean bash -c cold)"
# A release installs wop-graphviz-precompiled beside the helper
# (release/precompile-graphviz): a first run copies it into the empty cache.
release/precompile-graphviz "$out/wop-graphviz" "$(go env GOOS)" "$(go env GOARCH)" "$out/wop-graphviz-precompiled"
printf '%-38s %s\n' "nothing cached, seeded (a release)" "$(mean bash -c cold)"
printf '%-38s %s\n' "WOP_CACHE_DIR=off, seeded" "$(WOP_CACHE_DIR=off mean "$wop" pack graph "$pack" --format svg)"
rm -rf "$out/wop-graphviz-precompiled"

echo "== wop --version and one-pack lint, $base against this (WOP_CACHE_DIR=off)"
export WOP_CACHE_DIR=off
for w in "$out/wop-base" "$wop"; do
  printf '%-10s --version: %s\n' "$(basename "$w")" "$(mean "$w" --version)"
  printf '%-10s lint:      %s\n' "$(basename "$w")" "$(mean "$w" pack lint "$pack")"
done
