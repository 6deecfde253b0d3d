#!/usr/bin/env bash
# `wop pack breaking` between every pair of consecutive published versions in
# a registry checkout. Usage: bench/breaking-pairs.sh [PACKS_DIR]
#   PACKS_DIR  registry/v1/packs of a checkout (default:
#              ../shared/registry-checkout/registry/v1/packs)
# Versions with both archives are compared archive to archive; otherwise the
# served manifests are compared (schemas and prompts then unknown: only
# manifest-level changes are seen). Prints one line per pair:
#   name old -> new: needs X, makes Y [archives|manifests] rule,rule,...
# and a tally of the pairs whose changes need a larger bump than they made.
# Node types count as provided when the registry's index.json defines them.
# Then, for a registry checkout, each pack source is compared with the archive
# published under its own version (published-version-mutated when they differ).
set -euo pipefail
cd "$(dirname "$0")/.."
packs=${1:-../shared/registry-checkout/registry/v1/packs}
# The registry's index (beside packs/) tells which pack defines each node type.
catalog=()
[ -f "$packs/../index.json" ] && catalog=(--catalog "$packs/../index.json")
mkdir -p bench/out
go build -trimpath -o bench/out/wop ./cmd/wop
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pairs=0 short=0
for dir in "$packs"/*/; do
  name=$(basename "$dir")
  mapfile -t versions < <(ls "$dir/-" 2>/dev/null | sed -nE 's/^([0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?)\.json$/\1/p' | sort -V)
  for ((i = 1; i < ${#versions[@]}; i++)); do
    old=${versions[i-1]} new=${versions[i]}
    if [ -f "$dir/-/$old.tgz" ] && [ -f "$dir/-/$new.tgz" ]; then
      a="$dir/-/$old.tgz" b="$dir/-/$new.tgz" how=archives
    else
      mkdir -p "$tmp/$name/$old" "$tmp/$name/$new"
      cp "$dir/-/$old.json" "$tmp/$name/$old/pack.json"
      cp "$dir/-/$new.json" "$tmp/$name/$new/pack.json"
      a="$tmp/$name/$old" b="$tmp/$name/$new" how=manifests
    fi
    out=$(bench/out/wop pack breaking "$b" --against "$a" --info --config /dev/null "${catalog[@]}" 2>"$tmp/err" || true)
    verdict=$(grep -o "need.*" "$tmp/err" | head -1 || true)
    rules=$(printf '%s\n' "$out" | awk '{sub(":$", "", $3); print $3}' | { grep -v "^$" || true; } | sort | uniq -c | awk '{printf "%s%s(%d)", sep, $2, $1; sep=","}')
    echo "$name $old -> $new: $verdict [$how] $rules"
    pairs=$((pairs + 1))
    if printf '%s\n' "$out" | grep -q 'version-bump-insufficient'; then short=$((short + 1)); fi
  done
done
echo "pairs: $pairs; bump insufficient: $short"

# Sources (a checkout's packs/ beside registry/) against the archive published
# under their own version: published-version-mutated when they differ.
sources="$packs/../../../packs"
if [ -d "$sources" ]; then
  checked=0 mutated=0
  for dir in "$sources"/*/; do
    name=$(basename "$dir")
    version=$(sed -nE 's/^  "version": "([^"]+)".*/\1/p' "$dir/pack.json" | head -1)
    tgz="$packs/$name/-/$version.tgz"
    [ -n "$version" ] && [ -f "$tgz" ] || continue
    checked=$((checked + 1))
    out=$(bench/out/wop pack breaking "$dir" --against "$tgz" --config /dev/null 2>/dev/null || true)
    if printf '%s\n' "$out" | grep -q published-version-mutated; then
      mutated=$((mutated + 1))
      echo "$name@$version source differs from its archive: $(printf '%s\n' "$out" | grep -o 'first difference: [^)]*')"
    fi
  done
  echo "sources with an archive of their version: $checked; published-version-mutated: $mutated"
fi
