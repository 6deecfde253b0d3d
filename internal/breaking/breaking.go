// Package breaking compares two releases of a pack and says what changed
// for the pack's consumers: removed ids, schemas that accept less or
// guarantee less, new requirements, and the SemVer bump all that needs
// against the bump the version makes. Two packs in, findings out, as
// diag values; it never prints and never fetches.
package breaking

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
)

// Options tune a comparison.
type Options struct {
	// Provides reports whether some known pack (a catalog) defines a node
	// typeId. Nil: only the pack's own nodes and its declared dependencies'
	// namespaces count as providers.
	Provides func(typeID string) bool
	// Accept lists changes made on purpose (.wop.yaml breaking.accept):
	// they are left out of the findings and of the bump the changes need.
	Accept []Acceptance
}

// Acceptance matches changes of Rule at Where: a pointer into the old or
// new release, or a file name in the pack; "" matches anywhere.
type Acceptance struct {
	Rule, Where string
}

func (a Acceptance) matches(c Change) bool {
	return a.Rule == c.Rule && (a.Where == "" || a.Where == c.Pointer || a.Where == c.OldPointer || a.Where == c.Name)
}

// Change is one finding with what the diag model does not carry.
type Change struct {
	diag.Diagnostic
	Name       string // the file within the pack, e.g. "pack.json"
	OldPointer string // where the changed thing was in the old release ("" if new)
	Bump       Bump   // the increment this change needs
}

// Result is the outcome of a comparison.
type Result struct {
	Name                   string
	OldVersion, NewVersion string
	Changes                []Change // sorted like diag.Sort, verdict included
	Needed                 Bump     // the largest increment the changes need
	Made                   Bump     // the increment the version makes (caret semantics for 0.x)
	Accepted               int      // changes left out by Options.Accept
	// Stale lists node and chain versions the changes require raising.
	Stale []StaleVersion
}

// StaleVersion is a node's or chain's own version that did not move
// although its contract changed.
type StaleVersion struct {
	Pointer string // to the version member in the new manifest, e.g. /nodes/0/version
	Version string // as it is
	Needed  Bump   // the step its contract change needs
}

// Diagnostics returns the findings as plain diagnostics.
func (r *Result) Diagnostics() []diag.Diagnostic {
	out := make([]diag.Diagnostic, len(r.Changes))
	for i, c := range r.Changes {
		out[i] = c.Diagnostic
	}
	return out
}

// release is one side of the comparison, parsed.
type release struct {
	pk       *pack.Pack
	manifest *jsonpos.Doc
	version  string
}

func load(pk *pack.Pack) (*release, error) {
	src, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pk.Path(pack.ManifestName), err)
	}
	doc, err := jsonpos.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pk.Path(pack.ManifestName), err)
	}
	if doc.Root.Kind != jsonpos.Object {
		return nil, fmt.Errorf("%s: not a JSON object", pk.Path(pack.ManifestName))
	}
	return &release{pk: pk, manifest: doc, version: doc.Root.Get("version").String()}, nil
}

// comparison collects changes between two releases.
type comparison struct {
	old, new      *release
	opt           Options
	changes       []Change
	additions     bool // something new appeared: a compatible feature
	staleVersions []StaleVersion
	docs          map[string]*jsonpos.Doc
}

// Compare reports what changed from old to new.
func Compare(oldPk, newPk *pack.Pack, opt Options) (*Result, error) {
	o, err := load(oldPk)
	if err != nil {
		return nil, err
	}
	n, err := load(newPk)
	if err != nil {
		return nil, err
	}
	c := &comparison{old: o, new: n, opt: opt, docs: map[string]*jsonpos.Doc{pack.ManifestName: n.manifest}}
	res := &Result{Name: n.manifest.Root.Get("name").String(), OldVersion: o.version, NewVersion: n.version}
	c.compareManifest()
	c.changes = slices.DeleteFunc(c.changes, func(ch Change) bool {
		if slices.ContainsFunc(opt.Accept, func(a Acceptance) bool { return a.matches(ch) }) {
			res.Accepted++
			return true
		}
		return false
	})
	changed, firstDiff, err := contentsDiffer(oldPk, newPk)
	if err != nil {
		return nil, err
	}
	for _, ch := range c.changes {
		res.Needed = max(res.Needed, ch.Bump)
	}
	if c.additions {
		res.Needed = max(res.Needed, Minor)
	}
	if changed {
		res.Needed = max(res.Needed, Patch)
	}
	if o.version == n.version {
		if changed {
			c.add(RuleVersionMutated, "/version", "", "version %s was already released with other contents (first difference: %s): publish this as a new version", n.version, firstDiff)
		}
	} else {
		res.Made = c.verdict(res.Needed)
	}
	slices.SortStableFunc(c.changes, func(a, b Change) int { return diag.Compare(a.Diagnostic, b.Diagnostic) })
	res.Changes = c.changes
	res.Stale = c.staleVersions
	return res, nil
}

// moved reports whether a change's old place is elsewhere than its new one
// (a node that moved in nodes[]), not merely above or below it.
func moved(oldPtr, newPtr string) bool {
	return oldPtr != "" && !strings.HasPrefix(oldPtr+"/", newPtr+"/") && !strings.HasPrefix(newPtr+"/", oldPtr+"/")
}

// add records a change of rule at newPtr in the new pack's manifest.
func (c *comparison) add(rule, newPtr, oldPtr, format string, args ...any) {
	c.addIn(pack.ManifestName, rule, newPtr, oldPtr, fmt.Sprintf(format, args...))
}

// addIn records a change at a pointer into a file of the new pack.
func (c *comparison) addIn(file, rule, newPtr, oldPtr, msg string) {
	r := lookup(rule)
	if file == pack.ManifestName && moved(oldPtr, newPtr) && !strings.Contains(msg, oldPtr) {
		msg += fmt.Sprintf(" (at %s in %s)", oldPtr, c.old.version)
	}
	d := diag.Diagnostic{Rule: rule, Severity: r.Severity, File: c.new.pk.Path(file), Pointer: newPtr, Message: msg}
	if doc := c.docs[file]; doc != nil {
		d.Start = diag.Position(doc.Locate(newPtr))
		if newPtr == "" {
			d.Start = diag.Position(doc.Position(doc.Root.Start))
		}
	}
	c.changes = append(c.changes, Change{Diagnostic: d, Name: file, OldPointer: oldPtr, Bump: r.Bump})
}
