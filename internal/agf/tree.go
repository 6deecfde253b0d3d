package agf

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
)

// Source reads AgentFormat files by slash path and names them for findings.
type Source struct {
	Read    func(name string) ([]byte, error)
	Display func(name string) string
	// Root, when set, is the folder every sub-agent source must stay in (a
	// pack's root, "."). Unset, each named file's own folder is the root:
	// a source such as ../../.config/wop/credentials.json is never read.
	Root string
}

// ErrOutsideTree means a sub-agent source leads out of the folder being
// linted; it is refused, not read.
var ErrOutsideTree = errors.New("leads outside the folder being linted")

// IsFile reports whether a file name is an AgentFormat definition.
func IsFile(name string) bool {
	return strings.HasSuffix(name, ".agf.yaml") || strings.HasSuffix(name, ".agf.yml")
}

// LintTree lints the named files and every file they pull in as
// source_type file sub-agents, each once. Each file's pass knows the chain
// of files that led to it, so agf-source-cycle can name a loop.
func LintTree(names []string, src Source, opt Options) ([]diag.Diagnostic, error) {
	t := &tree{src: src, opt: opt, done: map[string]bool{}}
	for _, n := range names {
		n = path.Clean(n)
		root := src.Root
		if root == "" {
			root = path.Dir(n)
		}
		if err := t.visit(n, root, nil); err != nil {
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

func (t *tree) visit(name, root string, chain []string) error {
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
	opt.ReadFile = func(rel string) ([]byte, error) { return t.readWithin(root, path.Join(dir, rel)) }
	chain = append(slices.Clip(chain), name)
	ds, err := lintFile(t.src.Display(name), data, opt, chain)
	if err != nil {
		return err
	}
	t.diags = append(t.diags, ds...)
	doc, err := Parse(data)
	if err != nil {
		return nil // reported as agf-yaml-invalid
	}
	for _, sa := range fileSubAgents(doc) {
		child := path.Join(dir, sa.source)
		if slices.Contains(chain, child) {
			continue // agf-source-cycle
		}
		if _, err := t.readWithin(root, child); err != nil {
			continue // agf-source-missing
		}
		if err := t.visit(child, root, chain); err != nil {
			return err
		}
	}
	return nil
}

// readWithin reads name only if it lies inside root.
func (t *tree) readWithin(root, name string) ([]byte, error) {
	if !within(root, name) {
		return nil, ErrOutsideTree
	}
	return t.src.Read(name)
}

// within reports whether the clean slash path name lies inside root.
func within(root, name string) bool {
	rel, err := filepath.Rel(filepath.FromSlash(root), filepath.FromSlash(name))
	return err == nil && rel != ".." && !strings.HasPrefix(filepath.ToSlash(rel), "../")
}

// subAgent is a local_agents entry whose definition is a file.
type subAgent struct {
	ptr, alias, source string
}

// fileSubAgents lists the local_agents entries with source_type file (the
// default) and a source.
func fileSubAgents(doc *Doc) []subAgent {
	var out []subAgent
	for i, it := range arr(doc.Get("/action_space/local_agents")) {
		a := obj(it)
		if st := str(a["source_type"]); st != "" && st != "file" || str(a["source"]) == "" {
			continue
		}
		out = append(out, subAgent{fmt.Sprintf("/action_space/local_agents/%d/source", i), str(a["alias"]), str(a["source"])})
	}
	return out
}

// CheckSourceCycle reports sub-agent files that lead back to a file already
// on the chain: a runtime would recurse forever.
func CheckSourceCycle(p *Pass) {
	here := p.chain[len(p.chain)-1]
	for _, sa := range fileSubAgents(p.Doc) {
		child := path.Join(path.Dir(here), sa.source)
		if idx := slices.Index(p.chain, child); idx >= 0 {
			loop := strings.Join(append(slices.Clone(p.chain[idx:]), child), " -> ")
			p.Report(sa.ptr, false, "sub-agent %q leads back to %s (%s): a runtime would recurse forever", sa.alias, child, loop)
		}
	}
}
