// Package migrate rewrites a v1 pack manifest into a v2 one through
// internal/jsonedit, so everything it does not change keeps its bytes, and
// says what it could not decide instead of guessing.
package migrate

import (
	"errors"
	"fmt"
	"slices"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/jsonedit"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/spec"
)

// Note is one thing the migration did not do, at a pointer into pack.json.
type Note struct {
	Pointer string
	Message string
}

// Options are what a migration may consult.
type Options struct {
	// Catalog pins chain references to exact versions; nil leaves every
	// unpinned reference as a note.
	Catalog Catalog
}

// ToV2 returns src (a pack.json) migrated to v2: kind set, the engine range
// given the v2 ceiling, a hand-written signing block deleted (the build
// writes the v2 one), v1-era peer-dependency aliases renamed to their
// family with the facets in peerDependenciesMeta, chain references pinned
// to the catalog's exact versions. Notes list what it left for a person:
// undeclared peer keys, extra engines members, ranges it cannot rewrite
// safely, references the catalog cannot pin.
func ToV2(src []byte, opt Options) ([]byte, []Note, error) {
	doc, err := parse(src)
	if err != nil {
		return nil, nil, err
	}
	if doc.Root.Kind != jsonpos.Object {
		return nil, nil, &SourceError{Pos: doc.Position(doc.Root.Start), Msg: "pack.json is not a JSON object; a manifest is one {...}"}
	}
	decl, err := spec.LoadDeclaration()
	if err != nil {
		return nil, nil, err
	}
	m := &migration{src: src, decl: decl, catalog: opt.Catalog}
	for _, step := range []func(*jsonpos.Value) error{m.kind, m.engines, m.signing, m.peerDependencies, m.pins} {
		if err := step(doc.Root); err != nil {
			return nil, nil, err
		}
		if doc, err = jsonpos.Parse(m.src); err != nil {
			return nil, nil, fmt.Errorf("migrating pack.json produced invalid JSON (a bug in wop): %w", err)
		}
	}
	return m.src, m.notes, nil
}

// SourceError is a pack.json migrate cannot read, at a line and column.
type SourceError struct {
	Pos jsonpos.Position
	Msg string
}

func (e *SourceError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Column, e.Msg)
}

// parse reads src, refusing a member written twice: the rewrite would keep
// one copy and drop the other silently, so the author chooses.
func parse(src []byte) (*jsonpos.Doc, error) {
	doc, err := jsonpos.ParseUnique(src)
	if pe := (*jsonpos.PlaceError)(nil); errors.As(err, &pe) {
		se := &SourceError{Pos: pe.Pos, Msg: pe.Msg}
		if pe.Duplicate {
			se.Msg += "; a reader keeps only one: delete the other, then migrate again"
		}
		return nil, se
	}
	return doc, err
}

type migration struct {
	src     []byte
	decl    *spec.Declaration
	catalog Catalog // nil: none
	notes   []Note
}

func (m *migration) note(ptr, format string, args ...any) {
	m.notes = append(m.notes, Note{ptr, fmt.Sprintf(format, args...)})
}

func (m *migration) set(ptr string, v any) error {
	out, err := jsonedit.Set(m.src, ptr, v)
	if err != nil {
		return err
	}
	m.src = out
	return nil
}

// contentKinds are the members that make a manifest a given kind.
var contentKinds = []struct{ member, kind string }{
	{"chains", "workflow-chain"}, {"prompts", "prompt"}, {"artifactTypes", "artifact-type"},
	{"cards", "card"}, {"templates", "form-content"}, {"provider", "connection"},
	{"uiPlugins", "frontend-plugin"},
}

func (m *migration) kind(root *jsonpos.Value) error {
	if root.Get("kind") != nil {
		return nil
	}
	kind := "node"
	for _, c := range contentKinds {
		if root.Get(c.member) != nil {
			kind = c.kind
		}
	}
	return m.set("/kind", kind)
}

// floorOnly matches ranges whose only safe v2 form is obvious: a floor,
// optionally closed below protocol 3.
var floorOnly = regex.Lazy(`^>=\s*(\d+(?:\.\d+){0,2})(?:\s+<\s*[12](?:\.0){0,2})?$`)

func (m *migration) engines(root *jsonpos.Value) error {
	e := root.Get("engines")
	if e != nil && e.Kind == jsonpos.Object {
		for _, mem := range e.Members {
			if mem.Name != "openwop" {
				m.note("/engines/"+jsonpos.EscapeToken(mem.Name), "engines.%s: v2 engines holds only openwop; move it to a vendor extension key (x-...) or delete it", mem.Name)
			}
		}
	}
	r := e.Get("openwop")
	switch {
	case r == nil || r.Kind != jsonpos.String:
		m.note("/engines", "engines.openwop is missing; write \">=1.1.0 <3.0.0\" (or the floor the pack needs)")
		return nil
	case spec.AdmitsV2(r.Str):
		return nil
	}
	f := floorOnly().FindStringSubmatch(r.Str)
	if f == nil {
		m.note("/engines/openwop", "engines.openwop %q: not a plain floor, so the v2 form \">=x <3.0.0\" is left to you", r.Str)
		return nil
	}
	return m.set("/engines/openwop", ">="+agentsFloor(root, f[1])+" <3.0.0")
}

