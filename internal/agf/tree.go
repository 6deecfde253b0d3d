package agf

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
)

// Source reads AgentFormat files by slash path and names them for findings.
type Source struct {
	Read    func(name string) ([]byte, error)
	Display func(name string) string
}

// IsFile reports whether a file name is an AgentFormat definition.
func IsFile(name string) bool {
	return strings.HasSuffix(name, ".agf.yaml") || strings.HasSuffix(name, ".agf.yml")
}

// LintTree lints the named files and every file they pull in as
// source_type file sub-agents, each once. A chain of sub-agents that leads
// back to a file already on it is reported: a runtime would recurse forever.
func LintTree(names []string, src Source, opt Options) ([]diag.Diagnostic, error) {
	t := &tree{src: src, opt: opt, done: map[string]bool{}}
	for _, n := range names {
		if err := t.visit(path.Clean(n), nil); err != nil {
			return nil, err
		}
	}
	return diag.Sort(t.diags), nil
}

type tree struct {
	src   Source
	opt   Options
	done  map[string]bool
	diags []diag.Diagnostic
}

func (t *tree) visit(name string, stack []string) error {
	if t.done[name] {
		return nil
	}
	t.done[name] = true
	data, err := t.src.Read(name)
	if err != nil {
		return fmt.Errorf("%s: %w", t.src.Display(name), err)
	}
	dir := path.Dir(name)
	opt := t.opt
	opt.ReadFile = func(rel string) ([]byte, error) { return t.src.Read(path.Join(dir, rel)) }
	ds, err := Lint(t.src.Display(name), data, opt)
	if err != nil {
		return err
	}
	t.diags = append(t.diags, ds...)
	doc, err := Parse(data)
	if err != nil {
		return nil // reported as agf-yaml-invalid
	}
	stack = append(stack, name)
	for i, it := range arr(doc.Get("/action_space/local_agents")) {
		a := obj(it)
		if st := str(a["source_type"]); st != "" && st != "file" || str(a["source"]) == "" {
			continue
		}
		child := path.Join(dir, str(a["source"]))
		if idx := slices.Index(stack, child); idx >= 0 {
			pos := doc.Position(fmt.Sprintf("/action_space/local_agents/%d/source", i))
			t.diags = append(t.diags, diag.Diagnostic{Rule: "agf-source-cycle", Severity: diag.Error, File: t.src.Display(name),
				Pointer: fmt.Sprintf("/action_space/local_agents/%d/source", i), Start: diag.Position{Line: pos.Line, Column: pos.Column},
				Message: fmt.Sprintf("sub-agent %q leads back to %s (%s): a runtime would recurse forever", str(a["alias"]), child, strings.Join(append(stack[idx:], child), " -> "))})
			continue
		}
		if _, err := t.src.Read(child); err != nil {
			continue // agf-source-missing
		}
		if err := t.visit(child, stack); err != nil {
			return err
		}
	}
	return nil
}
