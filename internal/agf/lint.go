package agf

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/schema"
)

// Rule is one AgentFormat lint rule.
type Rule struct {
	ID       string
	Severity diag.Severity
	Summary  string
	check    func(*pass)
}

// Rules returns the AgentFormat rules, in the order of LINT-RULES.md.
func Rules() []*Rule {
	return []*Rule{
		{ID: "agf-yaml-invalid", Severity: diag.Error, Summary: "the file is not valid YAML (or has duplicate keys)"},
		{ID: "agf-schema", Severity: diag.Error, Summary: "the file does not validate against the AgentFormat 1.0 schema", check: checkSchema},
		{ID: "agf-alias-duplicate", Severity: diag.Error, Summary: "two entries of one action_space list share an alias", check: checkAliasDuplicate},
		{ID: "agf-step-unknown-agent", Severity: diag.Error, Summary: "a step, route, batch or output_from names no local_agents alias", check: checkStepAgents},
		{ID: "agf-batch-no-iteration", Severity: diag.Error, Summary: "an agf.batch input_mapping has no [] iteration", check: checkBatchIteration},
		{ID: "agf-path-invalid", Severity: diag.Error, Summary: "a path expression is malformed or names an unknown alias", check: checkPaths},
		{ID: "agf-policy-unknown", Severity: diag.Error, Summary: "an agf.* policy outside the six standard ones, or a vendor id not x-<vendor>.*", check: checkPolicy},
		{ID: "agf-source-missing", Severity: diag.Error, Summary: "a source_type file sub-agent's file does not exist", check: checkSources},
		{ID: "agf-source-cycle", Severity: diag.Error, Summary: "source_type file sub-agents lead back to a file already on the chain"},
		{ID: "agf-conditional-no-default", Severity: diag.Warning, Summary: "an agf.conditional policy without default_agent fails when no route matches", check: checkConditionalDefault},
		{ID: "agf-pattern-invalid", Severity: diag.Error, Summary: "a pattern matcher is not a valid regular expression", check: checkPatterns},
		{ID: "agf-unknown-field", Severity: diag.Warning, Summary: "a field AgentFormat does not define (error with --strict)", check: checkUnknownFields},
		{ID: "agf-renamed-key", Severity: diag.Error, Summary: "allow_tools/allow_skills were renamed; the old keys validate but are ignored", check: checkRenamedKeys},
		{ID: "agf-version-not-semver", Severity: diag.Warning, Summary: "metadata.version is not semantic versioning", check: checkVersion},
	}
}

// Options configure an AgentFormat lint.
type Options struct {
	Strict bool // unknown fields are errors
	// ReadFile reads a file relative to the linted file's directory (for
	// source_type file sub-agents); nil disables following them.
	ReadFile func(name string) ([]byte, error)
}

type pass struct {
	doc     *Doc
	file    string
	opt     Options
	rule    *Rule
	diags   []diag.Diagnostic
	schemas *schema.Set
}

func (p *pass) report(ptr string, onKey bool, format string, args ...any) {
	pos := p.doc.Position(ptr)
	if onKey {
		pos = p.doc.KeyPosition(ptr)
	}
	sev := p.rule.Severity
	if p.rule.ID == "agf-unknown-field" && p.opt.Strict {
		sev = diag.Error
	}
	p.diags = append(p.diags, diag.Diagnostic{Rule: p.rule.ID, Severity: sev, File: p.file, Pointer: ptr,
		Start: diag.Position{Line: pos.Line, Column: pos.Column}, Message: fmt.Sprintf(format, args...)})
}

// Lint checks one AgentFormat file; file is its name as findings show it.
func Lint(file string, src []byte, opt Options) ([]diag.Diagnostic, error) {
	schemas, err := schema.Default()
	if err != nil {
		return nil, err
	}
	doc, err := Parse(src)
	if err != nil {
		pe, ok := err.(*ParseError)
		if !ok {
			return nil, err
		}
		return []diag.Diagnostic{{Rule: "agf-yaml-invalid", Severity: diag.Error, File: file,
			Start: diag.Position{Line: pe.Pos.Line, Column: pe.Pos.Column}, Message: pe.Msg}}, nil
	}
	p := &pass{doc: doc, file: file, opt: opt, schemas: schemas}
	for _, r := range Rules() {
		if r.check != nil {
			p.rule = r
			r.check(p)
		}
	}
	return diag.Sort(p.diags), nil
}

