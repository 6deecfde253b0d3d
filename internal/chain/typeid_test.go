package chain

import (
	"strings"
	"testing"
)

// TestTypeIDDidYouMean: a typeId no pack defines names the catalog's one
// near spelling as the fix; with none near, it asks for a published
// typeId.
func TestTypeIDDidYouMean(t *testing.T) {
	tests := []struct{ typeID, want string }{
		{"acme.tools.coutn", `did you mean "acme.tools.count"?`},
		{"acme.tools.postt", `did you mean "acme.tools.post"?`},
		{"acme.other.nothing", "use a published typeId or publish the node"},
	}
	for _, tt := range tests {
		t.Run(tt.typeID, func(t *testing.T) {
			d := analyzeWith(t, `{"chains": [{"chainId": "c", "dag": {"nodes": [{"id": "n", "typeId": "`+tt.typeID+`"}], "edges": []}}]}`, Options{})
			var msgs []string
			for _, f := range d.Findings {
				if f.Rule == RuleTypeIDUnresolved {
					msgs = append(msgs, f.Message)
				}
			}
			if len(msgs) != 1 || !strings.HasSuffix(msgs[0], tt.want) {
				t.Errorf("findings %q, want one ending %q", msgs, tt.want)
			}
		})
	}
}
