#!/usr/bin/env bash
# Whole-process build timings and memory. Usage: bench/build.sh [PACKS_DIR]
# 1. Each pack built and signed in its own process: wop vs bench/build-node.mjs
#    (the registry's builder: hand-made USTAR, zlib level 9, node:crypto).
# 2. Peak RSS building a pack at the registry ceiling (50 MB, many files).
set -euo pipefail
cd "$(dirname "$0")/.."
packs=${1:-../shared/corpus/packs}
[ -d "$packs" ] || packs=examples
out=bench/out/build
rm -rf "$out" && mkdir -p "$out"
go build -trimpath -o bench/out/wop ./cmd/wop
bench/out/wop key generate --key-id bench -o "$out/key" >/dev/null 2>&1
key=$out/key/bench.pem

ms() { echo $(( ($2 - $1) / 1000000 )); }
n=0
start=$(date +%s%N)
for p in "$packs"/*/; do
  bench/out/wop pack build "$p" --no-lint --key "$key" --key-id bench -o "$out/wop" >/dev/null 2>&1 && n=$((n+1)) || true
done
wop_ms=$(ms "$start" "$(date +%s%N)")
start=$(date +%s%N)
for p in "$packs"/*/; do
  bench/out/wop pack build "$p" --key "$key" --key-id bench -o "$out/wop-lint" >/dev/null 2>&1 || true
done
wop_lint_ms=$(ms "$start" "$(date +%s%N)")
echo "wop pack build --no-lint, $n packs, one process each: $wop_ms ms"
echo "wop pack build (with lint), one process each:       $wop_lint_ms ms"
if command -v node >/dev/null; then
  start=$(date +%s%N)
  for p in "$packs"/*/; do node bench/build-node.mjs "$p" "$key" bench "$out/node" >/dev/null 2>&1 || true; done
  node_ms=$(ms "$start" "$(date +%s%N)")
  echo "node reference builder, one process each:           $node_ms ms"
  awk -v a="$node_ms" -v b="$wop_ms" -v c="$wop_lint_ms" 'BEGIN { printf "ratio node/wop: %.1fx (%.1fx with lint)\n", a / b, a / c }'
fi

# A pack at the ceiling: 50 MB unpacked in 195 files of 256 KB (random
# base64, so gzip has real work to do).
big=$out/big
mkdir -p "$big/prompts"
cat > "$big/pack.json" <<JSON
{"name":"private.bench.big","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
 "runtime":{"language":"remote","entry":"pack.json"},
 "agents":[{"agentId":"private.bench.big.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/p000.md"}]}
JSON
for i in $(seq -w 0 194); do head -c 189000 /dev/urandom | base64 -w 100 > "$big/prompts/p$i.md"; done
echo "big pack: $(du -sb "$big" | cut -f1) bytes in $(find "$big" -type f | wc -l) files"
/usr/bin/time -f "peak RSS building a 50 MB pack: %M KB (%e s)" bench/out/wop pack build "$big" --no-lint --unsigned -o "$out/bigout" >/dev/null
