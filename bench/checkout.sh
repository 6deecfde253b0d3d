#!/usr/bin/env bash
# One pack in a large registry checkout (the pre-commit case): a warm-cache
# lint of one pack inside an N-pack checkout against the same pack outside
# any checkout, side by side, for wop built at BASE and for this tree.
# Times are medians over RUNS runs (wall, and CPU as perf's task-clock).
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

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else printf "%d", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
time_ms() { # median wall ms of "$@" over $runs runs, after one warm-up
  "$@" >/dev/null 2>&1 || true
  local start end
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo $(( (end - start) / 1000000 ))
  done | median
}
cpu_ms() { # median CPU ms (task-clock) of "$@" over $runs runs: less noisy than wall time on a busy machine
  command -v perf >/dev/null || { echo "-"; return; }
  for _ in $(seq "$runs"); do
    { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null || true; } | awk -F, '/task-clock/ { printf "%d\n", $1 }'
  done | median
}
syscalls() { # openat, getdents64 (directories listed) and stat calls of one run
  command -v strace >/dev/null || { echo "(no strace)"; return; }
  strace -f -c -o "$out/strace.txt" "$@" >/dev/null 2>&1 || true
  awk '$NF ~ /^(openat|getdents64|newfstatat|fstatat64|statx|lstat|stat)$/ { c[$NF] += $4 } END { printf "openat %d, getdents64 %d, stat %d", c["openat"], c["getdents64"]/2, c["newfstatat"] + c["statx"] + c["stat"] + c["lstat"] + c["fstatat64"] }' "$out/strace.txt"
}
for bin in wop-base wop; do
  export WOP_CACHE_DIR=$out/cache-$bin
  rm -rf "$WOP_CACHE_DIR"
  in_ms=$(time_ms "$out/$bin" pack lint "$one")
  out_ms=$(time_ms "$out/$bin" pack lint "$outside")
  printf '%-8s 1 pack in the %d-pack checkout, cached: %4d ms   outside: %4d ms   ratio %s\n' "$bin" "$n" "$in_ms" "$out_ms" \
    "$(awk -v a="$in_ms" -v b="$out_ms" 'BEGIN { printf "%.1fx", a / (b > 0 ? b : 0.5) }')"
  in_cpu=$(cpu_ms "$out/$bin" pack lint "$one")
  out_cpu=$(cpu_ms "$out/$bin" pack lint "$outside")
  printf '%-8s   CPU: in %s ms, outside %s ms; in the checkout: %s\n' "$bin" "$in_cpu" "$out_cpu" "$(syscalls "$out/$bin" pack lint "$one")"
done
