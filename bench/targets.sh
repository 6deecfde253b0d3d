#!/usr/bin/env bash
# One figure for every row of issue 19's "Cold speed and memory" table.
# Usage: bench/targets.sh [PACKS_DIR]   (env: RUNS=9, SCALE_N=1000, BASE=main)
# Builds BASE's wop and this checkout's wop side by side (release flags, as
# .goreleaser.yaml builds them) and runs each pair interleaved, so a busy
# shared machine slows both alike. Times are CPU (user+sys) medians, which a
# shared machine disturbs far less than wall time; wall medians are shown too.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
packs=${1:-../shared/corpus/packs}
[ -d "$packs" ] || packs=examples
packs=$(realpath "$packs")
runs=${RUNS:-9}
base=${BASE:-main}
spec=internal/schema/spec/v1
out=$PWD/bench/out/targets
export WOP_CACHE_DIR=off

buildpair "$out" "$base"
(cd bench && [ -d node_modules/ajv ] || npm install --silent --no-audit --no-fund >/dev/null)

# sample REPS CMD: CMD run REPS times in one timed shell (the timer's
# resolution is 10 ms); appends "cpu_ms wall_ms rss_kb" per run to $out/samples.
sample() {
  /usr/bin/time -o "$out/t" -f "%U %S %e %M" bash -c "for _ in \$(seq $1); do $2; done" >/dev/null 2>&1 || true
  tail -1 "$out/t" | awk -v r="$1" '{ printf "%d %d %d\n", ($1 + $2) * 1000 / r, $3 * 1000 / r, $4 }' >> "$out/samples"
}
# stats FILE: "cpu median ms, wall median ms, peak RSS max KB"
stats() {
  local cpu wall rss
  cpu=$(cut -d' ' -f1 "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  wall=$(cut -d' ' -f2 "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  rss=$(cut -d' ' -f3 "$1" | sort -n | tail -1)
  echo "$cpu $wall $rss"
}
# pair LABEL A_CMD B_CMD [REPS]: RUNS interleaved samples of each (REPS runs
# per sample, for commands shorter than the timer's resolution); prints both
# and A/B. Commands are strings run by bash, so loops work.
pair() {
  local label=$1 a=$2 b=$3 reps=${4:-1}
  : > "$out/a"; : > "$out/b"
  for _ in $(seq "$runs"); do
    : > "$out/samples"; sample "$reps" "$a"; cat "$out/samples" >> "$out/a"
    : > "$out/samples"; sample "$reps" "$b"; cat "$out/samples" >> "$out/b"
  done
  read -r ca wa ra <<< "$(stats "$out/a")"
  read -r cb wb rb <<< "$(stats "$out/b")"
  awk -v l="$label" -v ca="$ca" -v wa="$wa" -v ra="$ra" -v cb="$cb" -v wb="$wb" -v rb="$rb" 'BEGIN {
    printf "%-44s %7d ms cpu %7d ms wall %7d KB | %7d ms cpu %7d ms wall %7d KB | ratio %.1fx cpu %.1fx wall\n",
      l, ca, wa, ra, cb, wb, rb, ca / (cb > 0 ? cb : 1), wa / (wb > 0 ? wb : 1) }'
}

n=$(ls -d "$packs"/*/ | wc -l)
one=$(ls -d "$packs"/*/ | head -1)
W=$out/wop B=$out/wop-base
echo "columns: first command | second command | ratio first/second (above 1: the second is faster)"
echo "== lint"
pair "$n packs cold: node+ajv | wop" "node bench/ajv-lint.mjs $spec $packs" "$W pack lint --no-cache $packs"
pair "$n packs cold: $base | wop" "$B pack lint --no-cache $packs" "$W pack lint --no-cache $packs"
pair "one pack cold: $base | wop" "$B pack lint --no-cache $one" "$W pack lint --no-cache $one" 20
pair "--version: $base | wop" "$B --version" "$W --version" 50
pair "--help: $base | wop" "$B --help" "$W --help" 50
echo "== build"
"$W" key generate --key-id bench -o "$out/key" >/dev/null 2>&1
key=$out/key/bench.pem
loop() { echo "for p in $packs/*/; do $1; done"; }
pair "build, a process per pack: node | wop" "$(loop "node bench/build-node.mjs \$p $key bench $out/b-node")" \
  "$(loop "$W pack build \$p --key $key --key-id bench -o $out/b-wop")"
pair "build, a process per pack: $base | wop" "$(loop "$B pack build \$p --key $key --key-id bench -o $out/b-base")" \
  "$(loop "$W pack build \$p --key $key --key-id bench -o $out/b-wop")"
pair "build, all in one process: node --all | wop" "node bench/build-node.mjs --all $packs $key bench $out/a-node" \
  "$W pack build $packs/*/ --key $key --key-id bench -o $out/a-wop"
pair "build, all in one process: $base | wop" "$B pack build $packs/*/ --key $key --key-id bench -o $out/a-base" \
  "$W pack build $packs/*/ --key $key --key-id bench -o $out/a-wop"

echo "== a pack at the registry ceiling (50 MB in 195 files of 256 KB)"
big=$out/private.bench.big
bigpack "$big"
"$W" pack build "$big" --no-lint --key "$key" --key-id bench -o "$out/big-out" >/dev/null 2>&1
tgz=$(ls "$out"/big-out/*.tgz)
pair "lint 50 MB folder: $base | wop" "$B pack lint --no-cache $big" "$W pack lint --no-cache $big"
pair "lint it as .tgz: $base | wop" "$B pack lint --no-cache $tgz" "$W pack lint --no-cache $tgz"
pair "verify the .tgz: $base | wop" "$B pack verify $tgz --key $out/key/bench.pub.pem" \
  "$W pack verify $tgz --key $out/key/bench.pub.pem"
pair "verify it --source: $base | wop" "$B pack verify $tgz --key $out/key/bench.pub.pem --source $big" \
  "$W pack verify $tgz --key $out/key/bench.pub.pem --source $big"
echo "== scaling"
if [ "${SCALE_N:-}" != 0 ]; then bench/scale.sh "$packs" ${SCALE_N:-100 1000}; fi # word splitting: a list of counts
