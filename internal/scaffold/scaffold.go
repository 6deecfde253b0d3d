// Package scaffold writes a new pack that passes lint: an agent pack
// (prompt, handoff schemas, remote runtime) or a node pack (executor and
// config/input/output schemas), with README and LICENSE placeholders.
package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/packname"
	"github.com/wop-cli/wop/internal/spec"
)

// Kind is what the new pack contributes.
type Kind int

// The scaffolds.
const (
	Agent Kind = iota
	Node
)

// Options describe the pack to create.
type Options struct {
	Dir  string // created if missing; must not already hold a pack.json
	Name string // e.g. community.alice.summaries
	Kind Kind
	// Spec is the tree the manifest is written for: spec.V2 gives an
	// engine range admitting protocol 2 (so build signs it for v2); any
	// other value a v1 range. Both set kind, which v2 requires.
	Spec spec.Tree
}

// NameAndDir reads `wop pack init [NAME | DIR --name NAME]`: arg is the
// positional argument ("" if none), flag is --name. One of them alone is
// the name, and the directory is named after it; both: arg is the
// directory, unless it is itself a pack name that differs from --name (the
// name given twice, two ways). The errors' command lines start as invoked
// runs wop.
func NameAndDir(arg, flag string, invoked invocation.Name) (name, dir string, err error) {
	switch {
	case arg == "" && flag == "":
		return "", "", errors.New("a pack name is required: " + invoked.Cmd("pack init community.<you>.<pack>") + " (or --name NAME)")
	case flag == "":
		return arg, arg, nil
	case arg == "" || arg == flag:
		return flag, flag, nil
	case !strings.ContainsAny(arg, `/\`) && packname.Problem(arg, slices.Concat(packname.Tiers, []string{"local"})) == "":
		return "", "", fmt.Errorf("the pack name is given twice, %q and --name %q: drop one (to create the pack in a directory of another name: %s)", arg, flag, invoked.Cmd("pack init DIR --name NAME"))
	}
	return flag, arg, nil
}

// Create writes the scaffold and returns the files it wrote, relative to Dir.
func Create(o Options) ([]string, error) {
	if problem := packname.Problem(o.Name, packname.AuthorTiers); problem != "" {
		return nil, fmt.Errorf("name %q: %s", o.Name, problem)
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "pack.json")); err == nil {
		return nil, fmt.Errorf("%s already holds a pack.json; init never overwrites", o.Dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	engines := ">=1.1.0 <2.0.0"
	if o.Spec == spec.V2 {
		engines = ">=1.1.0 <3.0.0"
	}
	files := agentFiles(o.Name, engines)
	if o.Kind == Node {
		files = nodeFiles(o.Name, engines)
	}
	files["README.md"] = fmt.Sprintf("# %s\n\nTODO: what this pack does, and how to use it.\n\nLint it with `wop pack lint`, build it with `wop pack build --key KEY.pem --key-id ID`.\n", o.Name)
	files["LICENSE"] = "TODO: put the full text of your license here (the manifest says Apache-2.0).\n"
	files[".gitattributes"] = gitattributes
	var written []string
	for name, data := range files {
		p := filepath.Join(o.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if _, err := os.Stat(p); err == nil {
			return nil, fmt.Errorf("%s exists; init never overwrites", p)
		}
		if err := atomicfile.Write(p, []byte(data), 0o644); err != nil {
			return nil, err
		}
		written = append(written, name)
	}
	return written, nil
}

// gitattributes keeps the pack's text files LF in every checkout: git on
// Windows otherwise checks them out CRLF (core.autocrlf=true), and an
// archive built from those bytes differs from the registry's rebuild of
// its LF checkout.
const gitattributes = "# The pack's text files stay LF in every checkout (git on Windows would\n" +
	"# write CRLF), so the archive built here is the one the registry rebuilds.\n" +
	"* text=auto eol=lf\n"

func last(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

func schemaDoc(name, file string, props string, required string) string {
	return fmt.Sprintf(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://packs.openwop.dev/%s/0.1.0/%s",
  "type": "object",
  "properties": %s,
  "required": %s,
  "additionalProperties": false
}
`, name, file, props, required)
}

func agentFiles(name, engines string) map[string]string {
	a := last(name)
	return map[string]string{
		"pack.json": indent(fmt.Sprintf(`{"name":%q,"version":"0.1.0","kind":"node","description":"TODO: one sentence about the pack.",
"license":"Apache-2.0","engines":{"openwop":%q},"peerDependencies":{"aiProviders":"supported"},
"agents":[{"agentId":%q,"persona":"TODO: persona","description":"TODO: what the agent does.","modelClass":"reasoning",
"role":"skill","systemPromptRef":"prompts/%s.md","toolAllowlist":[],"memoryShape":{"scratchpad":true,"conversation":false,"longTerm":false},
"handoff":{"taskSchemaRef":"schemas/%s.task.json","returnSchemaRef":"schemas/%s.return.json"}}],
"runtime":{"language":"remote","entry":"pack.json"}}`, name, engines, name+"."+a, a, a, a)),
		"prompts/" + a + ".md":          "TODO: say who the agent is, its task, the input it receives and the output it must return.\n",
		"schemas/" + a + ".task.json":   schemaDoc(name, a+".task.json", `{"input": {"type": "string"}}`, `["input"]`),
		"schemas/" + a + ".return.json": schemaDoc(name, a+".return.json", `{"output": {"type": "string"}}`, `["output"]`),
	}
}

func nodeFiles(name, engines string) map[string]string {
	n := last(name)
	typeID := name + "." + n
	return map[string]string{
		"pack.json": indent(fmt.Sprintf(`{"name":%q,"version":"0.1.0","kind":"node","description":"TODO: one sentence about the pack.",
"license":"Apache-2.0","engines":{"openwop":%q},
"nodes":[{"typeId":%q,"version":"0.1.0","label":"TODO: label","description":"TODO: what the node does.","category":"data","role":"pure",
"configSchemaRef":"schemas/%s.config.json","inputSchemaRef":"schemas/%s.input.json","outputSchemaRef":"schemas/%s.output.json"}],
"runtime":{"language":"javascript","format":"esm","entry":"index.mjs"}}`, name, engines, typeID, n, n, n)),
		"index.mjs":                     fmt.Sprintf("// Executor for %s.\nexport const nodes = {\n  '%s': async ({ input, config }) => ({ result: input.value }),\n};\n", typeID, typeID),
		"schemas/" + n + ".config.json": schemaDoc(name, n+".config.json", `{}`, `[]`),
		"schemas/" + n + ".input.json":  schemaDoc(name, n+".input.json", `{"value": {"type": "string"}}`, `["value"]`),
		"schemas/" + n + ".output.json": schemaDoc(name, n+".output.json", `{"result": {"type": "string"}}`, `["result"]`),
	}
}

// indent pretty-prints a compact manifest in source order.
func indent(src string) string {
	doc, err := jsonpos.Parse([]byte(src))
	if err != nil {
		panic("scaffold template is not JSON: " + err.Error()) // a bug in wop, caught by the tests
	}
	out, err := canon.Indent(doc.Root)
	if err != nil {
		panic("scaffold template: " + err.Error())
	}
	return string(out)
}
