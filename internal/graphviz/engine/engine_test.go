package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/graphviz"
)

func serve(t *testing.T, req any) graphviz.Response {
	t.Helper()
	raw, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return Serve(t.Context(), bytes.NewReader(raw))
}

func TestServe(t *testing.T) {
	resp := serve(t, graphviz.Request{Protocol: graphviz.Protocol, Graphs: []graphviz.Graph{
		{Layout: graphviz.Dot, DOT: `digraph { a -> b }`},
		{Layout: graphviz.Pinned, DOT: `digraph { a [pos="0,0!"]; b [pos="100,-100!"]; a -> b }`},
	}})
	if resp.Error != "" || len(resp.SVGs) != 2 || !strings.Contains(resp.SVGs[1], "<svg") || resp.Protocol != graphviz.Protocol {
		t.Fatalf("resp = %+v", resp)
	}
	for name, tc := range map[string]struct {
		req  any
		want string
	}{
		"old protocol":   {graphviz.Request{Protocol: 1}, "protocol 1"},
		"unknown layout": {graphviz.Request{Protocol: graphviz.Protocol, Graphs: []graphviz.Graph{{Layout: "circo", DOT: "digraph {}"}}}, "unknown layout"},
		"bad DOT":        {graphviz.Request{Protocol: graphviz.Protocol, Graphs: []graphviz.Graph{{Layout: graphviz.Dot, DOT: "digraph { a -> "}}}, "DOT"},
		"not JSON":       {"digraph {}", "cannot unmarshal"},
	} {
		t.Run(name, func(t *testing.T) {
			resp := serve(t, tc.req)
			if !strings.Contains(resp.Error, tc.want) || resp.Protocol != graphviz.Protocol {
				t.Errorf("resp = %+v, want an error with %q", resp, tc.want)
			}
		})
	}
	big := Serve(t.Context(), strings.NewReader(strings.Repeat(" ", maxRequest+1)))
	if !strings.Contains(big.Error, "request over") {
		t.Errorf("oversized request: %+v", big)
	}
}
