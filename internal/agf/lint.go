package agf

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/yamlspan"
)

// Options configure an AgentFormat lint.
type Options struct {
	Strict bool // unknown fields are errors
	// ReadFile reads a file relative to the linted file's directory (for
	// source_type file sub-agents); nil disables following them.
	ReadFile func(name string) ([]byte, error)
	// Rules applies the rules to one file's pass. The rules live in the one
	// lint registry (internal/lint), which passes them in here.
	Rules func(*Pass)
}

// Pass is one AgentFormat file being linted: what a rule reads and where
// it reports.
type Pass struct {
	Doc      *Doc        // nil when the file did not parse
	ParseErr *ParseError // why it did not parse
	file     string      // the name findings show
	src      []byte      // the file's text, where fixes are placed
	chain    []string    // files of the source_type file chain leading here, this one last
	opt      Options
	schemas  *schema.Set
	ruleID   string
	severity diag.Severity
	diags    []diag.Diagnostic
}

// SetRule names the rule the following reports belong to.
func (p *Pass) SetRule(id string, sev diag.Severity) { p.ruleID, p.severity = id, sev }

// Parsed reports whether the file parsed; rules other than agf-yaml-invalid
// only run when it did.
func (p *Pass) Parsed() bool { return p.Doc != nil }

// Report records a finding of the current rule at a JSON pointer (on the
// member's key when onKey).
func (p *Pass) Report(ptr string, onKey bool, format string, args ...any) {
	p.ReportSeverity(p.severity, ptr, onKey, format, args...)
}

// ReportSeverity reports with another severity than the rule's default, for
// findings whose weight depends on the case (a newer minor schema_version).
func (p *Pass) ReportSeverity(sev diag.Severity, ptr string, onKey bool, format string, args ...any) {
	pos := p.Doc.Position(ptr)
	if onKey {
		pos = p.Doc.KeyPosition(ptr)
	}
	if p.ruleID == "agf-unknown-field" && p.opt.Strict {
		sev = diag.Error
	}
	p.diags = append(p.diags, diag.Diagnostic{Rule: p.ruleID, Severity: sev, File: p.file, Pointer: ptr,
		Start: diag.Position{Line: pos.Line, Column: pos.Column}, Message: fmt.Sprintf(format, args...)})
}

// Suggest reports, as Report, a finding whose message says what the string
// at ptr (or, onKey, the member's key) was meant to be: the finding carries
// the replacement of the scalar's bytes, in its quoting, as its fix, which
// the editor offers and --fix applies when sure (no rival as close).
func (p *Pass) Suggest(ptr string, onKey bool, meant string, sure bool, format string, args ...any) {
	p.Report(ptr, onKey, format, args...)
	if meant == "" {
		return
	}
	n := p.Doc.nodes[ptr]
	if onKey {
		n = p.Doc.nodes[ptr+"#key"]
	}
	if f, ok := yamlspan.Replace(p.src, n, meant); ok {
		d := &p.diags[len(p.diags)-1]
		d.Fix, d.Fixable = f, sure
	}
}

// lintFile checks one AgentFormat file; file is its name as findings show
// it and chain the sub-agent files that led to it (a cycle guard).
func lintFile(file string, src []byte, opt Options, chain []string) ([]diag.Diagnostic, error) {
	schemas, err := schema.Default()
	if err != nil {
		return nil, err
	}
	p := &Pass{file: file, src: src, chain: chain, opt: opt, schemas: schemas}
	doc, err := Parse(src)
	if err != nil {
		pe, ok := err.(*ParseError)
		if !ok {
			return nil, err
		}
		p.ParseErr = pe
	}
	p.Doc = doc
	if opt.Rules != nil {
		opt.Rules(p)
	}
	return diag.Sort(p.diags), nil
}

// CheckYAML reports why the file is not YAML AgentFormat can read.
func CheckYAML(p *Pass) {
	if e := p.ParseErr; e != nil {
		p.diags = append(p.diags, diag.Diagnostic{Rule: p.ruleID, Severity: p.severity, File: p.file,
			Start: diag.Position{Line: e.Pos.Line, Column: e.Pos.Column}, Message: e.Msg})
	}
}

// CheckSchema validates the file against the AgentFormat 1.0 schema. The
// schema's "format" keywords are annotations (it declares no format-assertion
// vocabulary), so a homepage without a scheme is not a finding.
func CheckSchema(p *Pass) {
	problems, err := p.schemas.Validate(schema.AgentFormatID, p.Doc.Value)
	if err != nil {
		p.Report("", false, "%v", err)
		return
	}
	for _, pr := range problems {
		if pr.Keyword != "format" {
			p.Suggest(pr.Pointer, pr.OnName, pr.Meant, pr.Sure, "%s", pr.Message)
		}
	}
}

// helpers over the JSON-shaped value

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func arr(v any) []any          { a, _ := v.([]any); return a }
func str(v any) string         { s, _ := v.(string); return s }

var actionLists = []string{"local_tools", "mcp_servers", "local_agents", "remote_agents"}

