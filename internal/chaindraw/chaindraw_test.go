package chaindraw

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

// node makes a DAG node from its pack.json object.
func node(t testing.TB, i int, src string, role chain.Role, inputs ...chain.Binding) chain.Node {
	t.Helper()
	doc, err := jsonpos.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	v := doc.Root
	n := chain.Node{ID: v.Get("id").String(), TypeID: v.Get("typeId").String(), Name: v.Get("name").String(), Role: role, Value: v,
		Pointer: "/chains/0/dag/nodes/" + string(rune('0'+i)), Inputs: inputs}
	if p := v.Get("position"); p != nil {
		n.Position = &chain.Position{X: float64(len(p.Get("x").Num) * 100), Y: float64(i * 90)}
	}
	return n
}

// sample is a chain with every kind of thing a drawing shows: the four
// roles, a required input from each kind of source and one unbound, a
// port, a finding on a node and one on an edge, a dangling edge, a
// parameter, and an id that needs escaping in every format.
func sample(t testing.TB) *chain.DAG {
	weird := `we"ird <id>|#x` + "`"
	d := &chain.DAG{Pointer: "/chains/0/dag", ChainID: "demo.publish", Title: "Publish a post",
		Params: []chain.Param{{Name: "url", Type: "string", Required: true, Pointer: "/chains/0/parameters/properties/url", Feeds: []string{"start", "fetch"}}}}
	d.Nodes = []chain.Node{
		node(t, 0, `{"id":"start","typeId":"core.trigger.manual"}`, chain.RoleTrigger),
		node(t, 1, `{"id":"fetch","typeId":"core.web.fetch","inputs":{"url":"{{params.url}}"}}`, chain.RolePure,
			chain.Binding{Input: "url", Required: true, Source: chain.SourceInputs, Pointer: "/chains/0/dag/nodes/1/inputs/url"}),
		node(t, 2, `{"id":"approve","typeId":"core.chat.approvalGate"}`, chain.RoleGate,
			chain.Binding{Input: "text", Required: true, Source: chain.SourceEdge, From: "fetch", Port: "body", Pointer: "/chains/0/dag/edges/1"},
			chain.Binding{Input: "timeout", Required: true, Source: chain.SourceDefault, Pointer: "/chains/0/dag/nodes/2"}),
		node(t, 3, `{"id":"post","typeId":"core.slack.post","name":"Post to Slack"}`, chain.RoleSideEffect,
			chain.Binding{Input: "channel", Required: true, Source: chain.SourceUnbound, Pointer: "/chains/0/dag/nodes/3"},
			chain.Binding{Input: "text", Required: true, Source: chain.SourceEdge, From: "approve", Pointer: "/chains/0/dag/edges/2", Unsure: true},
			chain.Binding{Input: "thread", Source: chain.SourceUnbound, Pointer: "/chains/0/dag/nodes/3"}),
		node(t, 4, `{"id":"`+strings.ReplaceAll(weird, `"`, `\"`)+`","typeId":"core.log"}`, ""),
	}
	d.Edges = []chain.Edge{
		{From: "start", To: "fetch", Pointer: "/chains/0/dag/edges/0"},
		{From: "fetch", FromPort: "body", To: "approve", ToPort: "text", Pointer: "/chains/0/dag/edges/1",
			Gating: chain.Gating{Condition: map[string]any{"type": "equals", "left": "status", "right": 200.0}, When: "status = 200"}},
		{From: "approve", To: "post", Pointer: "/chains/0/dag/edges/2", Gating: chain.Gating{Condition: map[string]any{"type": "truthy", "left": "approved"}, When: "approved"}},
		{From: "post", To: weird, Pointer: "/chains/0/dag/edges/3", Gating: chain.Gating{TriggerRule: "none_failed"}},
		{From: weird, To: "ghost", Pointer: "/chains/0/dag/edges/4", Dangling: true},
		{From: "fetch", FromPort: "handle", To: "post", ToPort: "_order", Pointer: "/chains/0/dag/edges/5", OrderingOnly: true},
	}
	d.Findings = []chain.Finding{
		{Rule: chain.RuleEdgeDangling, Pointer: "/chains/0/dag/edges/4/to", Edge: "/chains/0/dag/edges/4", Message: `edge to "ghost": no such node`},
		{Rule: chain.RuleEdgeTypeConflict, Pointer: "/chains/0/dag/edges/1", Node: "approve", Edge: "/chains/0/dag/edges/1", Message: "fetch.body is a number, approve.text wants a string"},
		{Rule: chain.RuleInputUnbound, Pointer: "/chains/0/dag/nodes/3", Node: "post", Message: `node "post": requires input "channel"`},
		{Rule: chain.RuleCycle, Pointer: "/chains/0/dag", Message: "a finding about the chain as a whole"},
	}
	return d
}

