# Shared by the bench scripts (sourced, not run).

# gobuild SRC OUT: wop from SRC with release flags, as .goreleaser.yaml builds it.
gobuild() { (cd "$1" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$2" ./cmd/wop); }

# buildpair OUT BASE: an empty OUT holding OUT/wop-base, built from git
# revision BASE, and OUT/wop, built from this checkout, side by side.
buildpair() {
  rm -rf "$1" && mkdir -p "$1/base-src"
  git archive "$2" | tar -x -C "$1/base-src"
  gobuild "$1/base-src" "$1/wop-base"
  gobuild "$PWD" "$1/wop"
}

# bigpack DIR: a pack at the registry's ceiling, 50 MB unpacked in 195
# files of 256 KB (random base64, so deflate has real work to do).
bigpack() {
  mkdir -p "$1/prompts"
  cat > "$1/pack.json" <<JSON
{"name":"private.bench.big","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
 "runtime":{"language":"remote","entry":"pack.json"},
 "agents":[{"agentId":"private.bench.big.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/p000.md"}]}
JSON
  for i in $(seq -w 0 194); do head -c 189000 /dev/urandom | base64 -w 100 > "$1/prompts/p$i.md"; done
}