func checkSchema(p *pass) {
	problems, err := p.schemas.Validate(schema.AgentFormatID, p.doc.Value)
	if err != nil {
		p.report("", false, "%v", err)
		return
	}
	for _, pr := range problems {
		p.report(pr.Pointer, pr.OnName, "%s", pr.Message)
	}
}

// helpers over the JSON-shaped value

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func arr(v any) []any          { a, _ := v.([]any); return a }
func str(v any) string         { s, _ := v.(string); return s }

var actionLists = []string{"local_tools", "mcp_servers", "local_agents", "remote_agents"}

func checkAliasDuplicate(p *pass) {
	as := obj(p.doc.Get("/action_space"))
	for _, list := range actionLists {
		seen := map[string]int{}
		for i, it := range arr(as[list]) {
			alias := str(obj(it)["alias"])
			if first, dup := seen[alias]; dup && alias != "" {
				p.report(fmt.Sprintf("/action_space/%s/%d/alias", list, i), false, "alias %q is already used by %s[%d]; runtimes reject duplicate aliases", alias, list, first)
				continue
			}
			seen[alias] = i
		}
	}
}

// agents returns the local_agents aliases.
func (p *pass) agents() []string {
	var out []string
	for _, it := range arr(p.doc.Get("/action_space/local_agents")) {
		if a := str(obj(it)["alias"]); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// agentRef is a place the policy names a sub-agent.
type agentRef struct{ ptr, alias string }

func (p *pass) agentRefs() []agentRef {
	const base = "/execution_policy/config"
	cfg := obj(p.doc.Get(base))
	var refs []agentRef
	for _, key := range []string{"steps", "agents"} {
		for i, st := range arr(cfg[key]) {
			refs = append(refs, agentRef{fmt.Sprintf("%s/%s/%d/agent", base, key, i), str(obj(st)["agent"])})
		}
	}
	for i, r := range arr(cfg["routes"]) {
		refs = append(refs, agentRef{fmt.Sprintf("%s/routes/%d/agent", base, i), str(obj(r)["agent"])})
	}
	if a, ok := cfg["agent"].(string); ok {
		refs = append(refs, agentRef{base + "/agent", a})
	}
	if a, ok := cfg["default_agent"].(string); ok {
		refs = append(refs, agentRef{base + "/default_agent", a})
	}
	switch of := cfg["output_from"].(type) {
	case string:
		if !slices.Contains([]string{"last", "merge", "first"}, of) {
			refs = append(refs, agentRef{base + "/output_from", of})
		}
	case map[string]any:
		if a, ok := of["agent"].(string); ok {
			refs = append(refs, agentRef{base + "/output_from/agent", a})
		}
	}
	return refs
}

func checkStepAgents(p *pass) {
	known := p.agents()
	for _, r := range p.agentRefs() {
		if r.alias != "" && !slices.Contains(known, r.alias) {
			p.report(r.ptr, false, "%q is not a local_agents alias%s", r.alias, aliasHint(r.alias, known))
		}
	}
}

func aliasHint(alias string, known []string) string {
	if len(known) == 0 {
		return "; declare it under action_space.local_agents"
	}
	return fmt.Sprintf(" (defined: %s)", strings.Join(known, ", "))
}

func checkBatchIteration(p *pass) {
	if str(p.doc.Get("/execution_policy/id")) != "agf.batch" {
		return
	}
	mapping := obj(p.doc.Get("/execution_policy/config/input_mapping"))
	for _, v := range mapping {
		if strings.Contains(str(v), "[]") {
			return
		}
	}
	if mapping != nil {
		p.report("/execution_policy/config/input_mapping", false, "an agf.batch input_mapping must iterate an array with [] (e.g. parent.input.items.[].text); without it there is nothing to batch")
	}
}

// pathSites lists every path expression: input_mapping values and the keys
// of args_match under when/exit_condition.
func (p *pass) pathSites() (sites []struct {
	ptr, expr string
	key       bool
}) {
	var walk func(v any, ptr string, inCondition bool)
	walk = func(v any, ptr string, inCondition bool) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				child := ptr + "/" + escape(k)
				switch {
				case k == "input_mapping":
					for _, f := range sortedKeys(obj(x[k])) {
						sites = append(sites, struct {
							ptr, expr string
							key       bool
						}{child + "/" + escape(f), str(obj(x[k])[f]), false})
					}
				case k == "args_match" && inCondition:
					for _, f := range sortedKeys(obj(x[k])) {
						sites = append(sites, struct {
							ptr, expr string
							key       bool
						}{child + "/" + escape(f), f, true})
					}
				default:
					walk(x[k], child, inCondition || k == "when" || k == "exit_condition")
				}
			}
		case []any:
			for i, it := range x {
				walk(it, fmt.Sprintf("%s/%d", ptr, i), inCondition)
			}
		}
	}
	walk(p.doc.Get("/execution_policy"), "/execution_policy", false)
	return sites
}

