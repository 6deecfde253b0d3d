#!/usr/bin/env bash
# The build rows of issue 19's targets, and the peak RSS of a big build.
# Usage: bench/build.sh [PACKS_DIR]   (env: RUNS=9, BASE=main)
# Builds BASE's wop and this checkout's with release flags and runs each pair
# interleaved, as bench/targets.sh does: CPU (user+sys) and wall medians,
# peak RSS. Rows: every pack in its own process (the pre-commit and CI
# case), and every pack in one invocation, each against the registry's
# builder (bench/build-node.mjs, --all for one process) and against BASE.
# The wop rows lint first (build's default) with no lint cache; the
# --no-lint rows show the build's own work (the reference builder lints
# nothing). Every row starts from an empty output folder (the CI case),
# except the two "rebuild" rows (a developer's loop).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
packs=${1:-../shared/corpus/packs}
[ -d "$packs" ] || { echo "no $packs: benchmarking the examples (pass a folder of packs)" >&2; packs=examples; }
packs=$(realpath "$packs")
runs=${RUNS:-9}
base=${BASE:-main}
out=$PWD/bench/out/build
export WOP_CACHE_DIR=off

buildpair "$out" "$base"
W=$out/wop B=$out/wop-base
"$W" key generate --key-id bench -o "$out/key" >/dev/null 2>&1
key=$out/key/bench.pem

# sample CMD: appends "cpu_ms wall_ms rss_kb" for one run of CMD to FILE.
sample() {
  /usr/bin/time -o "$out/t" -f "%U %S %e %M" bash -c "$1" >/dev/null 2>&1 || true
  tail -1 "$out/t" | awk '{ printf "%d %d %d\n", ($1 + $2) * 1000, $3 * 1000, $4 }' >> "$2"
}
median() { cut -d' ' -f"$2" "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# pair LABEL A_CMD B_CMD: RUNS interleaved runs of each; medians and A/B.
pair() {
  : > "$out/a"; : > "$out/b"
  for _ in $(seq "$runs"); do sample "$2" "$out/a"; sample "$3" "$out/b"; done
  awk -v l="$1" -v ca="$(median "$out/a" 1)" -v wa="$(median "$out/a" 2)" \
      -v cb="$(median "$out/b" 1)" -v wb="$(median "$out/b" 2)" 'BEGIN {
    printf "%-40s %6d ms cpu %6d ms wall | %6d ms cpu %6d ms wall | ratio %.1fx cpu %.1fx wall\n",
      l, ca, wa, cb, wb, ca / (cb > 0 ? cb : 1), wa / (wb > 0 ? wb : 1) }'
}

n=$(ls -d "$packs"/*/ | wc -l)
K="--key $key --key-id bench"
# each CMD OUT: CMD (with $p for the pack) for every pack, one process
# each, into OUT emptied first. all CMD OUT: CMD once, into OUT emptied
# first. The target rows start from an empty folder, as a CI job does
# (each side pays for emptying its folder); the rebuild rows write into
# the folder of the run before, as a developer rebuilds (wop then finds
# its outputs unchanged and writes nothing; the Node builder rewrites).
each() { echo "rm -rf $2 && for p in $packs/*/; do $1 $2; done"; }
all() { echo "rm -rf $2 && $1 $2"; }
nodeEach="node bench/build-node.mjs \$p $key bench"
nodeAll="node bench/build-node.mjs --all $packs $key bench"
echo "$n packs; columns: first command | second command | ratio first/second"
pair "a process per pack: node | wop" "$(each "$nodeEach" $out/each-node)" "$(each "$W pack build \$p $K -o" $out/each-wop)"
pair "a process per pack: $base | wop" "$(each "$B pack build \$p $K -o" $out/each-base)" "$(each "$W pack build \$p $K -o" $out/each-wop)"
pair "one process: node --all | wop" "$(all "$nodeAll" $out/all-node)" "$(all "$W pack build $packs/*/ $K -o" $out/all-wop)"
pair "one process: $base | wop" "$(all "$B pack build $packs/*/ $K -o" $out/all-base)" "$(all "$W pack build $packs/*/ $K -o" $out/all-wop)"
pair "a process per pack, --no-lint: node | wop" "$(each "$nodeEach" $out/each-node)" "$(each "$W pack build \$p --no-lint $K -o" $out/each-wop-nl)"
pair "one process, --no-lint: node --all | wop" "$(all "$nodeAll" $out/all-node)" "$(all "$W pack build $packs/*/ --no-lint $K -o" $out/all-wop-nl)"
pair "one process, --no-lint: $base | wop" "$(all "$B pack build $packs/*/ --no-lint $K -o" $out/all-base-nl)" \
  "$(all "$W pack build $packs/*/ --no-lint $K -o" $out/all-wop-nl)"
pair "rebuild, a process per pack: node | wop" "for p in $packs/*/; do $nodeEach $out/re-node; done" \
  "for p in $packs/*/; do $W pack build \$p $K -o $out/re-wop; done"
pair "rebuild, one process: node --all | wop" "$nodeAll $out/re-node" "$W pack build $packs/*/ $K -o $out/re-wop"

# The tar inside every archive must be the reference builder's, byte for byte.
same=0 differ=0
for f in "$out"/all-node/*.tgz; do
  w=$out/all-wop/$(basename "$f")
  [ -f "$w" ] || continue
  if cmp -s <(gzip -dc "$f") <(gzip -dc "$w"); then same=$((same + 1)); else differ=$((differ + 1)); echo "tar differs: $(basename "$f")"; fi
done
echo "tar identical to the reference builder's: $same archives, $differ differ"

# A pack at the ceiling (bench/lib.sh's bigpack).
big=$out/private.bench.big
bigpack "$big"
for w in "$B" "$W"; do
  /usr/bin/time -f "$(basename "$w"): 50 MB pack, --no-lint: peak RSS %M KB, %e s wall, %U+%S s cpu" \
    "$w" pack build "$big" --no-lint --unsigned -o "$out/big-out" >/dev/null
done
