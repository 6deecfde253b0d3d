#!/usr/bin/env bash
# Publishing to a pull-request registry, end to end, on a real clone of the
# registry's repository (its data and its own tooling, e.g. a clone of
# openwop/openwop-registry): bench/stage.sh CLONE
#
# It works on a copy of CLONE (bench/out/stage/clone), registers a test key
# in the copy's discovery document, then, with no network (unshare -rn) and
# no other step, stages a new pack and a new version of an existing pack
# with `wop pack publish --stage`. The clone's own gate runs step by step
# before and after, so failures the clone already had are told apart from
# failures the change would add (there must be none), and `git status` must
# list only the two packs' sources and registry/ files.
set -euo pipefail
clone_src=${1:?usage: bench/stage.sh CLONE (a clone of the registry repository, with its scripts)}
cd "$(dirname "$0")/.."
out=$PWD/bench/out/stage
rm -rf "$out" && mkdir -p "$out"
go build -trimpath -o "$out/wop" ./cmd/wop
wop=$out/wop
clone=$out/clone

# A throwaway copy of the clone, as a git repository.
cp -r "$clone_src" "$clone" && chmod -R u+w "$clone"
rm -rf "$clone/.git"
git -C "$clone" init -q -b main
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.test GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.test
git -C "$clone" add -A && git -C "$clone" commit -q -m clone

# Register a test key for a new namespace and for the existing demo pack,
# as the registry's maintainers would before accepting the contributor.
"$wop" key generate --key-id wop-bench-1 -o "$out/keys" >/dev/null 2>&1
cp "$out/keys/wop-bench-1.pub.pem" "$clone/registry/keys/wop-bench-1.pub"
node -e '
const fs = require("fs"); const p = process.argv[1];
const d = JSON.parse(fs.readFileSync(p, "utf8"));
d.signingKeys.push({ keyId: "wop-bench-1", algorithm: "ed25519", publicKeyUrl: "/keys/wop-bench-1.pub",
  permittedNamespaces: ["community.wopbench.*", "community.openwop-team.demo"], operator: "wop bench", status: "active" });
fs.writeFileSync(p, JSON.stringify(d, null, 2) + "\n");' "$clone/registry/.well-known/openwop-registry.json"
git -C "$clone" add -A && git -C "$clone" commit -q -m "register the wop-bench-1 key"

# The two versions: a new pack, and 0.2.0 of community.openwop-team.demo.
new=$out/src/community.wopbench.hello
mkdir -p "$new/schemas"
cat > "$new/pack.json" <<JSON
{
  "name": "community.wopbench.hello",
  "version": "1.0.0",
  "description": "A bench pack staged by wop.",
  "license": "MIT",
  "engines": { "openwop": ">=1.0.0 <2.0.0" },
  "runtime": { "language": "javascript", "format": "esm", "entry": "./index.mjs" },
  "nodes": [
    { "typeId": "community.wopbench.hello.greet", "version": "1.0.0", "label": "Greet", "category": "data", "role": "pure",
      "inputSchemaRef": "schemas/greet.input.json", "outputSchemaRef": "schemas/greet.output.json" }
  ]
}
JSON
for port in input output; do
  printf '{\n  "$id": "https://packs.openwop.dev/community.wopbench.hello/1.0.0/greet.%s.json",\n  "type": "object"\n}\n' "$port" > "$new/schemas/greet.$port.json"
done
echo 'export const nodes = { "community.wopbench.hello.greet": async () => ({ greeting: "hello" }) };' > "$new/index.mjs"
echo "# community.wopbench.hello" > "$new/README.md"
demo=$out/src/community.openwop-team.demo
cp -r "$clone/packs/community.openwop-team.demo" "$demo"
sed -i 's/"version": "0.1.0"/"version": "0.2.0"/; s#community.openwop-team.demo/0.1.0/#community.openwop-team.demo/0.2.0/#g' "$demo/pack.json" "$demo"/schemas/*.json

# The clone's gate, step by step: "STEP exit" lines plus the failures' lines.
gate_steps() {
  sed -n 's/^\(node \(--test \)\?[^ ]*\.mjs.*\)$/\1/p' "$clone/scripts/registry-check.sh" | while read -r cmd; do
    (cd "$clone" && eval "$cmd" >/tmp/wop-bench-step.out 2>&1) && rc=0 || rc=$?
    echo "== $cmd: exit $rc"
    if [ "$rc" != 0 ]; then grep -E '✗|FAIL|would change|missing|not ok|Error' /tmp/wop-bench-step.out | sort | head -200 || true; fi
  done
}
gate_steps > "$out/gate-before.txt"
echo "gate before staging:"; grep '^==' "$out/gate-before.txt"

stage() { # stage SRC EXTRA...: time one publish --stage, offline
  local src=$1; shift
  /usr/bin/time -f "-> exit %x: %e s wall, %U s user + %S s sys (generators and gate included)" \
    unshare -rn "$wop" pack publish "$src" --key "$out/keys/wop-bench-1.pem" --key-id wop-bench-1 -o "$out/dist" --stage "$clone" "$@" || true
}

echo; echo "## staging the new pack with the clone's gate (npm run check):"
stage "$new" --quiet
test -z "$(git -C "$clone" status --porcelain)" && echo "checkout left as it was: git status is empty"

echo; echo "## staging both, gate skipped (the clone's own failures above would stop it), then the gate step by step:"
stage "$new" --quiet --no-registry-check
stage "$demo" --quiet --no-registry-check
gate_steps > "$out/gate-after.txt"
echo "gate after staging:"; grep '^==' "$out/gate-after.txt"
echo "failure lines the change added (must be none):"
diff <(grep -v '^==' "$out/gate-before.txt") <(grep -v '^==' "$out/gate-after.txt") | grep '^>' || echo "  none"
echo "failure lines the change removed:"
diff <(grep -v '^==' "$out/gate-before.txt") <(grep -v '^==' "$out/gate-after.txt") | grep '^<' || echo "  none"

echo; echo "## git status --porcelain --untracked-files=all:"
git -C "$clone" status --porcelain --untracked-files=all | tee "$out/status.txt"
if grep -vE '^.. (packs/community\.wopbench\.hello/|packs/community\.openwop-team\.demo/|registry/)' "$out/status.txt"; then
  echo "FAIL: files outside the two packs' sources and registry/"; exit 1
fi
echo "OK: $(wc -l < "$out/status.txt") files, all in the two packs' sources or registry/"
