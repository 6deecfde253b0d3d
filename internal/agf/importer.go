package agf

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/schema"
	"go.yaml.in/yaml/v3"
)

// ImportOptions control how an AgentFormat agent becomes a pack agent.
type ImportOptions struct {
	AgentID    string            // the segment after the pack name; default metadata.id
	ModelClass string            // OpenWOP modelClass; default "general"
	Tools      map[string]string // local tool alias -> "openwop:<typeId>" (or another scope)
	AcceptLoss bool              // import even though approvals cannot be carried over
	SchemaBase string            // pack schema $id base, e.g. https://packs.openwop.dev
}

// Loss is one AgentFormat field with no OpenWOP equivalent.
type Loss struct {
	Pointer string // in the AgentFormat file
	Line    int
	What    string
}

// Imported is what an import writes: new files (prompt, schemas), the
// rewritten pack.json, and what could not be carried over.
type Imported struct {
	AgentID  string
	Files    map[string][]byte // pack-relative name -> contents; pack.json included
	Losses   []Loss
	Approval bool // a loss is an approval: refused unless AcceptLoss
	// Updated is set when the pack already had the agent (a re-import): its
	// agents[] entry is updated in place and its files are replaced.
	Updated bool
	carried []string // pointers of the fields the import carries over
}

// ErrApprovalLoss means the agent requires approvals OpenWOP cannot express.
var ErrApprovalLoss = errors.New("the agent requires human approvals, which OpenWOP agents cannot express")

var segmentRE = regex.Lazy(`^[a-z][a-zA-Z0-9_-]*$`)

// Import converts an AgentFormat agent (agf.react: one agent with
// instructions) into an agents[] entry of the pack whose pack.json is
// manifest. The caller writes the files; pack.json keeps its key order and
// is written as two-space JSON. Everything is checked before anything is
// returned to write. Importing an agent the pack already has updates its
// entry in place (Updated).
func Import(src, manifest []byte, opt ImportOptions) (*Imported, error) {
	doc, err := Parse(src)
	if err != nil {
		return nil, err
	}
	pj, err := parseManifest(manifest)
	if err != nil {
		return nil, err
	}
	root := pj.Root
	name, version := root.Get("name").String(), root.Get("version").String()
	if name == "" || version == "" {
		return nil, errors.New("pack.json needs name and version before agents can be imported")
	}
	seg := opt.AgentID
	if seg == "" {
		seg = strings.ReplaceAll(str(doc.Get("/metadata/id")), "_", "-")
	}
	if !segmentRE().MatchString(seg) {
		return nil, fmt.Errorf("agent id segment %q: use lower case letters, digits, - and _ (set --agent-id)", seg)
	}
	if err := checkImportable(doc); err != nil {
		return nil, err
	}
	im := &Imported{AgentID: name + "." + seg, Files: map[string][]byte{}}
	im.recordLosses(doc)
	if im.Approval && !opt.AcceptLoss {
		return im, ErrApprovalLoss
	}
	tools, err := im.tools(doc, opt)
	if err != nil {
		return im, err
	}
	im.uncarried(doc)
	base := strings.TrimSuffix(cmp.Or(opt.SchemaBase, "https://packs.openwop.dev"), "/")
	im.Files["prompts/"+seg+".md"] = []byte(strings.TrimRight(str(doc.Get("/execution_policy/config/instructions")), "\n") + "\n")
	for _, side := range []struct{ ptr, file string }{{"/interface/input", seg + ".task.json"}, {"/interface/output", seg + ".return.json"}} {
		out, err := handoffSchema(doc.ordered(side.ptr), fmt.Sprintf("%s/%s/%s/%s", base, name, version, side.file))
		if err != nil {
			return im, err
		}
		im.Files["schemas/"+side.file] = out
	}
	im.place(root, func(modelClass string) *jsonpos.Value {
		return im.agent(doc, seg, tools, cmp.Or(opt.ModelClass, modelClass, "general"))
	})
	if im.Files["pack.json"], err = canon.Indent(root); err != nil {
		return im, err
	}
	return im, nil
}

// ManifestError is a pack.json the import cannot rewrite, at a place in it.
type ManifestError struct {
	Pos jsonpos.Position
	Msg string
}

func (e *ManifestError) Error() string {
	return fmt.Sprintf("pack.json:%d:%d: %s", e.Pos.Line, e.Pos.Column, e.Msg)
}

