package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
)

// The rules in this file judge v2 manifests only: a pack whose engine range
// admits protocol major 2 (as the registry decides), or any pack under
// --spec v2. They report what a v2 registry refuses and `wop pack sign
// --spec v2` refuses, so lint and sign agree.

// v2Scheme is the one signing scheme of v2 (RFC 0177 §C.3).
const v2Scheme = "ed25519-canonical-json"

func checkV2KindRequired(p *Pass) {
	if p.Spec != spec.V2 || p.Root().Get("kind") != nil {
		return
	}
	p.Reportf("", "a v2 manifest must set kind (RFC 0177 §C.5); add \"kind\": %q", guessKind(p.Root()))
}

// guessKind names the kind a manifest's content suggests ("node" when none).
func guessKind(root *jsonpos.Value) string {
	for _, g := range contentGroups {
		for _, m := range g.members {
			if root.Get(m) != nil {
				return g.kind
			}
		}
	}
	return "node"
}

func checkV2EngineRange(p *Pass) {
	if p.Spec != spec.V2 {
		return
	}
	r := p.Root().Get("engines").Get("openwop")
	if r == nil || r.Kind != jsonpos.String {
		return // engines-range-invalid
	}
	switch n, ok := spec.Ceiling(r.Str); {
	case !ok:
		p.Reportf("/engines/openwop", "v2 hosts need engines.openwop as \">=x[.y[.z]] <M.0.0\" (one floor, one ceiling), not %q; write %q", r.Str, v2RangeFor(r.Str))
	case n <= 2:
		p.Reportf("/engines/openwop", "engines.openwop %q stops below protocol 2, so a v2 host refuses it; raise the ceiling to \"<3.0.0\"", r.Str)
	}
}

// v2RangeFor is the range to suggest instead of r: r's own floor when r
// is only a floor (">=1.1.0" becomes ">=1.1.0 <3.0.0", as --fix writes
// it), else the floor of its lowest major.
func v2RangeFor(r string) string {
	if r = strings.TrimSpace(r); lowerBoundOnly().MatchString(r) {
		return r + " <3.0.0"
	}
	return fmt.Sprintf(">=%d.0.0 <3.0.0", lowestMajor(r))
}

// v2EngineRangeWrong reports whether v2-engine-range refuses the range r;
// engines-range-unbounded then stays silent in v2 mode, since the one
// mistake (">=1.0.0") would otherwise be both a warning and an error.
func v2EngineRangeWrong(r string) bool {
	n, ok := spec.Ceiling(r)
	return !ok || n <= 2
}

func checkV2EnginesExtraKey(p *Pass) {
	e := p.Root().Get("engines")
	if p.Spec != spec.V2 || e == nil || e.Kind != jsonpos.Object {
		return
	}
	for _, m := range e.Members {
		if m.Name != "openwop" {
			p.ReportNamef("/engines/"+jsonpos.EscapeToken(m.Name), "engines.%s: a v2 manifest's engines holds only openwop; move other constraints to a vendor extension key (x-... at the root)", m.Name)
		}
	}
}

