package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
	"golang.org/x/tools/txtar"
)

// TestV2Probes judges each probe of testdata/v2probes.txtar as the v2 spec
// does: lint under --spec v2 reports an error exactly for the invalid ones
// (by the named rule), lint under --spec auto agrees for packs whose engine
// range makes them v2, and `sign --spec v2` (the lint gate, then
// sign.CheckV2) refuses exactly the invalid ones.
func TestV2Probes(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "v2probes.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	a := txtar.Parse(raw)
	dir := t.TempDir()
	verdicts := map[string]string{}
	for _, f := range a.Files {
		if f.Name == "verdicts" {
			for _, line := range strings.Split(string(f.Data), "\n") {
				if fields := strings.Fields(line); len(fields) >= 2 {
					verdicts[fields[0]] = fields[1]
				}
			}
			continue
		}
		// Each probe lives in a directory named like its pack.
		probe, file, _ := strings.Cut(f.Name, "/")
		p := filepath.Join(dir, probe, "community.acme.demo", filepath.FromSlash(file))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(verdicts) < 10 {
		t.Fatalf("only %d probes", len(verdicts))
	}
	for name, want := range verdicts {
		t.Run(name, func(t *testing.T) {
			pk, err := pack.Load(filepath.Join(dir, name, "community.acme.demo"), tarball.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			v2 := errorRules(t, pk, spec.V2)
			if want == "valid" {
				if len(v2) > 0 {
					t.Errorf("lint --spec v2 refuses a valid v2 pack: %v", v2)
				}
			} else if !v2[want] {
				t.Errorf("lint --spec v2: %s does not fire (errors: %v)", want, v2)
			}
			root := manifestRoot(t, pk)
			auto := errorRules(t, pk, spec.Auto)
			switch {
			case spec.TreeOf(root) == spec.V2 && !sameKeys(auto, v2):
				t.Errorf("lint --spec auto judges this v2 pack differently: %v, --spec v2 %v", auto, v2)
			case spec.TreeOf(root) == spec.V1 && len(auto) > 0:
				t.Errorf("as a v1 pack (auto) it should lint clean: %v", auto)
			}
			signs := len(v2) == 0 && sign.CheckV2(root) == nil
			if signs != (want == "valid") {
				t.Errorf("sign --spec v2 accepts=%v, the spec says %s", signs, want)
			}
		})
	}
}

// TestV2AdviceCeiling: forced to v2, an unbounded range is told to add
// <3.0.0, never the <2.0.0 v2 hosts refuse.
func TestV2AdviceCeiling(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "community.acme.demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := `{"name":"community.acme.demo","version":"1.0.0","kind":"node","description":"D.","license":"MIT","engines":{"openwop":">=1.1.0"},
"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"reasoning","systemPrompt":"x"}]}`
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	// v1: the warning says to write "<2.0.0", the ceiling hosts read. v2: one mistake, one finding:
	// v2-engine-range keeps the floor and says "<3.0.0"; the unbounded
	// warning would repeat it.
	for tree, want := range map[spec.Tree]map[string]string{
		spec.Auto: {"engines-range-unbounded": `write the ceiling it has ("<2.0.0", the fix)`},
		spec.V2:   {"v2-engine-range": `write ">=1.1.0 <3.0.0"`},
	} {
		ds, err := Run(pk, Options{Spec: tree})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, d := range ds {
			if d.Pointer == "/engines/openwop" {
				got[d.Rule] = d.Message
			}
		}
		for rule, phrase := range want {
			if len(got) != 1 || !strings.Contains(got[rule], phrase) {
				t.Errorf("--spec %s: want only %s saying %s at /engines/openwop, got %q", tree, rule, phrase, got)
			}
		}
		// --fix still adds the ceiling, now through v2-engine-range in v2.
		fixes, err := Fixes(pk, ds)
		if err != nil {
			t.Fatal(err)
		}
		ceiling := map[spec.Tree]string{spec.Auto: `">=1.1.0 <2.0.0"`, spec.V2: `">=1.1.0 <3.0.0"`}[tree]
		if len(fixes) != 1 || !strings.Contains(string(fixes[0].New), ceiling) {
			t.Errorf("--spec %s --fix: %+v, want engines.openwop %s", tree, fixes, ceiling)
		}
	}
}

func errorRules(t *testing.T, pk *pack.Pack, tree spec.Tree) map[string]bool {
	t.Helper()
	ds, err := Run(pk, Options{Spec: tree})
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, d := range ds {
		if d.Severity == diag.Error {
			rules[d.Rule] = true
		}
	}
	return rules
}

func manifestRoot(t *testing.T, pk *pack.Pack) *jsonpos.Value {
	t.Helper()
	raw, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonpos.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Root
}

func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestV2ArchiveSignature: a v2 signing block names no file, so an archive
// carrying one must hold the detached signature at keys/pack.json.sig.
func TestV2ArchiveSignature(t *testing.T) {
	manifest := `pack.json={"name":"community.acme.demo","version":"1.0.0","kind":"node","description":"Demo pack.","license":"Apache-2.0","engines":{"openwop":">=1.1.0 <3.0.0"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.helper","persona":"Helper","modelClass":"reasoning","systemPrompt":"Be brief."}],"signing":{"keyId":"acme-1","scheme":"ed25519-canonical-json"}}`
	sig := "\nkeys/pack.json.sig=" + strings.Repeat("x", 64)
	for name, tc := range map[string]struct {
		archive string
		fires   bool
	}{
		"without the signature": {manifest, true},
		"with the signature":    {manifest + sig, false},
	} {
		t.Run(name, func(t *testing.T) {
			for _, tree := range []spec.Tree{spec.Auto, spec.V2} {
				got := lintExampleWith(t, []ExampleFile{{"@archive", tc.archive}}, tarball.DefaultLimits, "signing-ref-missing", Options{Spec: tree})
				if (len(got) > 0) != tc.fires {
					t.Errorf("--spec %s: signing-ref-missing fired %v, want %v: %v", tree, got, tc.fires, got)
				}
			}
			if all := errorRules(t, loadArchive(t, tc.archive), spec.V2); !tc.fires && len(all) > 0 {
				t.Errorf("a signed v2 archive does not lint clean: %v", all)
			}
		})
	}
}

func loadArchive(t *testing.T, spec string) *pack.Pack {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pack.tgz")
	if err := os.WriteFile(p, buildArchive(t, spec), 0o644); err != nil {
		t.Fatal(err)
	}
	pk, err := pack.Load(p, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}
