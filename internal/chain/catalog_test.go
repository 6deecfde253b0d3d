package chain

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
)

func analyzeWith(t *testing.T, manifest string, o Options) *DAG {
	t.Helper()
	c, err := catalog.Open(t.Context(), filepath.Join("testdata", "catalog"), catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o.Catalog = c
	doc, err := jsonpos.Parse([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(doc.Root, o)
	if len(a.DAGs) != 1 {
		t.Fatalf("%d DAGs", len(a.DAGs))
	}
	return a.DAGs[0]
}

func bindingOf(t *testing.T, n *Node, input string) Binding {
	t.Helper()
	for _, b := range n.Inputs {
		if b.Input == input {
			return b
		}
	}
	t.Fatalf("node %s has no binding of %q: %+v", n.ID, input, n.Inputs)
	return Binding{}
}

// TestBindingsFromSchemas: where each input comes from, with the catalog's
// schemas: an edge's port, the whole output map of a port-less edge, the
// node's inputs, a documented fallback, the executor, or nothing.
func TestBindingsFromSchemas(t *testing.T) {
	const m = `{"chains": [{"chainId": "c", "dag": {"nodes": [
  {"id": "count", "typeId": "acme.tools.count"},
  {"id": "post", "typeId": "acme.tools.post", "inputs": {"title": "T"}}],
  "edges": [{"from": "count", "to": "post"}]}}]}`
	d := analyzeWith(t, m, Options{Fills: func(_ *catalog.NodeType, input string) bool { return input == "nope" }})
	post := d.Node("post")
	if post.Role != RoleSideEffect || post.Pack != "acme.tools" {
		t.Errorf("post = %+v", post)
	}
	if b := bindingOf(t, post, "n"); b.Source != SourceEdge || b.From != "count" || b.Port != "" || b.Unsure || !b.Required {
		t.Errorf("n = %+v", b)
	}
	if b := bindingOf(t, post, "title"); b.Source != SourceInputs {
		t.Errorf("title = %+v", b)
	}
	if b := bindingOf(t, post, "body"); b.Source != SourceDefault || !strings.Contains(b.Detail, "Falls back") {
		t.Errorf("body = %+v", b)
	}
	b := bindingOf(t, post, "token")
	if b.Source != SourceUnbound || !strings.Contains(b.Detail, `the edge without a port hands it the output of "count" (closed in acme.tools@1.0.0), which has no "token"`) {
		t.Errorf("token = %+v", b)
	}
	if b := bindingOf(t, post, "payload"); b.Source != SourceUnbound || b.Required {
		t.Errorf("payload = %+v", b)
	}
	if c := d.Edges[0].Carries; c == nil || !c.Closed || !slices.Equal(c.Properties, []string{"label", "n"}) {
		t.Errorf("carries = %+v", c)
	}
	var rules []string
	for _, f := range d.Findings {
		rules = append(rules, f.Rule)
	}
	// token: unbound; n: an integer into a string input; post: no gate.
	if want := []string{RuleInputUnbound, RuleEdgeTypeConflict, RuleSideEffectUngated}; !slices.Equal(rules, want) {
		t.Errorf("rules = %q, want %q: %+v", rules, want, d.Findings)
	}
	d = analyzeWith(t, m, Options{Fills: func(_ *catalog.NodeType, input string) bool { return input == "token" }})
	if b := bindingOf(t, d.Node("post"), "token"); b.Source != SourceExecutor {
		t.Errorf("token with an executor that fills it = %+v", b)
	}
}

// TestEdgeTypeOutputMember: an edge from a node with an "output" member to
// an input port carries either that member or the whole map; only when
// neither fits is the conflict definite.
func TestEdgeTypeOutputMember(t *testing.T) {
	for _, tc := range []struct {
		name, to string
		want     bool
	}{
		{"the member fits, the map does not", "post.payload", false},
		{"the map fits, the member does not", "post.envelope", false},
		{"neither fits", "post.text", true},
		{"an open upstream is silent", "", false},
		// declared has properties but no "output" member and is open: its
		// whole map may carry "meta", so envelope's requirement is no conflict.
		{"an open upstream that declares members but no output stays open", "declared>post.envelope", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, to := "wrap", tc.to
			if to == "" {
				from, to = "open", "post.text"
			}
			if f, t, ok := strings.Cut(to, ">"); ok {
				from, to = f, t
			}
			d := analyzeWith(t, `{"chains": [{"chainId": "c", "dag": {"nodes": [
  {"id": "wrap", "typeId": "acme.tools.wrap"}, {"id": "open", "typeId": "acme.tools.open"}, {"id": "declared", "typeId": "acme.tools.declared"},
  {"id": "post", "typeId": "acme.tools.post"}],
  "edges": [{"from": "`+from+`", "to": "`+to+`"}]}}]}`, Options{})
			got := slices.ContainsFunc(d.Findings, func(f Finding) bool { return f.Rule == RuleEdgeTypeConflict })
			if got != tc.want {
				t.Errorf("conflict = %v, want %v: %+v", got, tc.want, d.Findings)
			}
		})
	}
}

// TestEdgeTypeOpenUpstream: a port-less edge from an open upstream binds
// an input only when the upstream's schema declares and requires that
// member; then its type is checked. Every edge says how far it was
// checked.
func TestEdgeTypeOpenUpstream(t *testing.T) {
	for _, tc := range []struct {
		from, check string
		conflict    bool
	}{
		{"requires", TypeChecked, true},  // n: required integer, into the string input n
		{"declared", TypeUnknown, false}, // n declared, not required: it may be absent
		{"open", TypeUnknown, false},
		{"count", TypeChecked, true},
		{"other", TypeUnrelated, false}, // zone: no input of post
	} {
		t.Run(tc.from, func(t *testing.T) {
			d := analyzeWith(t, `{"chains": [{"chainId": "c", "dag": {"nodes": [
  {"id": "up", "typeId": "acme.tools.`+tc.from+`"}, {"id": "post", "typeId": "acme.tools.post", "inputs": {"title": "T", "token": "x"}}],
  "edges": [{"from": "up", "to": "post"}]}}]}`, Options{})
			got := slices.ContainsFunc(d.Findings, func(f Finding) bool { return f.Rule == RuleEdgeTypeConflict })
			if got != tc.conflict || d.Edges[0].TypeCheck != tc.check {
				t.Errorf("conflict = %v, typeCheck %q; want %v, %q: %+v", got, d.Edges[0].TypeCheck, tc.conflict, tc.check, d.Findings)
			}
		})
	}
}

// TestEdgeTypePortThroughRef: a port's path is followed through the local
// $refs of the upstream's schema, and what the edge carries is read there.
func TestEdgeTypePortThroughRef(t *testing.T) {
	d := analyzeWith(t, `{"chains": [{"chainId": "c", "dag": {"nodes": [
  {"id": "refs", "typeId": "acme.tools.refs"}, {"id": "post", "typeId": "acme.tools.post", "inputs": {"title": "T", "token": "x"}}],
  "edges": [{"from": "refs.item.label", "to": "post.n"}, {"from": "refs.item", "to": "post.payload"}]}}]}`, Options{})
	var conflicts []string
	for _, f := range d.Findings {
		if f.Rule == RuleEdgeTypeConflict {
			conflicts = append(conflicts, f.Edge)
		}
	}
	if want := []string{"/chains/0/dag/edges/0"}; !slices.Equal(conflicts, want) {
		t.Errorf("conflicts on %q, want %q: %+v", conflicts, want, d.Findings)
	}
	if c := d.Edges[1].Carries; c == nil || !slices.Equal(c.Types, []string{"object"}) || !slices.Equal(c.Properties, []string{"label"}) {
		t.Errorf("refs.item carries %+v, want an object with label", c)
	}
	if d.Edges[0].TypeCheck != TypeChecked || d.Edges[1].TypeCheck != TypeChecked {
		t.Errorf("typeCheck %q, %q", d.Edges[0].TypeCheck, d.Edges[1].TypeCheck)
	}
}

// TestEdgeTypeCheckUnknown: an edge is "unknown", not "checked", when the
// upstream's whole output is a schema the comparison cannot read (a oneOf
// behind a $ref) or the port's path leads below what the input schema
// declares.
func TestEdgeTypeCheckUnknown(t *testing.T) {
	d := analyzeWith(t, `{"chains": [{"chainId": "c", "dag": {"nodes": [
  {"id": "either", "typeId": "acme.tools.either"}, {"id": "count", "typeId": "acme.tools.count"},
  {"id": "post", "typeId": "acme.tools.post", "inputs": {"title": "T", "token": "x"}}],
  "edges": [{"from": "either", "to": "post"}, {"from": "count.n", "to": "post.payload.n.deeper"}]}}]}`, Options{})
	for i, e := range d.Edges {
		if e.TypeCheck != TypeUnknown {
			t.Errorf("edge %d (%s -> %s.%s): typeCheck %q, want %q", i, e.From, e.To, e.ToPort, e.TypeCheck, TypeUnknown)
		}
	}
}
