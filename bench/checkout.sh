#!/usr/bin/env bash
# One pack in a large registry checkout (the pre-commit case): a warm-cache
# lint of one pack inside an N-pack checkout against the same pack outside
# any checkout, side by side, for wop built at BASE and for this tree.
# Times are medians over RUNS runs (wall, and CPU as perf's task-clock),
# the four kinds of run alternating.
# Usage: bench/checkout.sh [BASE] [N] [RUNS]   (defaults: main 1000 20)
# The checkout is made here from ../shared/registry-checkout: its packs
# copied under new names until there are N. Needs strace for the system
# call counts (skipped without it). NO_BUILD=1 reuses the last run's binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
base=${1:-main}
n=${2:-1000}
runs=${3:-20}
src=${REGISTRY_CHECKOUT:-../shared/registry-checkout}
[ -d "$src" ] || src=../../shared/registry-checkout # from a worktree under wt/
out=$PWD/bench/out/checkout
[ -n "${NO_BUILD:-}" ] || buildpair "$out" "$base"

# The N-pack checkout: the registry's discovery document, and its packs
# copied under new names (directory and pack.json name) until there are N.
co=$out/registry
[ ! -d "$co" ] || chmod -R u+w "$co"
rm -rf "$co" && mkdir -p "$co/packs" "$co/registry/.well-known"
cp "$src/registry/.well-known/openwop-registry.json" "$co/registry/.well-known/"
originals=("$src"/packs/*/)
for ((i = 0; i < n; i++)); do
  p=${originals[$((i % ${#originals[@]}))]}
  name=$(basename "$p")
  [ "$i" -ge "${#originals[@]}" ] && name="$name-c$i"
  cp -r "$p" "$co/packs/$name"
  chmod -R u+w "$co/packs/$name" # the shared checkout is read-only
  sed -i "0,/\"name\": *\"[^\"]*\"/s//\"name\": \"$name\"/" "$co/packs/$name/pack.json"
done
# The pack: a chain pack, so the catalog matters to its verdict.
chains=$(grep -l '"kind": *"workflow-chain"' "$src"/packs/*/pack.json)
one=$co/packs/$(basename "$(dirname "${chains%%$'\n'*}")")
outside=$out/outside/$(basename "$one")
rm -rf "$out/outside" && mkdir -p "$out/outside" && cp -r "$one" "$outside"
echo "checkout: $(ls "$co/packs" | wc -l) packs; the pack: $(basename "$one")"

median() { # the median of the numbers on stdin, one a line
  sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else printf "%.1f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
measure() { # "wall-ms cpu-ms" of one run of "$@" (CPU: perf's task-clock, "-" without perf)
  if command -v perf >/dev/null; then
    { perf stat -x, -e task-clock,duration_time "$@" 2>&1 >/dev/null || true; } |
      awk -F, '/task-clock/ { c = $1 } /duration_time/ { w = $1 / 1e6 } END { printf "%.1f %.1f\n", w, c }'
  else
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000000 )) -"
  fi
}
syscalls() { # openat, getdents64 (directories listed) and stat calls of one run
  command -v strace >/dev/null || { echo "(no strace)"; return; }
  strace -f -c -o "$out/strace.txt" "$@" >/dev/null 2>&1 || true
  awk '$NF ~ /^(openat|getdents64|newfstatat|fstatat64|statx|lstat|stat)$/ { c[$NF] += $4 } END { printf "openat %d, getdents64 %d, stat %d", c["openat"], c["getdents64"]/2, c["newfstatat"] + c["statx"] + c["stat"] + c["lstat"] + c["fstatat64"] }' "$out/strace.txt"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2fx", a / b }'; }

# Each binary's own cache, filled by a warm-up run of each pack; then the
# four (binary, place) runs alternate RUNS times, so a change in the
# machine's load falls on all of them alike.
for bin in wop-base wop; do
  export WOP_CACHE_DIR=$out/cache-$bin
  rm -rf "$WOP_CACHE_DIR" "$out"/times-$bin-*
  "$out/$bin" pack lint "$one" >/dev/null 2>&1 || true
  "$out/$bin" pack lint "$outside" >/dev/null 2>&1 || true
done
for _ in $(seq "$runs"); do
  for bin in wop-base wop; do
    export WOP_CACHE_DIR=$out/cache-$bin
    measure "$out/$bin" pack lint "$one" >>"$out/times-$bin-in"
    measure "$out/$bin" pack lint "$outside" >>"$out/times-$bin-out"
  done
done
echo "medians of $runs runs, warm cache; wall ms and CPU ms"
for bin in wop-base wop; do
  in_ms=$(cut -d' ' -f1 "$out/times-$bin-in" | median)
  out_ms=$(cut -d' ' -f1 "$out/times-$bin-out" | median)
  in_cpu=$(cut -d' ' -f2 "$out/times-$bin-in" | grep -v -- - | median)
  out_cpu=$(cut -d' ' -f2 "$out/times-$bin-out" | grep -v -- - | median)
  printf '%-8s 1 pack in the %d-pack checkout: wall %6s ms  CPU %6s ms;  outside: wall %6s ms  CPU %6s ms;  ratio wall %s, CPU %s\n' \
    "$bin" "$n" "$in_ms" "$in_cpu" "$out_ms" "$out_cpu" "$(ratio "$in_ms" "$out_ms")" "$(ratio "$in_cpu" "$out_cpu")"
  printf '%-8s   in the checkout: %s\n' "$bin" "$(WOP_CACHE_DIR=$out/cache-$bin syscalls "$out/$bin" pack lint "$one")"
done
