#!/usr/bin/env bash
# Peak RSS of `wop pack publish` for an archive at the registry ceiling
# (50 MB unpacked, incompressible, many files), against the test registry in
# its own process on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out/publish
rm -rf "$out" && mkdir -p "$out/big/prompts"
go build -trimpath -o bench/out/wop ./cmd/wop
go build -tags wopbench -o bench/out/registry ./bench/registry
bench/out/wop key generate --key-id bench -o "$out/key" >/dev/null 2>&1
cat > "$out/big/pack.json" <<JSON
{"name":"community.bench.big","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
 "runtime":{"language":"remote","entry":"pack.json"},
 "agents":[{"agentId":"community.bench.big.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/p000.md"}]}
JSON
# 195 prompts of ~256 KB of random base64: 50 MB unpacked, the ceiling;
# gzip shrinks base64 of random bytes only to ~3/4.
for i in $(seq -w 0 194); do head -c 192000 /dev/urandom | base64 -w 76 > "$out/big/prompts/p$i.md"; done
bench/out/wop pack build "$out/big" --no-lint --key "$out/key/bench.pem" --key-id bench -o "$out/dist" >/dev/null
tgz=$out/dist/community.bench.big-1.0.0.tgz
echo "archive: $(stat -c %s "$tgz") bytes"
bench/out/registry token bench "$out/key/bench.pub.pem" 'community.bench.*' > "$out/url" &
reg=$!
trap 'kill $reg 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$out/url" ] && break; sleep 0.1; done
WOP_TOKEN=token /usr/bin/time -f "peak RSS publishing it: %M KB (%e s)" \
  bench/out/wop pack publish "$tgz" --registry "$(cat "$out/url")" --no-lint --quiet
WOP_TOKEN=token /usr/bin/time -f "peak RSS with the lint gate: %M KB (%e s)" \
  bench/out/wop pack publish "$tgz" --registry "$(cat "$out/url")" --quiet