func checkPaths(p *pass) {
	known := append(p.agents(), "parent")
	for _, s := range p.pathSites() {
		path, err := ParsePath(s.expr)
		if err != nil {
			p.report(s.ptr, s.key, "path expression %v", err)
			continue
		}
		if !slices.Contains(known, path.Root) {
			p.report(s.ptr, s.key, "path %q starts with %q, which is neither parent nor a local_agents alias%s", s.expr, path.Root, aliasHint(path.Root, p.agents()))
		}
	}
}

var standardPolicies = []string{"agf.react", "agf.sequential", "agf.parallel", "agf.loop", "agf.batch", "agf.conditional"}

var vendorPolicy = regexp.MustCompile(`^x-[a-z0-9][a-z0-9-]*\.[A-Za-z0-9_.-]+$`)

func checkPolicy(p *pass) {
	id := str(p.doc.Get("/execution_policy/id"))
	switch {
	case id == "" || slices.Contains(standardPolicies, id):
	case strings.HasPrefix(id, "agf."):
		p.report("/execution_policy/id", false, "%q is not a standard policy; use one of %s, or a vendor id x-<vendor>.<name>", id, strings.Join(standardPolicies, ", "))
	case !vendorPolicy.MatchString(id):
		p.report("/execution_policy/id", false, "%q is neither a standard agf.* policy nor a vendor id of the form x-<vendor>.<name>", id)
	}
}

func checkSources(p *pass) {
	if p.opt.ReadFile == nil {
		return
	}
	for i, it := range arr(p.doc.Get("/action_space/local_agents")) {
		a := obj(it)
		st := str(a["source_type"])
		if st != "" && st != "file" {
			continue
		}
		src := str(a["source"])
		if src == "" {
			continue
		}
		if _, err := p.opt.ReadFile(path.Clean(src)); err != nil {
			p.report(fmt.Sprintf("/action_space/local_agents/%d/source", i), false, "sub-agent %q: source file %q not found next to this file", str(a["alias"]), src)
		}
	}
}

func checkConditionalDefault(p *pass) {
	if str(p.doc.Get("/execution_policy/id")) == "agf.conditional" && p.doc.Get("/execution_policy/config/default_agent") == nil {
		p.report("/execution_policy/config", false, "no default_agent: when no route matches, the runtime must fail the run; add a default_agent")
	}
}

func checkPatterns(p *pass) {
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				child := ptr + "/" + escape(k)
				if pat, ok := x[k].(string); ok && k == "pattern" {
					if _, err := regexp.Compile(pat); err != nil {
						p.report(child, false, "pattern %q does not compile: %v", pat, err)
					}
					continue
				}
				walk(x[k], child)
			}
		case []any:
			for i, it := range x {
				walk(it, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(p.doc.Value, "")
}

func checkVersion(p *pass) {
	v := str(p.doc.Get("/metadata/version"))
	if v == "" {
		return
	}
	if _, err := semver.StrictNewVersion(v); err != nil {
		p.report("/metadata/version", false, "version %q is not semantic versioning (MAJOR.MINOR.PATCH); registries sort and resolve by it", v)
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}