// parseManifest parses the pack.json an import rewrites. A member written
// twice is refused: the rewrite would keep one copy and silently drop the
// other, so the author must choose.
func parseManifest(manifest []byte) (*jsonpos.Doc, error) {
	pj, err := jsonpos.ParseUnique(manifest)
	if pe := (*jsonpos.PlaceError)(nil); errors.As(err, &pe) {
		me := &ManifestError{Pos: pe.Pos, Msg: pe.Msg + "; fix pack.json before importing"}
		if pe.Duplicate {
			me.Msg = pe.Msg + "; the import rewrites pack.json and would keep only one: delete the other, then import again"
		}
		return nil, me
	}
	if err != nil {
		return nil, fmt.Errorf("pack.json: %w", err)
	}
	return pj, nil
}

// checkImportable refuses what cannot become a working pack agent: a policy
// other than agf.react, blank instructions, an interface that cannot be a
// standalone handoff schema.
func checkImportable(doc *Doc) error {
	if policy := str(doc.Get("/execution_policy/id")); policy != "agf.react" {
		return fmt.Errorf("execution_policy %q: only agf.react (one agent with instructions) maps to an OpenWOP agent; multi-agent and vendor policies have no agents[] equivalent", policy)
	}
	if strings.TrimSpace(str(doc.Get("/execution_policy/config/instructions"))) == "" {
		return errors.New("execution_policy.config.instructions is blank: it becomes the agent's system prompt (systemPromptRef), which must not be empty")
	}
	return checkInterface(doc)
}

// place puts the agent build makes into the manifest's agents[]: appended,
// or for an agent the pack already has (a re-import, Updated) merged into
// its entry where it is. build gets the entry's current modelClass ("" for
// a new agent), which a re-import keeps unless told otherwise.
func (im *Imported) place(root *jsonpos.Value, build func(modelClass string) *jsonpos.Value) {
	agents := root.Get("agents")
	if agents == nil {
		agents = &jsonpos.Value{Kind: jsonpos.Array}
		root.Set("agents", agents)
	}
	idx := slices.IndexFunc(agents.Items, func(a *jsonpos.Value) bool { return a.Get("agentId").String() == im.AgentID })
	if im.Updated = idx >= 0; !im.Updated {
		agents.Items = append(agents.Items, build(""))
		return
	}
	agents.Items[idx] = updateAgent(agents.Items[idx], build(agents.Items[idx].Get("modelClass").String()))
}

// checkInterface refuses interface schemas that cannot become standalone
// handoff schemas: a $ref to another document, or not valid JSON Schema.
func checkInterface(doc *Doc) error {
	schemas, err := schema.Default()
	if err != nil {
		return err
	}
	for _, side := range []string{"input", "output"} {
		v, ok := doc.Get("/interface/" + side).(map[string]any)
		if !ok {
			continue
		}
		if ref := externalRef(v); ref != "" {
			return fmt.Errorf("interface.%s: $ref %q points outside the file, and a pack's handoff schema must stand alone: inline the referenced schema", side, ref)
		}
		if ces := schemas.CompileStandalone(v); ces != nil {
			return fmt.Errorf("interface.%s is not a valid JSON Schema (at %q): %s", side, ces[0].Pointer, ces[0].Message)
		}
	}
	return nil
}

// updateAgent carries a re-imported agent into the existing entry: the
// members an import writes are replaced, members the author added since
// (memoryShape, say) stay, and an inline systemPrompt gives way to the
// imported systemPromptRef.
func updateAgent(old, imported *jsonpos.Value) *jsonpos.Value {
	old.Delete("systemPrompt")
	if imported.Get("description") == nil {
		old.Delete("description")
	}
	for _, m := range imported.Members {
		old.Set(m.Name, m.Value)
	}
	return old
}

func (im *Imported) agent(doc *Doc, seg string, tools []string, modelClass string) *jsonpos.Value {
	agent := jsonpos.StringObject("agentId", im.AgentID, "persona", str(doc.Get("/metadata/name")))
	desc := str(doc.Get("/metadata/description"))
	if len(desc) > 500 {
		im.loss(doc, "/metadata/description", "description cut to the 500 characters an agent description may hold")
		desc = desc[:497] + "..."
	}
	if desc != "" {
		agent.Set("description", &jsonpos.Value{Kind: jsonpos.String, Str: desc})
	}
	agent.Set("modelClass", &jsonpos.Value{Kind: jsonpos.String, Str: modelClass})
	agent.Set("systemPromptRef", &jsonpos.Value{Kind: jsonpos.String, Str: "prompts/" + seg + ".md"})
	list := &jsonpos.Value{Kind: jsonpos.Array}
	for _, t := range tools {
		list.Items = append(list.Items, &jsonpos.Value{Kind: jsonpos.String, Str: t})
	}
	agent.Set("toolAllowlist", list)
	agent.Set("handoff", jsonpos.StringObject("taskSchemaRef", "schemas/"+seg+".task.json", "returnSchemaRef", "schemas/"+seg+".return.json"))
	return agent
}

