package lint

import (
	"slices"
	"testing"

	"github.com/wop-cli/wop/internal/diag"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
)

func TestFixes(t *testing.T) {
	man, err := jsonpos.Parse([]byte(`{"name": "acme.x", "version": "2.0.0"}`))
	if err != nil {
		t.Fatal(err)
	}
	prof := Profile{SchemaBase: "https://reg.example"}
	tests := []struct {
		name string
		fix  Fix
		file string
		ptr  string
		src  string
		want string // "" = unchanged
	}{
		{"dot slash", fixRefCanonical, "pack.json", "/r", `{"r": "./a.json"}`, `{"r": "a.json"}`},
		{"double slash", fixRefCanonical, "pack.json", "/r", `{"r": "schemas//a.json"}`, `{"r": "schemas/a.json"}`},
		{"fragment needs a person", fixRefCanonical, "pack.json", "/r", `{"r": "./a.json#/x"}`, ""},
		{"escaping ref is not canonicalised", fixRefCanonical, "pack.json", "/r", `{"r": "./../a.json"}`, ""},
		{"schema id", fixSchemaID, "schemas/s.json", "/$id", `{"$id": "https://reg.example/acme.x/1.0.0/s.json"}`, `{"$id": "https://reg.example/acme.x/2.0.0/s.json"}`},
		{"no schema id to fix", fixSchemaID, "schemas/s.json", "/$id", `{"type": "object"}`, ""},
		{"ref drift", fixSchemaRefDrift, "schemas/s.json", "/$ref", `{"$ref": "https://reg.example/acme.x/1.0.0/t.json#/a"}`, `{"$ref": "https://reg.example/acme.x/2.0.0/t.json#/a"}`},
		{"engines lower bound", fixEnginesUpperBound, "pack.json", "/engines/openwop", `{"engines": {"openwop": ">=1.2.0"}}`, `{"engines": {"openwop": ">=1.2.0 <2.0.0"}}`},
		{"engines alternatives need a person", fixEnginesUpperBound, "pack.json", "/engines/openwop", `{"engines": {"openwop": ">=1.0.0 || >=3.0.0"}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := applyFixer(t, tt.fix, FixInput{File: tt.file, Pointer: tt.ptr, Manifest: man.Root, Profile: prof}, tt.src)
			want := tt.want
			if want == "" {
				want = tt.src
			}
			if got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// TestFixEnginesV2 closes a v2 pack's range at <3.0.0, never the <2.0.0 a
// v2 host refuses.
func TestFixEnginesV2(t *testing.T) {
	src := `{"engines": {"openwop": ">=1.2.0"}}`
	got := applyFixer(t, fixEnginesUpperBound, FixInput{File: "pack.json", Pointer: "/engines/openwop", Spec: spec.V2}, src)
	if want := `{"engines": {"openwop": ">=1.2.0 <3.0.0"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// applyFixer runs a rule's fixer on src parsed and applies the edit it
// gives through ApplyFix, as --fix does; src comes back when it gives none.
func applyFixer(t *testing.T, fix Fix, in FixInput, src string) string {
	t.Helper()
	doc, err := jsonpos.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	in.Doc = doc
	f, ok := fix(in)
	if !ok {
		return src
	}
	out, applied, err := ApplyFix([]byte(src), f)
	if err != nil || !applied {
		t.Fatalf("ApplyFix(%+v): applied %v, %v", f, applied, err)
	}
	return string(out)
}

// TestApplyFixes: fixes of one file apply in an order where none moves
// what another must find (a value below a member renamed, spans from the
// end back), and a fix whose text is gone (a duplicate, an edit since) is
// skipped, not forced.
func TestApplyFixes(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		fixes   []diag.Fix
		want    string
		applied []bool
	}{
		{"value under a renamed member", `{"agent": {"modelClass": "reasonin"}}`,
			[]diag.Fix{{Old: "agent", New: "agents", Pointer: "/agent", Key: true}, {Old: "reasonin", New: "reasoning", Pointer: "/agent/modelClass"}},
			`{"agents": {"modelClass": "reasoning"}}`, []bool{true, true}},
		{"the same fix twice", `{"license": "Apache 2"}`,
			[]diag.Fix{{Old: "Apache 2", New: "Apache-2.0", Pointer: "/license"}, {Old: "Apache 2", New: "Apache-2.0", Pointer: "/license"}},
			`{"license": "Apache-2.0"}`, []bool{true, false}},
		{"edited since", `{"license": "MIT"}`,
			[]diag.Fix{{Old: "Apache 2", New: "Apache-2.0", Pointer: "/license"}, {Old: "gone", New: "here", Pointer: "/gone", Key: true}},
			`{"license": "MIT"}`, []bool{false, false}},
		{"spans, first one last", "a: x\nb: y\n",
			[]diag.Fix{{Old: "a", New: "aa", Start: 0, End: 1, Was: "a", Text: "aa"}, {Old: "b", New: "bb", Start: 5, End: 6, Was: "b", Text: "bb"}},
			"aa: x\nbb: y\n", []bool{true, true}},
		{"overlapping spans", "abc: x\n",
			[]diag.Fix{{Old: "abc", New: "z", Start: 0, End: 3, Was: "abc", Text: "z"}, {Old: "bc", New: "q", Start: 1, End: 3, Was: "bc", Text: "q"}},
			"aq: x\n", []bool{false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, applied, err := ApplyFixes([]byte(tt.src), tt.fixes)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want || !slices.Equal(applied, tt.applied) {
				t.Errorf("ApplyFixes = %s %v, want %s %v", out, applied, tt.want, tt.applied)
			}
		})
	}
}

// TestApplyFixRenameOntoSibling: a rename onto a member that exists is not
// applied (it would write a duplicate key), and is no error either.
func TestApplyFixRenameOntoSibling(t *testing.T) {
	src := `{"toolAllowList": [], "toolAllowlist": ["a"]}`
	out, ok, err := ApplyFix([]byte(src), diag.Fix{Old: "toolAllowList", New: "toolAllowlist", Pointer: "/toolAllowList", Key: true})
	if err != nil || ok || string(out) != src {
		t.Errorf("ApplyFix = %s, %v, %v; want the text unchanged", out, ok, err)
	}
}
