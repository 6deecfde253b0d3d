#!/usr/bin/env bash
# Lint time and peak RSS as the pack count grows: N packs made by copying a
# folder's packs under new names. Usage: bench/scale.sh [PACKS_DIR] [N]
# Rows: all N packs cold; all N with an empty cache (CI); one pack inside
# the N-pack folder, cached (the pre-commit case must not pay for the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
packs=${1:-../shared/corpus/packs}
[ -d "$packs" ] || packs=examples
n=${2:-1000}
mkdir -p bench/out
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bench/out/wop ./cmd/wop
dir=bench/out/scale-$n
rm -rf "$dir" && mkdir -p "$dir"
srcs=("$packs"/*/)
for ((i = 0; i < n; i++)); do
  src=${srcs[$((i % ${#srcs[@]}))]}
  cp -r "$src" "$dir/copy$i.$(basename "$src")"
done
export WOP_CACHE_DIR=$PWD/bench/out/scale-cache
rm -rf "$WOP_CACHE_DIR"
measure() { /usr/bin/time -f "%e s wall, %M KB peak RSS" "$@" 2>&1 >/dev/null | tail -1; }
echo "$n packs, cold (--no-cache):    $(measure bench/out/wop pack lint --no-cache "$dir")"
echo "$n packs, empty cache:          $(measure bench/out/wop pack lint "$dir")"
packs_in=("$dir"/*/) # not ls | head: under pipefail, head closing the pipe can fail the script
one=${packs_in[0]}
echo "1 of $n packs, cached:          $(measure bench/out/wop pack lint "$one")"
echo "1 of $n packs, cold:            $(measure bench/out/wop pack lint --no-cache "$one")"