// tools maps the action space onto a toolAllowlist: local tools through
// explicit --tool mappings, MCP tools as mcp:<server>.<tool>.
func (im *Imported) tools(doc *Doc, opt ImportOptions) ([]string, error) {
	var out, unmapped []string
	for i, it := range arr(doc.Get("/action_space/local_tools")) {
		alias := str(obj(it)["alias"])
		if to, ok := opt.Tools[alias]; ok {
			out = append(out, to)
			im.carried = append(im.carried, fmt.Sprintf("/action_space/local_tools/%d", i))
			continue
		}
		unmapped = append(unmapped, alias)
		im.loss(doc, fmt.Sprintf("/action_space/local_tools/%d", i), fmt.Sprintf("local tool %q has no --tool %s=openwop:<typeId> mapping", alias, alias))
	}
	var toolless []string
	for i, it := range arr(doc.Get("/action_space/mcp_servers")) {
		server := obj(it)
		alias := str(server["alias"])
		ptr := fmt.Sprintf("/action_space/mcp_servers/%d", i)
		if ref := str(server["server_ref"]); ref != "" {
			im.loss(doc, ptr+"/server_ref", fmt.Sprintf("server_ref %q (the MCP server's portable identity): toolAllowlist names the server by its alias only (mcp:%s.<tool>), so the host must map %s to that server", ref, alias, alias))
		}
		if len(arr(server["allowed_tools"])) == 0 {
			toolless = append(toolless, alias)
			im.loss(doc, ptr, fmt.Sprintf("MCP server %q lists no allowed_tools: a toolAllowlist names each tool, so the agent gets none of this server's tools", alias))
			continue
		}
		im.carried = append(im.carried, ptr+"/alias")
		for j, t := range arr(server["allowed_tools"]) {
			name := str(t)
			toolPtr := fmt.Sprintf("%s/allowed_tools/%d", ptr, j)
			if name == "" {
				name = str(obj(t)["name"])
				toolPtr += "/name"
			}
			im.carried = append(im.carried, toolPtr)
			if name == "" {
				im.loss(doc, fmt.Sprintf("/action_space/mcp_servers/%d/allowed_tools/%d", i, j), "MCP tool without a name")
				continue
			}
			out = append(out, "mcp:"+str(server["alias"])+"."+name)
		}
	}
	if len(toolless) > 0 && !opt.AcceptLoss {
		return nil, fmt.Errorf("MCP servers %s list no allowed_tools, so the agent would get none of their tools: list the tools it may call under allowed_tools (or --accept-loss to import without them)", strings.Join(toolless, ", "))
	}
	if len(unmapped) > 0 && !opt.AcceptLoss {
		return nil, fmt.Errorf("local tools %s need a mapping to OpenWOP tools: pass --tool %s=openwop:<typeId> (or --accept-loss to import without them)", strings.Join(unmapped, ", "), unmapped[0])
	}
	for alias, to := range opt.Tools {
		if !slices.ContainsFunc(arr(doc.Get("/action_space/local_tools")), func(it any) bool { return str(obj(it)["alias"]) == alias }) {
			return nil, fmt.Errorf("--tool %s=%s: the file has no local tool %q", alias, to, alias)
		}
	}
	return out, nil
}