func checkV2SigningBlock(p *Pass) {
	s := p.Root().Get("signing")
	if p.Spec != spec.V2 || s == nil || s.Kind != jsonpos.Object {
		return
	}
	var v1 []string
	for _, m := range s.Members {
		if m.Name != "keyId" && m.Name != "scheme" {
			v1 = append(v1, m.Name)
		}
	}
	want := fmt.Sprintf("{\"keyId\": ID, \"scheme\": %q}", v2Scheme)
	switch {
	case len(v1) > 0:
		p.ReportNamef("/signing", "signing has %s, which v2 deleted (RFC 0177 §C.3/§C.4); a v2 signing block is %s: rebuild with wop pack build --key K --key-id ID", quoteAll(v1), want)
	case s.Get("keyId") == nil || s.Get("scheme") == nil:
		p.ReportNamef("/signing", "a v2 signing block is %s; rebuild with wop pack build --key K --key-id ID", want)
	case s.Get("scheme").String() != v2Scheme || s.Get("scheme").Kind != jsonpos.String:
		p.Reportf("/signing/scheme", "signing.scheme must be %q, the one v2 scheme", v2Scheme)
	}
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func checkV2PeerDeps(p *Pass) {
	peers := p.Root().Get("peerDependencies")
	if p.Spec != spec.V2 || peers == nil || peers.Kind != jsonpos.Object {
		return
	}
	decl, err := spec.LoadDeclaration()
	if err != nil {
		p.Reportf("", "%v", err)
		return
	}
	for _, m := range peers.Members {
		if _, ok := decl.Families[m.Name]; ok {
			continue
		}
		ptr := "/peerDependencies/" + jsonpos.EscapeToken(m.Name)
		if a, ok := decl.Aliases[m.Name]; ok {
			a.Facets, _ = decl.SplitFacets(a.Family, a.Facets)
			p.ReportNamef(ptr, "%q is a v1-era alias a v2 host refuses (pack_peer_dependency_undefined); name the family: %s", m.Name, aliasFix(a))
			continue
		}
		p.ReportNamef(ptr, "%q names no capability family of the v2 declaration, so a v2 host refuses it (pack_peer_dependency_undefined)%s", m.Name, familyHint(decl, m.Name))
	}
	checkV2Facets(p, decl)
}

// checkV2Facets: each peerDependenciesMeta.<family>.facets[] entry must be
// a facet the declaration lists for that family (packs.md §Peer
// dependencies; RFC 0177 §B.1).
func checkV2Facets(p *Pass, decl *spec.Declaration) {
	meta := p.Root().Get("peerDependenciesMeta")
	if meta == nil || meta.Kind != jsonpos.Object {
		return
	}
	for _, m := range meta.Members {
		facets, declared := decl.Families[m.Name]
		list := m.Value.Get("facets")
		if !declared || list == nil || list.Kind != jsonpos.Array {
			continue // an undeclared family is reported by its key
		}
		for i, f := range list.Items {
			if f.Kind != jsonpos.String || slices.Contains(facets, f.Str) {
				continue
			}
			known := "it declares none"
			if len(facets) > 0 {
				known = "it declares " + quoteAll(facets)
			}
			p.Reportf(fmt.Sprintf("/peerDependenciesMeta/%s/facets/%d", jsonpos.EscapeToken(m.Name), i), "%q is not a facet the v2 declaration lists for %s (%s), and a facet must be one (RFC 0177 §B.1); name a listed facet, or drop it to require the family as a whole", f.Str, m.Name, known)
		}
	}
}

// aliasFix says how to write an alias as a family with facets.
func aliasFix(a spec.Alias) string {
	if len(a.Facets) == 0 {
		return fmt.Sprintf("%q", a.Family)
	}
	return fmt.Sprintf("%q with peerDependenciesMeta.%s.facets [%s]", a.Family, a.Family, quoteAll(a.Facets))
}

// familyHint suggests the family a dotted key starts with, if one exists.
func familyHint(decl *spec.Declaration, key string) string {
	for _, part := range strings.Split(key, ".") {
		if _, ok := decl.Families[part]; ok {
			return fmt.Sprintf("; did you mean the family %q (facets go in peerDependenciesMeta.%s.facets)?", part, part)
		}
	}
	return ""
}

// claimedByV2Rule drops v2 schema problems a rule of this file explains.
func claimedByV2Rule(pr schema.Problem) bool {
	switch {
	case pr.Keyword == "required" && slices.Contains(pr.Names, "kind"):
		return true // v2-kind-required
	case (pr.Pointer == "/signing" || strings.HasPrefix(pr.Pointer, "/signing/")) && pr.Keyword != "pattern":
		return true // v2-signing-block (the keyId grammar stays with the schema)
	}
	return false
}

// checkV2ChainPin: workflow-chain-packs.md §Exact pins (RFC 0177 §E.1). A
// v2 host refuses a chain whose node reference or external sub-chain
// carries a range or no version (chain_reference_unpinned).
func checkV2ChainPin(p *Pass) {
	if p.Spec != spec.V2 {
		return
	}
	for _, d := range chains(p).DAGs {
		if !strings.HasPrefix(d.Pointer, "/chains/") {
			continue
		}
		for _, n := range d.Nodes {
			if n.TypeID == "" || n.Pinned && spec.ExactVersion(n.Pin) {
				continue
			}
			p.Reportf(n.Pointer+"/typeId", "node %q: %s; a v2 host refuses a chain reference without an exact version (chain_reference_unpinned): %s", n.ID, pinProblem(n), pinFix(p, n.TypeID))
		}
	}
	eachObject(p.Root().Get("chains"), "/chains", func(ptr string, c *jsonpos.Value) {
		eachObject(c.Get("subChains"), ptr+"/subChains", func(sp string, s *jsonpos.Value) {
			ref := s.Get("ref")
			if ref == nil || ref.Kind != jsonpos.Object {
				return // a sibling chainId: pinned through the sibling
			}
			v := ref.Get("version")
			if v != nil && v.Kind == jsonpos.String && spec.ExactVersion(v.Str) {
				return
			}
			at, what := sp+"/ref", "pins no version"
			if v != nil {
				at, what = at+"/version", fmt.Sprintf("pins %q, not an exact X.Y.Z", v.String())
			}
			p.Reportf(at, "external sub-chain %s#%s %s; a v2 host refuses a chain reference without an exact version (chain_reference_unpinned): pin the version to compose", ref.Get("packName").String(), ref.Get("chainId").String(), what)
		})
	})
}

func pinProblem(n chain.Node) string {
	if !n.Pinned {
		return fmt.Sprintf("typeId %q pins no version", n.TypeID)
	}
	return fmt.Sprintf("typeId %q pins %q, not an exact X.Y.Z", n.TypeID, n.Pin)
}

// pinFix names the pin to write: the catalog's version of the node type
// when it knows one, else how to get it.
func pinFix(p *Pass, typeID string) string {
	if p.Catalog != nil {
		if t, ok := p.Catalog.NodeType(typeID); ok && spec.ExactVersion(t.Version) {
			return fmt.Sprintf("write %q (the catalog's %s@%s)", typeID+"@"+t.Version, t.Pack, t.PackVersion)
		}
	}
	return fmt.Sprintf("write %q with the version the chain was built against, or run wop pack migrate --to v2 --catalog SRC", typeID+"@X.Y.Z")
}

// evalSuiteSchema is the spec's agent eval-suite schema (RFC 0081 §A).
const evalSuiteSchema = spec.Base + "agent-eval-suite.schema.json"

// checkV2EvalSuite: a v2 agent's eval suite must follow the spec's
// agent-eval-suite schema, which a host advertising agents.evalSuite holds
// it to before it runs one task. Part of eval-suite-invalid.
func checkV2EvalSuite(p *Pass, r pack.Ref, doc *jsonpos.Doc) {
	problems, err := p.Schemas.Validate(evalSuiteSchema, doc.Root.Interface())
	if err != nil {
		p.Reportf("", "%v", err)
		return
	}
	for _, pr := range problems {
		p.ReportAt(r.Target, doc, pr.Pointer, pr.OnName, fmt.Sprintf("%s (agent-eval-suite.schema.json; the file is named by %s)", pr.Message, r.Field))
	}
}