// previous is sample as an earlier release had it: a node "draft" since
// removed, and post's channel bound then.
func previous(t testing.TB) *chain.DAG {
	d := &chain.DAG{Pointer: "/chains/0/dag", ChainID: "demo.publish"}
	d.Nodes = []chain.Node{
		node(t, 0, `{"id":"start","typeId":"core.trigger.manual"}`, chain.RoleTrigger),
		node(t, 1, `{"id":"fetch","typeId":"core.web.fetch","inputs":{"url":"{{params.url}}"}}`, chain.RolePure,
			chain.Binding{Input: "url", Required: true, Source: chain.SourceInputs}),
		node(t, 2, `{"id":"approve","typeId":"core.chat.approvalGate"}`, chain.RoleGate,
			chain.Binding{Input: "text", Required: true, Source: chain.SourceEdge, From: "fetch", Port: "body"},
			chain.Binding{Input: "timeout", Required: true, Source: chain.SourceDefault}),
		node(t, 3, `{"id":"draft","typeId":"core.ai.write"}`, chain.RolePure),
		node(t, 4, `{"id":"post","typeId":"core.slack.post","inputs":{"channel":"#general"}}`, chain.RoleSideEffect,
			chain.Binding{Input: "channel", Required: true, Source: chain.SourceInputs},
			chain.Binding{Input: "text", Required: true, Source: chain.SourceEdge, From: "draft", Unsure: true}),
	}
	d.Edges = []chain.Edge{
		{From: "start", To: "fetch"},
		{From: "fetch", FromPort: "body", To: "approve", ToPort: "text"},
		{From: "approve", To: "draft"},
		{From: "draft", To: "post"},
	}
	return d
}

func sampleCharts(t testing.TB) map[string]Chart {
	return map[string]Chart{
		"sample":  {Pack: "demo@1.1.0", File: "pack.json", DAG: sample(t)},
		"against": {Pack: "demo@1.1.0", File: "pack.json", DAG: sample(t), Changes: Diff(previous(t), sample(t))},
	}
}

// TestGolden holds every format's drawing of the sample, plain and with
// the changes against its previous release.
func TestGolden(t *testing.T) {
	for name, c := range sampleCharts(t) {
		for _, format := range []string{"text", "mermaid", "dot", "json"} {
			t.Run(name+"/"+format, func(t *testing.T) {
				var buf bytes.Buffer
				if err := Write(t.Context(), &buf, format, []Chart{c}, Options{}); err != nil {
					t.Fatal(err)
				}
				golden.Assert(t, name+"."+format, buf.Bytes())
			})
		}
	}
}