// CheckAliasDuplicate reports an alias used twice in one action_space list.
func CheckAliasDuplicate(p *Pass) {
	as := obj(p.Doc.Get("/action_space"))
	for _, list := range actionLists {
		seen := map[string]int{}
		for i, it := range arr(as[list]) {
			alias := str(obj(it)["alias"])
			if first, dup := seen[alias]; dup && alias != "" {
				p.Report(fmt.Sprintf("/action_space/%s/%d/alias", list, i), false, "alias %q is already used by %s[%d]; runtimes reject duplicate aliases", alias, list, first)
				continue
			}
			seen[alias] = i
		}
	}
}

// agents returns the local_agents aliases.
func (p *Pass) agents() []string {
	var out []string
	for _, it := range arr(p.Doc.Get("/action_space/local_agents")) {
		if a := str(obj(it)["alias"]); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// agentRef is a place the policy names a sub-agent.
type agentRef struct{ ptr, alias string }

func (p *Pass) agentRefs() []agentRef {
	const base = "/execution_policy/config"
	cfg := obj(p.Doc.Get(base))
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

// CheckStepAgents reports steps, routes, batch agents, default_agent and
// output_from that name no local_agents alias.
func CheckStepAgents(p *Pass) {
	known := p.agents()
	for _, r := range p.agentRefs() {
		if r.alias != "" && !slices.Contains(known, r.alias) {
			p.Report(r.ptr, false, "%q is not a local_agents alias%s", r.alias, aliasHint(r.alias, known))
		}
	}
}

func aliasHint(alias string, known []string) string {
	if len(known) == 0 {
		return "; declare it under action_space.local_agents"
	}
	return fmt.Sprintf(" (defined: %s)", strings.Join(known, ", "))
}

// CheckBatchIteration reports an agf.batch input_mapping without [].
func CheckBatchIteration(p *Pass) {
	if str(p.Doc.Get("/execution_policy/id")) != "agf.batch" {
		return
	}
	mapping := obj(p.Doc.Get("/execution_policy/config/input_mapping"))
	for _, v := range mapping {
		if strings.Contains(str(v), "[]") {
			return
		}
	}
	if mapping != nil {
		p.Report("/execution_policy/config/input_mapping", false, "an agf.batch input_mapping must iterate an array with [] (e.g. parent.input.items.[].text); without it there is nothing to batch")
	}
}

// pathSite is a path expression and where it is written: an input_mapping
// value, or (key) an args_match key under when/exit_condition. root is the
// alias it starts at, for sites already known to parse.
type pathSite struct {
	ptr, expr, root string
	key             bool
}

// pathSites lists every path expression: input_mapping values and the keys
// of args_match under when/exit_condition.
func (p *Pass) pathSites() (sites []pathSite) {
	var walk func(v any, ptr string, inCondition bool)
	walk = func(v any, ptr string, inCondition bool) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				child := ptr + "/" + escape(k)
				switch {
				case k == "input_mapping":
					for _, f := range sortedKeys(obj(x[k])) {
						sites = append(sites, pathSite{ptr: child + "/" + escape(f), expr: str(obj(x[k])[f])})
					}
				case k == "args_match" && inCondition:
					for _, f := range sortedKeys(obj(x[k])) {
						sites = append(sites, pathSite{ptr: child + "/" + escape(f), expr: f, key: true})
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
	walk(p.Doc.Get("/execution_policy"), "/execution_policy", false)
	return sites
}

// CheckPaths reports malformed path expressions, ones that start at an
// unknown alias, and parent.input.[] where the input is not an array.
func CheckPaths(p *Pass) {
	known := append(p.agents(), "parent")
	for _, s := range p.pathSites() {
		path, err := ParsePath(s.expr)
		if err != nil {
			p.Report(s.ptr, s.key, "path expression %v", err)
			continue
		}
		if !slices.Contains(known, path.Root) {
			p.Report(s.ptr, s.key, "path %q starts with %q, which is neither parent nor a local_agents alias%s", s.expr, path.Root, aliasHint(path.Root, p.agents()))
			continue
		}
		// parent.input.[] iterates the input itself: only an array input has items.
		if path.Root == "parent" && path.Segments[0] == "[]" {
			if typ := p.Doc.Get("/interface/" + path.Side + "/type"); typ != "array" {
				p.Report(s.ptr, s.key, "path %q iterates the %s itself, but %s: name the array field to iterate, as in parent.%s.items.[]", s.expr, path.Side, typeName(path.Side, typ), path.Side)
			}
		}
	}
}

// typeName says what an interface side's schema declares instead of an
// array, for a message.
func typeName(side string, typ any) string {
	if t, ok := typ.(string); ok {
		return fmt.Sprintf("interface.%s has type %s", side, t)
	}
	return fmt.Sprintf("interface.%s does not declare type: array", side)
}

var standardPolicies = []string{"agf.react", "agf.sequential", "agf.parallel", "agf.loop", "agf.batch", "agf.conditional"}

var vendorPolicy = regex.Lazy(`^x-[a-z0-9][a-z0-9-]*\.[A-Za-z0-9_.-]+$`)

// CheckPolicy reports policy ids that are neither standard nor x-<vendor>.*.
func CheckPolicy(p *Pass) {
	id := str(p.Doc.Get("/execution_policy/id"))
	switch {
	case id == "" || slices.Contains(standardPolicies, id):
	case strings.HasPrefix(id, "agf."):
		p.Report("/execution_policy/id", false, "%q is not a standard policy; use one of %s, or a vendor id x-<vendor>.<name>", id, strings.Join(standardPolicies, ", "))
	case !vendorPolicy().MatchString(id):
		p.Report("/execution_policy/id", false, "%q is neither a standard agf.* policy nor a vendor id of the form x-<vendor>.<name>", id)
	}
}

// CheckSources reports source_type file sub-agents whose file is missing.
func CheckSources(p *Pass) {
	if p.opt.ReadFile == nil {
		return
	}
	for _, sa := range fileSubAgents(p.Doc) {
		_, err := p.opt.ReadFile(path.Clean(sa.source))
		var pathErr *fs.PathError
		switch {
		case err == nil:
		case errors.Is(err, ErrOutsideTree):
			p.Report(sa.ptr, false, "sub-agent %q: source %q %v; keep sub-agent files inside the linted file's folder", sa.alias, sa.source, err)
		case errors.Is(err, fs.ErrNotExist):
			p.Report(sa.ptr, false, "sub-agent %q: source file %q not found next to this file", sa.alias, sa.source)
		case errors.As(err, &pathErr):
			p.Report(sa.ptr, false, "sub-agent %q: source file %q: %v", sa.alias, sa.source, pathErr.Err)
		default:
			p.Report(sa.ptr, false, "sub-agent %q: source file %q: %v", sa.alias, sa.source, err)
		}
	}
}

// CheckConditionalDefault reports an agf.conditional without default_agent.
func CheckConditionalDefault(p *Pass) {
	if str(p.Doc.Get("/execution_policy/id")) == "agf.conditional" && p.Doc.Get("/execution_policy/config/default_agent") == nil {
		p.Report("/execution_policy/config", false, "no default_agent: when no route matches, the runtime must fail the run; add a default_agent")
	}
}

// patternSite is a pattern matcher and where it is written.
type patternSite struct{ ptr, expr string }

// patternSites lists every "pattern" string outside the interface schemas
// (whose patterns agf-interface-invalid compiles).
func (p *Pass) patternSites() []patternSite {
	var sites []patternSite
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				child := ptr + "/" + escape(k)
				if pat, ok := x[k].(string); ok && k == "pattern" {
					sites = append(sites, patternSite{child, pat})
					continue
				}
				if child != "/interface" {
					walk(x[k], child)
				}
			}
		case []any:
			for i, it := range x {
				walk(it, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(p.Doc.Value, "")
	return sites
}

// CheckPatterns reports pattern matchers that are not valid regular
// expressions. A pattern that uses an ECMAScript feature RE2 lacks is
// agf-pattern-unchecked's, not an error.
func CheckPatterns(p *Pass) {
	for _, s := range p.patternSites() {
		if _, _, err := regex.Compile(s.expr); err != nil {
			p.Report(s.ptr, false, "pattern %q does not compile: %v", s.expr, err)
		}
	}
}

// CheckPatternsUnchecked says which patterns wop cannot check: valid
// ECMAScript, perhaps, but using a feature Go's RE2 lacks.
func CheckPatternsUnchecked(p *Pass) {
	for _, s := range p.patternSites() {
		if _, lacks, _ := regex.Compile(s.expr); lacks != "" {
			p.Report(s.ptr, false, "pattern %q cannot be checked: it uses %s, an ECMAScript feature RE2 lacks; runtimes with ECMAScript regular expressions accept it", s.expr, lacks)
		}
	}
}

// CheckSchemaVersion compares schema_version with the AgentFormat 1.0 this
// wop checks against. A newer minor is a compatible superset: its new
// fields show up as unknown (a warning). A new major may change meanings
// (an error).
func CheckSchemaVersion(p *Pass) {
	raw := str(p.Doc.Get("/schema_version"))
	v, err := semver.StrictNewVersion(raw)
	if err != nil {
		return // agf-schema: the pattern requires MAJOR.MINOR.PATCH
	}
	switch {
	case v.Major() != 1:
		p.Report("/schema_version", false, "schema_version %s is AgentFormat %d.x; wop checks AgentFormat 1.0, and a new major version may change what fields mean: use a wop that knows %d.x, or write 1.0.0", raw, v.Major(), v.Major())
	case v.Minor() > 0:
		p.ReportSeverity(diag.Warning, "/schema_version", false, "schema_version %s is newer than the AgentFormat 1.0 wop checks against: fields added since 1.0 are reported as unknown", raw)
	}
}

// CheckVersion reports a metadata.version that is not semantic versioning.
func CheckVersion(p *Pass) {
	v := str(p.Doc.Get("/metadata/version"))
	if v == "" {
		return
	}
	if _, err := semver.StrictNewVersion(v); err != nil {
		p.Report("/metadata/version", false, "version %q is not semantic versioning (MAJOR.MINOR.PATCH); registries sort and resolve by it", v)
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
