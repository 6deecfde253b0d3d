#!/usr/bin/env bash
# Whole-process lint timings. Usage: bench/lint.sh [PACKS_DIR] [RUNS]
#   PACKS_DIR  a folder of packs (default: ../shared/corpus/packs if present, else examples)
# Reports: one-pack lint (the pre-commit case), all packs in one run, and the
# same folder through bench/ajv-lint.mjs (Node + ajv: manifest validation,
# every pack schema compiled, ref existence), with the ratio. Needs node and
# npm for the comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
packs=${1:-../shared/corpus/packs}
[ -d "$packs" ] || packs=examples
runs=${2:-20}
spec=internal/schema/spec/v1
mkdir -p bench/out
# Built as .goreleaser.yaml builds releases.
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bench/out/wop ./cmd/wop
one=$(ls -d "$packs"/*/ | head -1)

# mean wall time in ms of running "$@" $runs times
time_ms() {
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$runs"); do "$@" >/dev/null 2>&1 || true; done
  end=$(date +%s%N)
  echo $(( (end - start) / runs / 1000000 ))
}

n=$(ls -d "$packs"/*/ | wc -l)
export WOP_CACHE_DIR=$PWD/bench/out/cache
rm -rf "$WOP_CACHE_DIR"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / (b > 0 ? b : 0.5) }'; }
echo "wop --version:                        $(time_ms bench/out/wop --version) ms"
echo "wop pack lint, 1 pack, cold:          $(time_ms bench/out/wop pack lint --no-cache "$one") ms"
echo "wop pack lint, 1 pack, cached:        $(time_ms bench/out/wop pack lint "$one") ms"
cold=$(time_ms bench/out/wop pack lint --no-cache "$packs")
# CI's case: the cache on, and empty (every run fills it from scratch).
fill() { rm -rf "$WOP_CACHE_DIR"; "$@"; }
ci=$(time_ms fill bench/out/wop pack lint "$packs")
warm=$(time_ms bench/out/wop pack lint "$packs")
echo "wop pack lint, $n packs, cold:        $cold ms"
echo "wop pack lint, $n packs, empty cache: $ci ms"
echo "wop pack lint, $n packs, cached:      $warm ms"
if command -v node >/dev/null && command -v npm >/dev/null; then
  (cd bench && [ -d node_modules/ajv ] || npm install --silent --no-audit --no-fund >/dev/null)
  node_all=$(time_ms node bench/ajv-lint.mjs "$spec" "$packs")
  echo "node+ajv, $n packs:                   $node_all ms"
  echo "ratio node/wop cold:                  $(ratio "$node_all" "$cold")"
  echo "ratio node/wop cached:                $(ratio "$node_all" "$warm")"
fi
