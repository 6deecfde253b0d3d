#!/usr/bin/env bash
# Lint time and peak RSS as the pack count grows: N packs made by copying a
# folder's packs under new names. Usage: bench/scale.sh [PACKS_DIR] [N...]
# (default N: 100 1000, so the growth shows). Rows per N: all N packs cold;
# all N with an empty cache (CI), then again with every result cached; one
# pack inside the N-pack folder, cached and cold (the pre-commit case must
# not pay for the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
packs=${1:-../shared/corpus/packs}
[ -d "$packs" ] || packs=examples
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(100 1000)
mkdir -p bench/out
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bench/out/wop ./cmd/wop
srcs=("$packs"/*/)
measure() { /usr/bin/time -f "%e s wall, %U+%S s cpu, %M KB peak RSS" "$@" 2>&1 >/dev/null | tail -1; }
for n in "${counts[@]}"; do
  dir=bench/out/scale-$n
  rm -rf "$dir" && mkdir -p "$dir"
  for ((i = 0; i < n; i++)); do
    src=${srcs[$((i % ${#srcs[@]}))]}
    cp -r "$src" "$dir/copy$i.$(basename "$src")"
  done
  export WOP_CACHE_DIR=$PWD/bench/out/scale-cache
  rm -rf "$WOP_CACHE_DIR"
  printf '%-32s %s\n' "$n packs, cold (--no-cache):" "$(measure bench/out/wop pack lint --no-cache "$dir")"
  printf '%-32s %s\n' "$n packs, empty cache:" "$(measure bench/out/wop pack lint "$dir")"
  printf '%-32s %s\n' "$n packs, all cached:" "$(measure bench/out/wop pack lint "$dir")"
  packs_in=("$dir"/*/) # not ls | head: under pipefail, head closing the pipe can fail the script
  one=${packs_in[0]}
  printf '%-32s %s\n' "1 of $n packs, cached:" "$(measure bench/out/wop pack lint "$one")"
  printf '%-32s %s\n' "1 of $n packs, cold:" "$(measure bench/out/wop pack lint --no-cache "$one")"
  rm -rf "$dir"
done