// lossFields are the fields an import cannot carry, with why.
var lossFields = []struct{ ptr, what string }{
	{"/execution_policy/config/provider", "model provider: OpenWOP hosts choose the provider"},
	{"/execution_policy/config/model", "model: OpenWOP agents name a modelClass (--model-class), not a model"},
	{"/execution_policy/config/temperature", "sampling temperature: not part of an OpenWOP agent manifest"},
	{"/execution_policy/config/top_p", "top_p sampling: not part of an OpenWOP agent manifest"},
	{"/execution_policy/config/top_k", "top_k sampling: not part of an OpenWOP agent manifest"},
	{"/execution_policy/config/max_output_tokens", "max_output_tokens: not part of an OpenWOP agent manifest"},
	{"/execution_policy/config/stop_sequences", "stop_sequences: not part of an OpenWOP agent manifest"},
	{"/execution_policy/config/max_steps", "max_steps: hosts bound reasoning loops themselves"},
	{"/execution_policy/config/tool_choice", "tool_choice: not part of an OpenWOP agent manifest"},
	{"/execution_policy/config/user_prompt_template", "user_prompt_template: OpenWOP passes the handoff task as the input"},
	{"/constraints/budget", "budget: hosts enforce budgets by run policy"},
	{"/constraints/limits", "call and delegation limits: hosts enforce them by run policy"},
	{"/constraints/governance_policies", "governance policy references: no manifest equivalent"},
	{"/constraints/tighten_only_invariant", "tighten_only_invariant: no manifest equivalent"},
	{"/memory/required", "memory.required: OpenWOP declares memoryShape, which this does not map onto"},
	{"/action_space/local_agents", "sub-agents (local_agents): multi-agent composition has no agents[] equivalent"},
	{"/action_space/remote_agents", "remote agents: no agents[] equivalent"},
	{"/metadata/authors", "authors: the pack's author field covers the pack, not the agent"},
	{"/metadata/license", "license: the pack's license covers the agent"},
	{"/metadata/labels", "labels: no agent-level equivalent"},
	{"/metadata/annotations", "annotations: no agent-level equivalent"},
	{"/metadata/homepage", "homepage: no agent-level equivalent"},
	{"/metadata/data_classification", "data_classification: no agent-level equivalent"},
	{"/metadata/namespace", "namespace: the pack name is the agent's namespace"},
	{"/metadata/version", "version: the agent takes the pack's version"},
}

func (im *Imported) recordLosses(doc *Doc) {
	for _, f := range lossFields {
		switch v := doc.Get(f.ptr); {
		case f.ptr == "/memory/required" && v == false:
			im.carried = append(im.carried, f.ptr) // the default: nothing to carry
		case !empty(v):
			im.loss(doc, f.ptr, f.what)
		}
	}
	im.vendorBlocks(doc, doc.Value, "")
	// Approvals can sit on any tool, server, agent or skill.
	for _, list := range actionLists {
		for i, it := range arr(doc.Get("/action_space/" + list)) {
			im.approvals(doc, fmt.Sprintf("/action_space/%s/%d", list, i), obj(it))
		}
	}
}

// carriedFields are what every import carries over (tools are added as
// they are mapped).
var carriedFields = []string{"/schema_version", "/metadata/id", "/metadata/name", "/metadata/description",
	"/interface", "/execution_policy/id", "/execution_policy/config/instructions"}

// uncarried records a loss for every field that is neither carried over
// nor already reported, at the outermost such member: whatever the file
// holds, nothing is dropped without a line.
func (im *Imported) uncarried(doc *Doc) {
	accounted, below := map[string]bool{}, map[string]bool{}
	mark := func(ptr string) {
		accounted[ptr] = true
		for i := strings.LastIndexByte(ptr, '/'); i > 0; i = strings.LastIndexByte(ptr[:i], '/') {
			below[ptr[:i]] = true
		}
	}
	for _, p := range append(slices.Clone(carriedFields), im.carried...) {
		mark(p)
	}
	for _, l := range im.Losses {
		mark(l.Pointer)
	}
	var walk func(v any, ptr string)
	visit := func(child string, val any) {
		switch {
		case accounted[child] || empty(val):
		case below[child]:
			walk(val, child)
		default:
			im.loss(doc, child, fmt.Sprintf("%s: OpenWOP agents have no equivalent", yamlPath(child)))
		}
	}
	walk = func(v any, ptr string) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				visit(ptr+"/"+escape(k), x[k])
			}
		case []any:
			for i, it := range x {
				visit(fmt.Sprintf("%s/%d", ptr, i), it)
			}
		}
	}
	walk(doc.Value, "")
}

// yamlPath writes a JSON pointer as the dotted path an AgentFormat author
// reads: /action_space/mcp_servers/0/description is
// action_space.mcp_servers[0].description.
func yamlPath(ptr string) string {
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(tok); err == nil {
			fmt.Fprintf(&b, "[%s]", tok)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// empty reports whether a field says nothing: absent, null, or a {} or []
// of such fields only.
func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, it := range x {
			if !empty(it) {
				return false
			}
		}
		return true
	case []any:
		return !slices.ContainsFunc(x, func(it any) bool { return !empty(it) })
	}
	return false
}

