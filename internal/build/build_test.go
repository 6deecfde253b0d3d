package build

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

var fixture = map[string]string{
	"pack.json": `{
  "name": "community.acme.demo", "version": "1.0.0",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "runtime": {"language": "remote", "entry": "pack.json"},
  "agents": [{"agentId": "community.acme.demo.a", "persona": "A <&>", "modelClass": "general",
    "systemPromptRef": "prompts/a.md", "handoff": {"taskSchemaRef": "schemas/task.json"}}]
}`,
	"prompts/a.md":       "Be brief.\n",
	"schemas/task.json":  `{"type":"object"}`,
	"README.md":          "# demo\n",
	"LICENSE":            "MIT\n",
	"keys/pack.json.sig": "stale base64 text that must not survive the build",
	"notes/todo.txt":     "not bundled",
	".git/HEAD":          "ref: refs/heads/main",
}

// writeFixture writes the files in the given order with the given mtime.
func writeFixture(t *testing.T, dir string, order []string, mtime time.Time) {
	t.Helper()
	for _, name := range order {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fixture[name]), 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}

func names() []string {
	var out []string
	for n := range fixture {
		out = append(out, n)
	}
	return out
}

func buildIn(t *testing.T, dir string, s Signing) (*Result, []byte) {
	t.Helper()
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := NewPlan(pk, s)
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Write(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(res.Archive)
	if err != nil {
		t.Fatal(err)
	}
	return res, data
}

// TestReproducible: different days, umasks, mtimes and creation orders give
// byte-identical archives.
func TestReproducible(t *testing.T) {
	kp, _ := sign.Generate()
	key, _ := sign.ParsePrivateKey(kp.PrivatePEM, "acme-1")
	s := Signing{Spec: sign.SpecV1, Key: key}

	a := t.TempDir()
	old := umask(0o022)
	writeFixture(t, a, names(), time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	_, first := buildIn(t, a, s)

	b := t.TempDir()
	umask(0o077)
	reversed := names()
	for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
		reversed[i], reversed[j] = reversed[j], reversed[i]
	}
	writeFixture(t, b, reversed, time.Now())
	_, second := buildIn(t, b, s)
	umask(old)

	if !bytes.Equal(first, second) {
		t.Fatal("two builds of the same source differ")
	}
}

func TestArchiveContents(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, names(), time.Now())
	kp, _ := sign.Generate()
	key, _ := sign.ParsePrivateKey(kp.PrivatePEM, "acme-1")
	res, data := buildIn(t, dir, Signing{Key: key})
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff}) {
		t.Errorf("gzip header % x", data[:10])
	}
	a, err := tarball.Read(bytes.NewReader(data), tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range a.Entries {
		got = append(got, e.Name)
	}
	want := "LICENSE README.md keys/pack.json.sig pack.json prompts/a.md schemas/task.json"
	if strings.Join(got, " ") != want {
		t.Errorf("entries %v, want %s", got, want)
	}
	manifest, _ := a.Find("pack.json")
	if !strings.Contains(string(manifest.Data), `"persona":"A <&>"`) || strings.Contains(string(manifest.Data), "\n") {
		t.Errorf("pack.json is not canonical: %s", manifest.Data)
	}
	sig, _ := a.Find("keys/pack.json.sig")
	side, _ := os.ReadFile(res.Signature)
	if !bytes.Equal(sig.Data, side) || len(side) != 64 {
		t.Error("archive signature and .sig differ")
	}
	if err := sign.Verify(key.Public(), manifest.Data, sig.Data); err != nil {
		t.Error(err)
	}
	served, _ := os.ReadFile(res.Manifest)
	if !strings.HasPrefix(string(served), "{\n  \"name\": \"community.acme.demo\",") || !strings.HasSuffix(string(served), "}\n") {
		t.Errorf("served manifest:\n%s", served)
	}
	sidecar, _ := os.ReadFile(res.Sidecar)
	if string(sidecar) != res.Integrity.SRI+"\n"+res.Integrity.Hex+"\n" {
		t.Errorf("sidecar %q", sidecar)
	}
}

func TestUnbundleableRefIsAnError(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, names(), time.Now())
	m := strings.Replace(fixture["pack.json"], "prompts/a.md", "prompts/missing.md", 1)
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	pk, _ := pack.Load(dir, tarball.DefaultLimits)
	if _, err := NewPlan(pk, Signing{}); err == nil || !strings.Contains(err.Error(), "prompts/missing.md") {
		t.Errorf("missing ref: %v", err)
	}
}