func TestDiff(t *testing.T) {
	c := Diff(previous(t), sample(t))
	want := map[string]Mark{"draft": Removed, "post": Changed, `we"ird <id>|#x` + "`": Added}
	for id, m := range want {
		if c.Nodes[id] != m {
			t.Errorf("node %q: %q, want %q", id, c.Nodes[id], m)
		}
	}
	if len(c.Nodes) != len(want) {
		t.Errorf("nodes marked: %v, want %v", c.Nodes, want)
	}
	if c.Edges["approve -> draft"] != Removed || c.Edges["approve -> post"] != Added || c.Edges["start -> fetch"] != "" {
		t.Errorf("edges marked: %v", c.Edges)
	}
	// A condition added to an edge is a change, and says from what.
	if k := "fetch.body -> approve.text"; c.Edges[k] != Changed || !slices.Equal(c.EdgeDetails[k], []string{"condition none → status = 200"}) {
		t.Errorf("edge %s: %q %q", k, c.Edges[k], c.EdgeDetails[k])
	}
	if got, want := c.NodeDetails["post"], []string{"name none → Post to Slack", "inputs: channel", "bindings: channel, text"}; !slices.Equal(got, want) {
		t.Errorf("post's details = %q, want %q", got, want)
	}
	if c.Params["url"] != Added || !slices.Equal(c.NewRequired, []string{"url"}) {
		t.Errorf("params %v, newly required %v", c.Params, c.NewRequired)
	}
	// An optional input bound before and by nothing now was removed: it
	// is not drawn as a changed UNBOUND line.
	unbound := sample(t)
	bound := sample(t)
	bound.Nodes[3].Inputs[2] = chain.Binding{Input: "thread", Source: chain.SourceInputs}
	if m := Diff(bound, unbound).Inputs["post"]["thread"]; m != Removed {
		t.Errorf("optional input no longer bound: %q, want removed", m)
	}
	retyped := sample(t)
	retyped.Nodes[2].TypeID = "core.chat.structuredOutput"
	if d := Diff(sample(t), retyped).NodeDetails["approve"]; !slices.Equal(d, []string{"typeId core.chat.approvalGate → core.chat.structuredOutput"}) {
		t.Errorf("retyped node's details = %q", d)
	}
	ruled := sample(t)
	ruled.Edges[3].TriggerRule = "all_complete"
	if d := Diff(sample(t), ruled).EdgeDetails["post -> "+ruled.Edges[3].To]; !slices.Equal(d, []string{"triggerRule none_failed → all_complete"}) {
		t.Errorf("trigger rule change's details = %q", d)
	}
	if c.Inputs["post"]["channel"] != Changed || c.Inputs["post"]["text"] != Changed || c.Inputs["fetch"] != nil {
		t.Errorf("inputs marked: %v", c.Inputs)
	}
	if Diff(sample(t), sample(t)).Any() {
		t.Error("a chain against itself has changes")
	}
	moved := sample(t)
	moved.Nodes[0] = node(t, 0, `{"id":"start","typeId":"core.trigger.manual","position":{"x":1,"y":2}}`, chain.RoleTrigger)
	if Diff(sample(t), moved).Any() {
		t.Error("moving a node on the canvas counts as a change")
	}
}

