package assist

import (
	"fmt"
	"strings"

	ch "github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
)

// chainNodeFacts says, for a chain node's id at path, where each of the
// node's inputs gets its value and what the chain rules found on it. It
// reads the one chain analysis lint reports from, with the options lint
// passes, so the hover and lint never disagree. It needs the buffer to be
// valid JSON (the analysis reads a strict parse): "" while it is not.
func (m *manifest) chainNodeFacts(env Env, path []string) string {
	if len(path) < 4 || path[len(path)-1] != "id" || path[len(path)-3] != "nodes" {
		return ""
	}
	doc, err := jsonpos.Parse(m.doc.Text)
	if err != nil {
		return ""
	}
	an := ch.Analyze(doc.Root, lint.ChainOptions(doc.Root, env.Catalog, m.tree))
	at := pointer(path[:len(path)-1])
	d, n := an.NodeAt(at)
	if n == nil || n.Pointer != at {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**node `%s`**", n.ID)
	if n.TypeID != "" {
		fmt.Fprintf(&b, " (`%s`", n.TypeID)
		if n.Role != "" {
			fmt.Fprintf(&b, ", %s", n.Role)
		}
		b.WriteString(")")
	}
	if len(n.Inputs) == 0 {
		b.WriteString("\n\nInputs: none known")
		if env.Catalog == nil {
			b.WriteString(" (no catalog is known, so its input schema cannot be read)")
		}
	} else {
		b.WriteString("\n\nWhere its inputs come from:\n")
		for _, in := range n.Inputs {
			req := ""
			if in.Required {
				req = " (required)"
			}
			fmt.Fprintf(&b, "\n- `%s`%s: %s", in.Input, req, bindingWords(in))
		}
	}
	for _, f := range d.Findings {
		if f.Node == n.ID {
			fmt.Fprintf(&b, "\n\n%s: %s", f.Rule, f.Message)
		}
	}
	return b.String()
}

// bindingWords says where one input's value comes from.
func bindingWords(in ch.Binding) string {
	var s string
	switch in.Source {
	case ch.SourceEdge:
		s = "edge from `" + ch.End(in.From, in.Port) + "`"
		if in.Port == "" {
			s += ", its whole output"
		}
	case ch.SourceInputs:
		s = "the node's `inputs`"
	case ch.SourceConfig:
		s = "the node's `config`"
	case ch.SourceParameter:
		s = "the run's inputs"
		if in.Param != "" {
			s = "chain parameter `" + in.Param + "`"
		}
	case ch.SourceDefault:
		s = "default: " + in.Detail
	case ch.SourceExecutor:
		s = "executor: " + in.Detail
	case ch.SourceUnbound:
		if !in.Required {
			return "not set (optional)"
		}
		s = "**UNBOUND**: nothing sets it or feeds it"
		if why := strings.TrimPrefix(in.Detail, "; "); why != "" {
			s += " (" + why + ")"
		}
		return s
	}
	if in.Unsure {
		s += " (maybe: " + in.Detail + ")"
	}
	return s
}

// pointer makes a JSON pointer of path's tokens.
func pointer(path []string) string {
	var b strings.Builder
	for _, t := range path {
		b.WriteString("/" + jsonpos.EscapeToken(t))
	}
	return b.String()
}