// TestNoHalfWrittenArchive: a failing build leaves no file behind.
func TestNoHalfWrittenArchive(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, names(), time.Now())
	pk, _ := pack.Load(dir, tarball.DefaultLimits)
	plan, err := NewPlan(pk, Signing{})
	if err != nil {
		t.Fatal(err)
	}
	// The prompt shrinks after planning: the writer must notice and abort.
	if err := os.WriteFile(filepath.Join(dir, "prompts", "a.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := plan.Write(t.Context(), out); err == nil {
		t.Fatal("build of a changed file succeeded")
	}
	if left, _ := os.ReadDir(out); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestRuntimeEntryDotSlash: "./index.mjs" bundles index.mjs, as the registry
// builder does for every JavaScript pack.
func TestRuntimeEntryDotSlash(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pack.json": `{"name":"community.acme.nodes","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
		  "runtime":{"language":"javascript","entry":"./index.mjs"},"nodes":[{"typeId":"community.acme.nodes.x","version":"1.0.0","category":"data","role":"pure"}]}`,
		"index.mjs": "export const nodes = {};\n",
	}
	for name, data := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
	}
	pk, _ := pack.Load(dir, tarball.DefaultLimits)
	plan, err := NewPlan(pk, Signing{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(plan.Entries(), func(e Entry) bool { return e.Name == "index.mjs" }) {
		t.Errorf("entries %v lack index.mjs", plan.Entries())
	}
}

// TestVersionManifestHasIntegrity: the <name>-<version>.json beside the
// archive is the version manifest as the registry's index builder writes
// it: source member order, the signing block, and integrity last.
func TestVersionManifestHasIntegrity(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, names(), time.Now())
	kp, _ := sign.Generate()
	key, _ := sign.ParsePrivateKey(kp.PrivatePEM, "acme-1")
	res, _ := buildIn(t, dir, Signing{Key: key})
	got, err := os.ReadFile(res.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	want := "  \"signing\": {\n    \"method\": \"manual\",\n    \"publicKeyRef\": \"acme-1\",\n    \"signatureRef\": \"keys/pack.json.sig\"\n  },\n" +
		"  \"integrity\": \"" + res.Integrity.SRI + "\"\n}\n"
	if !strings.HasSuffix(string(got), want) {
		t.Errorf("version manifest ends\n%s\nwant\n%s", got[max(0, len(got)-300):], want)
	}
	if !strings.HasPrefix(string(got), "{\n  \"name\": ") {
		t.Errorf("members not in source order:\n%s", got)
	}
}

// TestNamesThatArePathsAreRefused: the manifest's name and version become
// file names; build refuses them unless they are a pack name and strict
// SemVer, lint or no lint (sign ARCHIVE never lints).
func TestNamesThatArePathsAreRefused(t *testing.T) {
	for _, tt := range []struct{ name, version string }{
		{"community.acme.x/../../evil", "1.0.0"},
		{"../evil", "1.0.0"},
		{"community.acme.x", "1.0.0/../../x"},
		{"community.acme.x", "v1.0"},
		{"community.acme.x", "1.0.0-rc.1\\x"},
	} {
		dir := t.TempDir()
		manifest := fmt.Sprintf(`{"name":%q,"version":%q,"runtime":{"language":"remote","entry":"pack.json"}}`, tt.name, tt.version)
		os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644)
		pk, err := pack.Load(dir, tarball.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewPlan(pk, Signing{}); err == nil || !strings.Contains(err.Error(), "refusing to use it in a file name") {
			t.Errorf("%s@%s: %v", tt.name, tt.version, err)
		}
	}
}

// TestSigstoreFollowsTheTree: Sigstore signing picks the tree as a key
// does (--spec, or under auto the engine range) and refuses v2, whose one
// signing scheme has no place for a bundle, before anything is signed.
func TestSigstoreFollowsTheTree(t *testing.T) {
	for _, tc := range []struct {
		engines string
		spec    sign.Spec
		refused bool
	}{
		{">=1.1.0 <2.0.0", sign.SpecAuto, false},
		{">=1.1.0 <3.0.0", sign.SpecAuto, true},
		{">=1.1.0 <3.0.0", sign.SpecV1, false},
		{">=1.1.0 <2.0.0", sign.SpecV2, true},
	} {
		dir := t.TempDir()
		manifest := fmt.Sprintf(`{"name":"community.acme.x","version":"1.0.0","kind":"node","engines":{"openwop":%q},"runtime":{"language":"remote","entry":"pack.json"}}`, tc.engines)
		os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644)
		pk, err := pack.Load(dir, tarball.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		called := false
		bundle := func([]byte) ([]byte, error) { called = true; return []byte(`{}`), nil }
		plan, err := NewPlan(pk, Signing{Spec: tc.spec, Sigstore: bundle})
		switch {
		case tc.refused && (!errors.Is(err, ErrSigstoreV2) || called):
			t.Errorf("%s %s: err %v, signed %v; want ErrSigstoreV2 before signing", tc.engines, tc.spec, err, called)
		case !tc.refused && (err != nil || !strings.Contains(string(plan.Manifest), `"method":"sigstore"`)):
			t.Errorf("%s %s: %v", tc.engines, tc.spec, err)
		}
	}
}