// TestTextColour: colour only when asked (the caller honours NO_COLOR and
// the terminal), and then the unbound input is drawn in red.
func TestTextColour(t *testing.T) {
	c := []Chart{{Pack: "demo@1.1.0", DAG: sample(t)}}
	var plain, coloured bytes.Buffer
	if err := Write(t.Context(), &plain, "text", c, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(t.Context(), &coloured, "text", c, Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain.Bytes(), []byte("\x1b[")) {
		t.Error("plain text has escape sequences")
	}
	if !bytes.Contains(coloured.Bytes(), []byte("\x1b[1;31mchannel ← UNBOUND")) && !bytes.Contains(coloured.Bytes(), []byte("\x1b[31;1mchannel ← UNBOUND")) {
		t.Errorf("the unbound input is not red:\n%q", coloured.String())
	}
}

// TestTextWidth: every line of the text drawing fits the width asked for,
// and below minDrawing the boxes give way to a list (whose lines wrap).
func TestTextWidth(t *testing.T) {
	d := sample(t)
	d.Findings[3].Message = strings.Repeat("a finding's long message ", 20) // wraps
	for _, width := range []int{100, 80, 60, 30} {
		var buf bytes.Buffer
		if err := Write(t.Context(), &buf, "text", []Chart{{Pack: "demo@1.1.0", DAG: d}}, Options{Width: width}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "nodes,") {
				continue // the counts line wraps as the terminal does
			}
			if w := lipgloss.Width(l); w > width && width >= minDrawing {
				t.Errorf("width %d: line of %d columns: %q", width, w, l)
			}
		}
		if boxes := strings.Contains(buf.String(), "╭"); boxes != (width >= minDrawing) {
			t.Errorf("width %d: boxes drawn = %v", width, boxes)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	err := Write(context.Background(), &bytes.Buffer{}, "png", nil, Options{})
	if err == nil || !strings.Contains(err.Error(), "want text, mermaid, dot, svg or json") {
		t.Errorf("err = %v", err)
	}
}

func TestSummary(t *testing.T) {
	golden.Assert(t, "summary.md", chartsSummary([]Chart{sampleCharts(t)["against"]}, SummaryMax, ""))
	// A summary of many charts stays within its bound and says what it left out.
	var many []Chart
	for range 400 {
		many = append(many, sampleCharts(t)["against"])
	}
	s := chartsSummary(many, SummaryMax, "")
	if len(s) > SummaryMax+200 || !bytes.Contains(s, []byte("more chains not shown")) {
		t.Errorf("summary of %d charts: %d bytes", len(many), len(s))
	}
	big := sample(t)
	for i := range 1500 {
		big.Nodes = append(big.Nodes, node(t, 4, `{"id":"n`+strings.Repeat("x", i%50)+`","typeId":"core.log"}`, ""))
	}
	if s := chartsSummary([]Chart{{Pack: "big@1.0.0", DAG: big}}, SummaryMax, ""); bytes.Contains(s, []byte("```mermaid")) {
		t.Error("a flowchart over Mermaid's limit is drawn")
	}
}

// TestOptionalUnboundNotDrawn: an optional input nothing binds is no
// defect; only required inputs (and changed ones) are listed.
func TestOptionalUnboundNotDrawn(t *testing.T) {
	for _, format := range []string{"text", "mermaid", "dot"} {
		var buf bytes.Buffer
		if err := Write(t.Context(), &buf, format, []Chart{{Pack: "demo@1.1.0", DAG: sample(t)}}, Options{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(buf.String(), "thread") {
			t.Errorf("%s draws the optional unbound input:\n%s", format, buf.String())
		}
	}
}

// TestLargeChainsStayLinear: a 10,000-node chain (a line, every edge
// dangling into a missing node too) draws in every format but svg
// quickly, and svg refuses it with a word on what to use.
func TestLargeChainsStayLinear(t *testing.T) {
	d := &chain.DAG{Pointer: "/chains/0/dag", ChainID: "big"}
	v := &jsonpos.Value{Kind: jsonpos.Object}
	for i := range 10000 {
		id := "n" + strconv.Itoa(i)
		d.Nodes = append(d.Nodes, chain.Node{ID: id, TypeID: "core.log", Value: v})
		if i > 0 {
			d.Edges = append(d.Edges, chain.Edge{From: "n" + strconv.Itoa(i-1), To: id})
		}
		d.Edges = append(d.Edges, chain.Edge{From: id, To: "missing" + strconv.Itoa(i), Dangling: true})
	}
	start := time.Now()
	for _, format := range []string{"text", "mermaid", "dot", "json"} {
		if err := Write(t.Context(), io.Discard, format, []Chart{{Pack: "big@1.0.0", DAG: d}}, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("drawing 10,000 nodes took %v", el)
	}
	err := Write(t.Context(), io.Discard, "svg", []Chart{{Pack: "big@1.0.0", DAG: d}}, Options{Layout: func(context.Context, []Graph) ([][]byte, error) {
		t.Fatal("laid out")
		return nil, nil
	}})
	if err == nil || !strings.Contains(err.Error(), "--format dot") {
		t.Errorf("svg of 20,000 nodes: %v", err)
	}
}

// TestSVGRefusesDenseChains: a chain of few nodes but more edges than
// MaxSVGEdges (every pair joined) is refused before the layout engine
// runs, which would take minutes, with the formats that draw it.
func TestSVGRefusesDenseChains(t *testing.T) {
	d := &chain.DAG{Pointer: "/chains/0/dag", ChainID: "dense"}
	for i := range 40 {
		d.Nodes = append(d.Nodes, chain.Node{ID: "n" + strconv.Itoa(i), TypeID: "x"})
		for j := range i {
			d.Edges = append(d.Edges, chain.Edge{From: "n" + strconv.Itoa(j), To: "n" + strconv.Itoa(i)})
		}
	}
	err := Write(t.Context(), io.Discard, "svg", []Chart{{Pack: "dense@1.0.0", DAG: d}}, Options{Layout: func(context.Context, []Graph) ([][]byte, error) {
		t.Fatal("laid out")
		return nil, nil
	}})
	if err == nil || !strings.Contains(err.Error(), "780 edges") || !strings.Contains(err.Error(), "--format dot") {
		t.Errorf("svg of 40 nodes and 780 edges: %v", err)
	}
	wide := &chain.DAG{Pointer: "/chains/0/dag", ChainID: "wide"} // nodes over the bound, no edge
	for i := range MaxSVGNodes + 1 {
		wide.Nodes = append(wide.Nodes, chain.Node{ID: "n" + strconv.Itoa(i), TypeID: "x"})
	}
	err = Write(t.Context(), io.Discard, "svg", []Chart{{Pack: "wide@1.0.0", DAG: wide}}, Options{Layout: func(context.Context, []Graph) ([][]byte, error) {
		t.Fatal("laid out")
		return nil, nil
	}})
	if want := fmt.Sprintf("%d nodes and 0 edges", MaxSVGNodes+1); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("svg of %d nodes: %v", MaxSVGNodes+1, err)
	}
}

// TestTextCounts: the counts line says "1 node", "1 edge", "1 finding".
func TestTextCounts(t *testing.T) {
	d := &chain.DAG{Pointer: "/chains/0/dag", ChainID: "c",
		Nodes:    []chain.Node{{ID: "a", TypeID: "x"}, {ID: "b", TypeID: "x"}},
		Edges:    []chain.Edge{{From: "a", To: "b"}},
		Findings: []chain.Finding{{Rule: chain.RuleCycle, Pointer: "/chains/0/dag", Message: "m"}}}
	var buf bytes.Buffer
	if err := Write(t.Context(), &buf, "text", []Chart{{Pack: "p@1.0.0", DAG: d}}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "2 nodes, 1 edge, 1 finding\n") {
		t.Errorf("counts:\n%s", buf.String())
	}
}

// TestMermaidTooLarge: charts that together pass Mermaid's limits are
// refused as one diagram, with the way out; as Markdown they are drawn.
func TestMermaidTooLarge(t *testing.T) {
	var charts []Chart
	for range 120 {
		charts = append(charts, Chart{Pack: "demo@1.1.0", DAG: sample(t)})
	}
	err := Write(t.Context(), io.Discard, "mermaid", charts, Options{})
	if err == nil || !strings.Contains(err.Error(), "-o FILE.md") {
		t.Errorf("err = %v, want the Markdown way out", err)
	}
	if err := Write(t.Context(), io.Discard, "mermaid", charts, Options{Markdown: true}); err != nil {
		t.Errorf("as Markdown: %v", err)
	}
}

// TestMermaidTooLargeEachLimit: either of Mermaid's limits alone refuses
// the one diagram: links over MermaidMaxEdges in a short text, and a text
// over MermaidMax with few links.
func TestMermaidTooLargeEachLimit(t *testing.T) {
	linked := func(id string, nodes, edges int, typeID string) Chart {
		d := &chain.DAG{Pointer: "/chains/0/dag", ChainID: id}
		for i := range nodes {
			d.Nodes = append(d.Nodes, chain.Node{ID: "n" + strconv.Itoa(i), TypeID: typeID})
		}
		for i := range edges {
			d.Edges = append(d.Edges, chain.Edge{From: "n0", To: "n" + strconv.Itoa(1+i%(nodes-1))})
		}
		return Chart{Pack: "p@1.0.0", DAG: d}
	}
	for _, tc := range []struct {
		name   string
		charts []Chart
		want   string
	}{
		{"links", []Chart{linked("a", 3, MermaidMaxEdges/2+1, "x"), linked("b", 3, MermaidMaxEdges/2+1, "x")}, fmt.Sprintf("%d links", MermaidMaxEdges+2)},
		{"characters", []Chart{linked("a", 30, 1, strings.Repeat("t", 1000)), linked("b", 30, 1, strings.Repeat("t", 1000))}, "2 links"},
	} {
		doc, links := mermaidAll(tc.charts)
		if tc.name == "links" && len(doc) > MermaidMax || tc.name == "characters" && (len(doc) <= MermaidMax || links > MermaidMaxEdges) {
			t.Fatalf("%s: the case passes both limits or neither (%d links, %d characters)", tc.name, links, len(doc))
		}
		err := Write(t.Context(), io.Discard, "mermaid", tc.charts, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it refused with %q", tc.name, err, tc.want)
		}
	}
}

// TestOneDocumentUniqueIDs: two charts alike drawn as one Mermaid
// flowchart or one DOT graph share no node or edge line: each chart's ids
// carry its own prefix, so neither merges into the other.
func TestOneDocumentUniqueIDs(t *testing.T) {
	charts := []Chart{{Pack: "demo@1.1.0", DAG: sample(t)}, {Pack: "demo@1.1.0", DAG: sample(t)}}
	for format, doc := range map[string]string{"mermaid": MermaidAll(charts), "dot": string(DOTAll(charts))} {
		seen := map[string]bool{}
		for _, l := range strings.Split(doc, "\n") {
			l = strings.TrimSpace(l)
			if !strings.Contains(l, "\"") && !strings.Contains(l, "->") || strings.HasPrefix(l, "subgraph") || strings.HasPrefix(l, "graph [") || strings.HasPrefix(l, "%%") || strings.HasPrefix(l, "//") {
				continue
			}
			if seen[l] {
				t.Errorf("%s: line drawn for both charts: %s", format, l)
			}
			seen[l] = true
		}
		if len(seen) == 0 {
			t.Errorf("%s: no node or edge line read:\n%s", format, doc)
		}
	}
}

// TestOneDocumentShape: several charts make one DOT digraph with a
// cluster per chart (Graphviz frames each, under its title) and one
// Mermaid flowchart with a subgraph per chart.
func TestOneDocumentShape(t *testing.T) {
	charts := []Chart{{Pack: "demo@1.1.0", DAG: sample(t)}, {Pack: "demo@1.1.0", DAG: sample(t)}, {Pack: "demo@1.1.0", DAG: sample(t)}}
	dot, mmd := string(DOTAll(charts)), MermaidAll(charts)
	if n, c := strings.Count(dot, "digraph "), strings.Count(dot, "subgraph \"cluster_"); n != 1 || c != len(charts) {
		t.Errorf("DOT: %d digraphs and %d clusters, want 1 and %d:\n%s", n, c, len(charts), dot)
	}
	if n, c := strings.Count(mmd, "flowchart "), strings.Count(mmd, "\n  subgraph c"); n != 1 || c != len(charts) {
		t.Errorf("Mermaid: %d flowcharts and %d subgraphs, want 1 and %d:\n%s", n, c, len(charts), mmd)
	}
}

// TestDiffNewRequired: a parameter a run must now give is newly required
// when it is new or was optional or had a default; one with a default, or
// required before too, is not.
func TestDiffNewRequired(t *testing.T) {
	old := &chain.DAG{Params: []chain.Param{{Name: "was-optional"}, {Name: "had-default", Required: true, Default: true}, {Name: "still", Required: true}, {Name: "gets-default"}}}
	cur := &chain.DAG{Params: []chain.Param{{Name: "was-optional", Required: true}, {Name: "had-default", Required: true}, {Name: "still", Required: true},
		{Name: "gets-default", Required: true, Default: true}, {Name: "new", Required: true}, {Name: "new-default", Required: true, Default: true}}}
	c := Diff(old, cur)
	if want := []string{"was-optional", "had-default", "new"}; !slices.Equal(c.NewRequired, want) {
		t.Errorf("newly required %q, want %q", c.NewRequired, want)
	}
}

// TestGatingText: an edge's label says its condition and a trigger rule
// other than the default; the default, named or not, is left out.
func TestGatingText(t *testing.T) {
	for _, tc := range []struct {
		g    chain.Gating
		want string
	}{
		{chain.Gating{}, ""},
		{chain.Gating{TriggerRule: chain.DefaultTriggerRule}, ""},
		{chain.Gating{TriggerRule: "none_failed"}, "[none_failed]"},
		{chain.Gating{When: "not approved", TriggerRule: "all_complete"}, "if not approved [all_complete]"},
	} {
		if got := gatingText(tc.g); got != tc.want {
			t.Errorf("gatingText(%+v) = %q, want %q", tc.g, got, tc.want)
		}
	}
}
