#!/usr/bin/env bash
# Per-process cost of one pack: `wop pack build` (with and without lint),
# `wop pack lint` and `wop --version`, for BASE's wop and this checkout's,
# against the registry's builder (bench/build-node.mjs) and the floor: a Go
# program that only imports santhosh-tekuri/jsonschema/v6, whose own init
# (it compiles the metaschemas of five drafts) wop cannot avoid; and
# --version of this wop with sigstore-go linked in.
# Usage: bench/startup.sh [PACK]   (env: ROUNDS=15, REPS=10, BASE=main)
# Needs perf (Debian linux-perf) and node. Every round runs each command
# REPS times under `perf stat` (CPU = task-clock, user+sys of every thread;
# wall = elapsed), commands interleaved so a busy machine slows all alike;
# the figures are medians over ROUNDS rounds of those means.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
pack=$(realpath "${1:-examples/community.example.support-agents}")
rounds=${ROUNDS:-15} reps=${REPS:-10} base=${BASE:-main}
out=$PWD/bench/out/startup
export WOP_CACHE_DIR=off

buildpair "$out" "$base"
mkdir -p "$out/floor"
# The floor, built inside this module so it takes the same jsonschema.
cat > "$out/floor/main.go" <<'GO'
package main

import (
	"fmt"

	_ "github.com/santhosh-tekuri/jsonschema/v6"
)

func main() { fmt.Println("floor") }
GO
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out/floor-bin" ./bench/out/startup/floor
rm -rf "$out/floor"
# This wop with sigstore-go linked in (an unused import): what start-up
# would pay if Sigstore did not live in the wop-sigstore helper.
echo 'package main; import _ "github.com/wop-cli/wop/internal/sign/sigstore"' > cmd/wop/zz_linked_sigstore.go
gobuild "$PWD" "$out/wop-linked" || true
rm -f cmd/wop/zz_linked_sigstore.go
"$out/wop" key generate --key-id bench -o "$out/key" >/dev/null 2>&1

# name=command pairs, run in this order every round.
cmds=(
  "node=node bench/build-node.mjs $pack $out/key/bench.pem bench $out/node-out"
  "floor=$out/floor-bin"
  "wop+sigstore --version=$out/wop-linked --version"
)
for w in wop-base wop; do
  W=$out/$w
  cmds+=(
    "$w build=$W pack build $pack --key $out/key/bench.pem --key-id bench -o $out/$w-out"
    "$w build --no-lint=$W pack build --no-lint $pack --key $out/key/bench.pem --key-id bench -o $out/$w-out"
    "$w lint=$W pack lint $pack"
    "$w --version=$W --version"
  )
done

# round: one perf stat of REPS runs per command; appends "name|cpu_ms|wall_ms|faults".
for _ in $(seq "$rounds"); do
  for c in "${cmds[@]}"; do
    name=${c%%=*} cmd=${c#*=}
    # shellcheck disable=SC2086 # cmd is a command line
    perf stat -r "$reps" $cmd 2>&1 >/dev/null | awk -v n="$name" '
      /task-clock/ { cpu = $1 } /page-faults/ { pf = $1 } /seconds time elapsed/ { wall = $1 * 1000 }
      END { printf "%s|%.2f|%.2f|%d\n", n, cpu, wall, pf }' >> "$out/samples"
  done
done

# median NAME FIELD: the median of one field of NAME's samples.
median() {
  awk -F'|' -v n="$1" -v f="$2" '$1 == n { print $f }' "$out/samples" | sort -n |
    awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
echo "per process, medians of $rounds rounds of $reps runs (pack: $(basename "$pack"))"
printf '%-28s %9s %9s %7s %16s\n' command "cpu ms" "wall ms" faults "node/this wall"
nodewall=$(median node 3)
for c in "${cmds[@]}"; do
  name=${c%%=*}
  printf '%-28s %9.2f %9.2f %7d %15.1fx\n' "$name" "$(median "$name" 2)" "$(median "$name" 3)" "$(median "$name" 4)" \
    "$(awk -v a="$nodewall" -v b="$(median "$name" 3)" 'BEGIN { print a / b }')"
done

# Package initialisation of this checkout's wop, summed over 20 runs of
# --version (GODEBUG=inittrace=1): wop's own packages against its
# dependencies. What remains is the dependencies' own init.
for _ in $(seq 20); do GODEBUG=inittrace=1 "$out/wop" --version 2>&1 >/dev/null; done |
  awk '$1 == "init" { ms[$2] += $5 } END {
    for (p in ms) { if (p ~ /^github.com\/wop-cli\//) own += ms[p]; else deps += ms[p] }
    printf "package init per run: wop %.2f ms, dependencies %.2f ms; the largest:\n", own / 20, deps / 20
    for (p in ms) printf "  %6.2f ms  %s\n", ms[p] / 20, p | "sort -rn | head -8"
  }'
