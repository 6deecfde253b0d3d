package chaindraw

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// FuzzDrawings draws a chain whose ids, names, types and ports are
// arbitrary text (a pack's, so anything) and checks each format keeps
// them inside their quotes: a Mermaid label holds none of the characters
// that end or reinterpret it, a DOT string no unescaped quote or line
// break, and nothing panics.
func FuzzDrawings(f *testing.F) {
	f.Add("a", "b", "x.y", "port", "name")
	f.Add(`we"ird <id>|#x`+"`", "]\n[", `\`, `"`, "#quot;")
	f.Fuzz(func(t *testing.T, id1, id2, typeID, port, name string) {
		v := &jsonpos.Value{Kind: jsonpos.Object}
		d := &chain.DAG{Pointer: "/chains/0/dag", ChainID: id1, Title: name,
			Nodes: []chain.Node{{ID: id1, TypeID: typeID, Name: name, Value: v,
				Inputs: []chain.Binding{{Input: port, Required: true, Source: chain.SourceUnbound}}},
				{ID: id2, TypeID: typeID, Value: v}},
			Edges:    []chain.Edge{{From: id1, FromPort: port, To: id2, ToPort: name, Pointer: "/e"}},
			Findings: []chain.Finding{{Rule: "chain-" + name, Node: id1, Pointer: "/p", Message: name}}}
		c := Chart{Pack: name, DAG: d, Changes: Diff(&chain.DAG{Nodes: []chain.Node{{ID: id2, Value: v}}}, d)}
		for _, line := range strings.Split(Mermaid(c), "\n") {
			if strings.HasPrefix(line, "%%") || line == "" {
				continue
			}
			for _, q := range quoted(line) {
				if strings.ContainsAny(q, "<>|`\n") {
					t.Fatalf("Mermaid label %q carries a character it must escape", q)
				}
			}
		}
		for _, line := range strings.Split(string(DOT(c)), "\n") {
			bare := strings.ReplaceAll(strings.ReplaceAll(line, `\\`, ""), `\"`, "")
			if strings.HasPrefix(line, "//") {
				if strings.ContainsAny(line, "\r\n") {
					t.Fatalf("DOT comment spans lines: %q", line)
				}
				continue
			}
			if strings.Count(bare, `"`)%2 == 1 {
				t.Fatalf("DOT line with an unbalanced quote: %q", line)
			}
		}
		if err := writeText(new(strings.Builder), []Chart{c}, Options{Width: 60}); err != nil {
			t.Fatal(err)
		}
	})
}

// quoted returns the "..." strings of a Mermaid line (labels never hold a
// raw quote: it is #quot;).
func quoted(line string) []string {
	parts := strings.Split(line, `"`)
	var out []string
	for i := 1; i < len(parts); i += 2 {
		out = append(out, strings.NewReplacer("<b>", "", "</b>", "", "<i>", "", "</i>", "", "<br/>", "").Replace(parts[i]))
	}
	return out
}