// agentsFloor is floor, raised to 1.1.0 for a pack with agents: agents[]
// came with protocol 1.1.0, so a 1.0.x host cannot run them anyway
// (agents-engine-too-old), and the rewritten range should not invite one.
func agentsFloor(root *jsonpos.Value, floor string) string {
	v, err := semver.NewVersion(floor)
	if root.Get("agents") == nil || err != nil || !v.LessThan(semver.MustParse("1.1.0")) {
		return floor
	}
	return "1.1.0"
}

func (m *migration) signing(root *jsonpos.Value) error {
	if root.Get("signing") == nil {
		return nil
	}
	out, err := jsonedit.Delete(m.src, "/signing")
	if err != nil {
		return err
	}
	m.src = out
	return nil
}

func (m *migration) peerDependencies(root *jsonpos.Value) error {
	peers := root.Get("peerDependencies")
	if peers == nil || peers.Kind != jsonpos.Object {
		return nil
	}
	for _, mem := range peers.Members {
		if _, ok := m.decl.Families[mem.Name]; ok {
			continue
		}
		ptr := "/peerDependencies/" + jsonpos.EscapeToken(mem.Name)
		a, ok := m.decl.Aliases[mem.Name]
		if !ok {
			m.note(ptr, "%q names no capability family of the v2 declaration and has no alias row; choose the family by hand", mem.Name)
			continue
		}
		if err := m.renamePeer(mem.Name, a); err != nil {
			return err
		}
	}
	return nil
}

// renamePeer turns alias into a.Family, moving its meta entry and adding
// its facets to peerDependenciesMeta.<family>.facets.
func (m *migration) renamePeer(alias string, a spec.Alias) error {
	ptr := "/peerDependencies/" + jsonpos.EscapeToken(alias)
	fam := jsonpos.EscapeToken(a.Family)
	var undeclared []string
	if a.Facets, undeclared = m.decl.SplitFacets(a.Family, a.Facets); len(undeclared) > 0 {
		m.note(ptr, "the alias table gives %q the facets %v, which the v2 declaration does not list for %s; they are left out (the family alone is required): name a listed facet if the pack needs one", alias, undeclared, a.Family)
	}
	doc, err := jsonpos.Parse(m.src) // earlier renames may have made the family
	if err != nil {
		return err
	}
	root := doc.Root
	// The family already required, the alias adds only its facets.
	edit := func(src []byte) ([]byte, error) { return jsonedit.Rename(src, ptr, a.Family) }
	if root.Get("peerDependencies").Get(a.Family) != nil {
		edit = func(src []byte) ([]byte, error) { return jsonedit.Delete(src, ptr) }
	}
	out, err := edit(m.src)
	if err != nil {
		return err
	}
	m.src = out
	meta := root.Get("peerDependenciesMeta")
	if old := meta.Get(alias); old != nil {
		if meta.Get(a.Family) != nil {
			m.note("/peerDependenciesMeta/"+jsonpos.EscapeToken(alias), "peerDependenciesMeta has entries for both %q and %q; merge them by hand", alias, a.Family)
		} else if out, err = jsonedit.Rename(m.src, "/peerDependenciesMeta/"+jsonpos.EscapeToken(alias), a.Family); err != nil {
			return err
		} else {
			m.src = out
		}
	}
	if len(a.Facets) == 0 {
		return nil
	}
	if doc, err = jsonpos.Parse(m.src); err != nil {
		return err
	}
	meta = doc.Root.Get("peerDependenciesMeta")
	entry := meta.Get(a.Family)
	switch {
	case meta == nil:
		return m.set("/peerDependenciesMeta", map[string]any{a.Family: map[string]any{"facets": a.Facets}})
	case entry == nil:
		return m.set("/peerDependenciesMeta/"+fam, map[string]any{"facets": a.Facets})
	case entry.Kind != jsonpos.Object:
		m.note("/peerDependenciesMeta/"+fam, "peerDependenciesMeta.%s is not an object; add facets %v by hand", a.Family, a.Facets)
		return nil
	}
	facets := a.Facets
	if have := entry.Get("facets"); have != nil && have.Kind == jsonpos.Array {
		var merged []string
		for _, it := range have.Items {
			merged = append(merged, it.String())
		}
		for _, f := range a.Facets {
			if !slices.Contains(merged, f) {
				merged = append(merged, f)
			}
		}
		facets = merged
	}
	return m.set("/peerDependenciesMeta/"+fam+"/facets", facets)
}