// vendorBlocks records every x-<vendor> member outside the interface
// schemas (which are carried over whole): OpenWOP has no place for them.
func (im *Imported) vendorBlocks(doc *Doc, v any, ptr string) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			child := ptr + "/" + escape(k)
			switch {
			case child == "/interface":
			case strings.HasPrefix(k, "x-"):
				im.loss(doc, child, fmt.Sprintf("vendor extension %s: OpenWOP agents have no place for it", k))
			default:
				im.vendorBlocks(doc, x[k], child)
			}
		}
	case []any:
		for i, it := range x {
			im.vendorBlocks(doc, it, fmt.Sprintf("%s/%d", ptr, i))
		}
	}
}

func (im *Imported) approvals(doc *Doc, ptr string, v map[string]any) {
	if a, ok := v["approval"]; ok && a != false {
		im.Approval = true
		im.loss(doc, ptr+"/approval", "approval requirement: OpenWOP agents cannot require human approval per tool")
	} else if ok {
		im.carried = append(im.carried, ptr+"/approval") // approval: false asks for nothing
	}
	for _, key := range []string{"allowed_tools", "allowed_skills"} {
		for j, t := range arr(v[key]) {
			if m := obj(t); m != nil {
				im.approvals(doc, fmt.Sprintf("%s/%s/%d", ptr, key, j), m)
			}
		}
	}
}

func (im *Imported) loss(doc *Doc, ptr, what string) {
	im.Losses = append(im.Losses, Loss{Pointer: ptr, Line: doc.Position(ptr).Line, What: what})
}

// handoffSchema turns an AgentFormat interface schema into a standalone
// JSON Schema 2020-12 document with its pack $id.
func handoffSchema(val *jsonpos.Value, id string) ([]byte, error) {
	if val == nil {
		val = jsonpos.StringObject("type", "object")
	}
	if val.Kind != jsonpos.Object {
		return nil, fmt.Errorf("interface schema is not an object")
	}
	val.Delete("$schema")
	val.Delete("$id")
	head := jsonpos.StringObject("$schema", "https://json-schema.org/draft/2020-12/schema", "$id", id)
	val.Members = append(head.Members, val.Members...)
	return canon.Indent(val)
}

// ordered converts the value at ptr into a jsonpos tree in the YAML's own
// key order, so an imported schema reads like the author wrote it.
func (d *Doc) ordered(ptr string) *jsonpos.Value {
	n, ok := d.nodes[ptr]
	if !ok {
		return nil
	}
	return nodeValue(n, d.Get(ptr))
}

// nodeValue builds the jsonpos value of v in the key order of its node n.
// Members merged in with << follow the node's own, sorted; n is nil for
// values that have no node of their own (merged ones).
func nodeValue(n *yaml.Node, v any) *jsonpos.Value {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch x := v.(type) {
	case map[string]any:
		out := &jsonpos.Value{Kind: jsonpos.Object}
		done := map[string]bool{}
		for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; !isMerge(k) {
				done[k.Value] = true
				out.Members = append(out.Members, jsonpos.Member{Name: k.Value, Value: nodeValue(n.Content[i+1], x[k.Value])})
			}
		}
		for _, k := range sortedKeys(x) {
			if !done[k] {
				out.Members = append(out.Members, jsonpos.Member{Name: k, Value: nodeValue(nil, x[k])})
			}
		}
		return out
	case []any:
		out := &jsonpos.Value{Kind: jsonpos.Array}
		for i, it := range x {
			var child *yaml.Node
			if n != nil && i < len(n.Content) {
				child = n.Content[i]
			}
			out.Items = append(out.Items, nodeValue(child, it))
		}
		return out
	case nil:
		return &jsonpos.Value{Kind: jsonpos.Null}
	case bool:
		return &jsonpos.Value{Kind: jsonpos.Bool, Bool: x}
	case string:
		return &jsonpos.Value{Kind: jsonpos.String, Str: x}
	}
	return &jsonpos.Value{Kind: jsonpos.Number, Num: fmt.Sprint(v)}
}

// LossReport renders losses as findings-style lines.
func LossReport(file string, losses []Loss) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, l := range losses {
		out = append(out, diag.Diagnostic{Rule: "agf-import-loss", Severity: diag.Warning, File: file, Pointer: l.Pointer,
			Start: diag.Position{Line: l.Line, Column: 1}, Message: "not imported: " + l.What})
	}
	return diag.Sort(out)
}
