package yamlspan

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// scalars lists every scalar node of src's first document, keys included.
func scalars(t testing.TB, src []byte) []*yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Skip()
	}
	var out []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			out = append(out, n)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	return out
}

// node is the scalar of src whose value is v.
func node(t *testing.T, src, v string) *yaml.Node {
	t.Helper()
	for _, n := range scalars(t, []byte(src)) {
		if n.Value == v {
			return n
		}
	}
	t.Fatalf("no scalar %q in %q", v, src)
	return nil
}

// TestReplace: the scalar's own bytes become the new text in its quoting,
// wherever it sits (key, value, flow, after wide characters).
func TestReplace(t *testing.T) {
	tests := []struct{ name, src, old, new, want string }{
		{"plain key", "rules:\n  placeholder-lef: off\n", "placeholder-lef", "placeholder-left", "rules:\n  placeholder-left: off\n"},
		{"double quoted key", "rules:\n  \"placeholder-lef\": off\n", "placeholder-lef", "placeholder-left", "rules:\n  \"placeholder-left\": off\n"},
		{"single quoted value", "a: 'it''s'\n", "it's", "its", "a: 'its'\n"},
		{"after wide characters", "d: \"日本\"\nk: {x: vison}\n", "vison", "vision", "d: \"日本\"\nk: {x: vision}\n"},
		{"plain that must be quoted", "a: tru\n", "tru", "true", "a: \"true\"\n"},
		{"escaped double", "a: \"x\\\"y\"\n", "x\"y", "z", "a: \"z\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := Replace([]byte(tt.src), node(t, tt.src, tt.old), tt.new)
			if !ok {
				t.Fatal("no fix")
			}
			got := tt.src[:f.Start] + f.Text + tt.src[f.End:]
			if got != tt.want || f.Was != tt.src[f.Start:f.End] || f.Old != tt.old || f.New != tt.new {
				t.Errorf("got %q (%+v), want %q", got, f, tt.want)
			}
		})
	}
	for _, src := range []string{"a: |\n  block\n", "a: &x anchored\n", "a: folded\n  over lines\n"} {
		for _, n := range scalars(t, []byte(src)) {
			if n.Value != "a" {
				if f, ok := Replace([]byte(src), n, "other"); ok {
					t.Errorf("%q: replaced %q: %+v", src, n.Value, f)
				}
			}
		}
	}
}

// FuzzReplace: whatever the text, a replacement found holds the scalar as
// written, and the text with it replaced is still YAML whose scalar there
// is the new value.
func FuzzReplace(f *testing.F) {
	for _, s := range []string{"rules:\n  ref-mising: off\n", "a: 'it''s'\n", "k: {x: \"v\\\"\"}\n", "- [a, 'b', \"c\"]\n", "日本: x\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, n := range scalars(t, src) {
			fix, ok := Replace(src, n, "x-new")
			if !ok {
				continue
			}
			if string(src[fix.Start:fix.End]) != fix.Was || !means([]byte(fix.Was), n.Value) {
				t.Fatalf("span %d-%d %q is not %q", fix.Start, fix.End, src[fix.Start:fix.End], n.Value)
			}
			out := string(src[:fix.Start]) + fix.Text + string(src[fix.End:])
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%q became %q, not YAML: %v", src, out, err)
			}
		}
	})
}
