package verify

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/tarball"
)

const manifestV2 = `{"name":"community.acme.demo","version":"1.0.0","kind":"node","engines":{"openwop":">=2.0.0 <3.0.0"},
"runtime":{"language":"remote","entry":"pack.json"},
"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/a.md"}]}`

// buildWith builds a pack from its manifest and returns the archive, the
// version manifest build wrote (what a registry serves) and the fixture.
func buildWith(t testing.TB, manifest string) (tgz, served []byte, f *fixture) {
	t.Helper()
	f = newFixtureFrom(t, manifest, nil)
	return f.tgz, f.served, f
}

// TestServedShapeV2: a v2 registry's <version>.json must follow the v2
// registry-version-manifest schema; what wop builds does, and a served
// manifest that keeps every signed field but adds a v1 tarball path or a
// lifecycle flag of the wrong type fails the version-manifest check, in
// both the archive and the served-manifest-only paths. v1 has no such
// schema: the same additions to a v1 manifest pass.
func TestServedShapeV2(t *testing.T) {
	add := func(served []byte, field string) []byte {
		return bytes.Replace(served, []byte("\n}\n"), []byte(",\n  "+field+"\n}\n"), 1)
	}
	tgz, served, f := buildWith(t, manifestV2)
	sig, _ := os.ReadFile(f.res.Signature)
	check := func(served []byte) (archive, only string) {
		r, err := Archive(bytes.NewReader(tgz), Options{Key: f.pub, VersionManifest: served, Limits: tarball.DefaultLimits})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := ServedManifest(served, sig, Options{Key: f.pub})
		if err != nil {
			t.Fatal(err)
		}
		return failed(r, "version-manifest"), failed(r2, "version-manifest")
	}
	for _, ok := range [][]byte{served, add(served, `"tarballUrl": "/v2/packs/community.acme.demo/-/1.0.0.tgz"`), add(served, `"versionDeprecated": true`)} {
		if a, o := check(ok); a != "" || o != "" {
			t.Errorf("a valid v2 served manifest failed:\n%s\narchive: %s\nserved only: %s", ok, a, o)
		}
	}
	for field, want := range map[string]string{
		`"tarballUrl": "/v1/packs/community.acme.demo/-/1.0.0.tgz"`: "/tarballUrl: ",
		`"yanked": "soon"`: "/yanked: ",
	} {
		a, o := check(add(served, field))
		for _, msg := range []string{a, o} {
			if !strings.Contains(msg, "v2 registry-version-manifest schema") || !strings.Contains(msg, want) {
				t.Errorf("served with %s: %q, want the schema named and %q", field, msg, want)
			}
		}
	}

	tgz1, served1, f1 := buildWith(t, manifest)
	r, err := Archive(bytes.NewReader(tgz1), Options{Key: f1.pub, VersionManifest: add(served1, `"tarballUrl": "/v1/packs/community.acme.demo/-/1.0.0.tgz"`), Limits: tarball.DefaultLimits})
	if err != nil || !r.OK() {
		t.Errorf("v1 served manifest: %v %+v", err, r)
	}
}

// TestServedNotAnObject: a served manifest that is valid JSON but not an
// object is named as such, not as a manifest differing in every member.
func TestServedNotAnObject(t *testing.T) {
	f := newFixture(t)
	sig, _ := os.ReadFile(f.res.Signature)
	for _, served := range []string{`[1, 2]`, `"x"`, `null`} {
		r, err := Archive(bytes.NewReader(f.tgz), Options{Key: f.pub, VersionManifest: []byte(served), Limits: tarball.DefaultLimits})
		if err != nil {
			t.Fatal(err)
		}
		if msg := failed(r, "version-manifest"); !strings.Contains(msg, "not a JSON object") {
			t.Errorf("%s: %q", served, msg)
		}
		if _, err := ServedManifest([]byte(served), sig, Options{Key: f.pub}); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
			t.Errorf("%s served alone: %v", served, err)
		}
	}
}

// TestServedNotIndexed: a v2 <version>.json without integrity (one the
// registry has not indexed yet) says so and what to verify instead, in
// both the archive and the served-manifest-only paths.
func TestServedNotIndexed(t *testing.T) {
	tgz, served, f := buildWith(t, manifestV2)
	sig, _ := os.ReadFile(f.res.Signature)
	unindexed := regexp.MustCompile(`,\n  "integrity": "[^"]*"`).ReplaceAll(served, nil)
	if bytes.Equal(unindexed, served) {
		t.Fatalf("no integrity to remove:\n%s", served)
	}
	r, err := Archive(bytes.NewReader(tgz), Options{Key: f.pub, VersionManifest: unindexed, Limits: tarball.DefaultLimits})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := ServedManifest(unindexed, sig, Options{Key: f.pub})
	if err != nil {
		t.Fatal(err)
	}
	want := `the served version manifest does not follow the v2 registry-version-manifest schema: (root): missing required property "integrity"; ` +
		"it has no integrity, which the registry adds when it indexes the version (its build:index step): verify the .tgz alone, or this <version>.json once the registry has indexed it"
	for _, got := range []string{failed(r, "version-manifest"), failed(r2, "version-manifest")} {
		if got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
