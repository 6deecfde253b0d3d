package lint

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonedit"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/spec"
)

// FixInput is what a rule's fix sees: one finding and its parsed file.
type FixInput struct {
	File     string         // slash path in the pack, e.g. "schemas/a.json"
	Doc      *jsonpos.Doc   // the file, as the pass parsed it
	Pointer  string         // the finding's pointer into Doc
	Manifest *jsonpos.Value // the pack's parsed manifest
	Profile  Profile
	Spec     spec.Tree // the tree the pack is judged by (never auto)
}

// Fix returns the edit that fixes one finding of its rule, or false when
// the finding has no safe mechanical fix. It reads the parsed file and
// neither parses nor edits text: lint computes every finding's fix once,
// as it reports, and --fix and the editor apply that.
type Fix func(FixInput) (diag.Fix, bool)

// FileFix is one file's text before and after its findings were fixed.
type FileFix struct {
	Name     string
	Old, New []byte
	Rules    []string // the rules whose findings were fixed, sorted
}

// Fixes computes, without writing, what `lint --fix` makes of the findings
// diags holds for pk (as Run returned them): each Fixable finding's Fix,
// applied by ApplyFix. Files whose text would not change are left out;
// archives cannot be fixed and give none.
func Fixes(pk *pack.Pack, diags []diag.Diagnostic) ([]FileFix, error) {
	if pk.Archive != nil {
		return nil, nil
	}
	byFile := map[string][]diag.Diagnostic{}
	var order []string
	for _, d := range diags {
		if !d.Fixable || d.Fix.IsZero() {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(d.File, pk.Path("")), "/")
		if _, ok := byFile[name]; !ok {
			order = append(order, name)
		}
		byFile[name] = append(byFile[name], d)
	}
	var fixes []FileFix
	for _, name := range order {
		data, err := pk.ReadFile(name)
		if err != nil {
			continue
		}
		ds := byFile[name]
		edits := make([]diag.Fix, len(ds))
		for i, d := range ds {
			edits[i] = d.Fix
		}
		out, applied, err := ApplyFixes(data, edits)
		if err != nil {
			return nil, fmt.Errorf("fix %s: %w", pk.Path(name), err)
		}
		ff := FileFix{Name: name, Old: data, New: out}
		for i, d := range ds {
			if applied[i] {
				ff.Rules = append(ff.Rules, d.Rule)
			}
		}
		if len(ff.Rules) > 0 && !bytes.Equal(out, data) {
			slices.Sort(ff.Rules)
			ff.Rules = slices.Compact(ff.Rules)
			fixes = append(fixes, ff)
		}
	}
	return fixes, nil
}

// ApplyFixes applies several fixes of one file's text, in an order where
// none moves what another still has to find: spans from the end of the
// file back (none reaching into one applied); in JSON, values before
// member names, and deeper names first (renaming a member changes the
// pointers below it). applied says which changed the text; one whose text
// is gone (a duplicate, or edited since) is skipped.
func ApplyFixes(src []byte, fixes []diag.Fix) (out []byte, applied []bool, err error) {
	order := make([]int, len(fixes))
	for i := range order {
		order[i] = i
	}
	keyRank := func(f diag.Fix) int {
		if f.Key {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := fixes[i], fixes[j]
		return cmp.Or(cmp.Compare(b.Start, a.Start), cmp.Compare(keyRank(a), keyRank(b)),
			cmp.Compare(strings.Count(b.Pointer, "/"), strings.Count(a.Pointer, "/")))
	})
	out, applied = src, make([]bool, len(fixes))
	limit := len(src)
	for _, i := range order {
		f := fixes[i]
		if f.Span() && f.End > limit {
			continue
		}
		next, ok, err := ApplyFix(out, f)
		if err != nil {
			return src, nil, err
		}
		if ok && !bytes.Equal(next, out) {
			out, applied[i] = next, true
			if f.Span() {
				limit = f.Start
			}
		}
	}
	return out, applied, nil
}

// ApplyFix applies one finding's fix to its file's text: the one edit path
// of `wop pack lint --fix` and the editor's quick fix. ok is false, and src
// comes back unchanged, when the text no longer holds what the fix
// replaces (it was edited since the finding was made).
func ApplyFix(src []byte, f diag.Fix) (out []byte, ok bool, err error) {
	switch {
	case f.IsZero():
		return src, false, nil
	case f.Span():
		if f.Start < 0 || f.End > len(src) || f.Start > f.End || string(src[f.Start:f.End]) != f.Was {
			return src, false, nil
		}
		return slices.Concat(src[:f.Start], []byte(f.Text), src[f.End:]), true, nil
	case f.Key:
		if !renamable(src, f) {
			return src, false, nil
		}
		out, err = jsonedit.Rename(src, f.Pointer, f.New)
	default:
		if v, found := valueAt(src, f.Pointer); !found || v != f.Old {
			return src, false, nil
		}
		out, err = jsonedit.Set(src, f.Pointer, f.New)
	}
	if errors.Is(err, jsonedit.ErrNotFound) {
		return src, false, nil
	}
	if err != nil {
		return src, false, err
	}
	return out, true, nil
}

// renamable reports whether the member at f.Pointer is named f.Old and no
// sibling is named f.New already (the rename would make a duplicate).
func renamable(src []byte, f diag.Fix) bool {
	doc, err := jsonpos.Parse(src)
	return err == nil && renamableIn(doc, f)
}

// renamableIn is renamable over a parsed document.
func renamableIn(doc *jsonpos.Doc, f diag.Fix) bool {
	toks, err := jsonedit.Tokens(f.Pointer)
	if err != nil || len(toks) == 0 || toks[len(toks)-1] != f.Old || doc.Lookup(f.Pointer) == nil {
		return false
	}
	return doc.Lookup(jsonedit.Pointer(append(toks[:len(toks)-1:len(toks)-1], f.New)...)) == nil
}

// markFixable gives each finding of a rule with a mechanical fix that
// fix, computed from the file the pass already parsed, and marks it for
// --fix. A fixer is a lookup in a parsed file: this once applied each fix
// to its file's text, per finding, on every run, only to learn whether it
// changed anything. An archive is never fixed, so its findings carry no
// fix at all (suggestions included).
func markFixable(p *Pass, diags []diag.Diagnostic, rules Rules) {
	if p.Pack.Archive != nil {
		for i := range diags {
			diags[i].Fix, diags[i].Fixable = diag.Fix{}, false
		}
		return
	}
	if p.Manifest == nil {
		return
	}
	var fixers map[string]Fix
	for i := range diags {
		d := &diags[i]
		if fixers == nil {
			fixers = map[string]Fix{}
			for _, r := range rules {
				if r.Fix != nil {
					fixers[r.ID] = r.Fix
				}
			}
		}
		fix := fixers[d.Rule]
		if fix == nil {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(d.File, p.Pack.Path("")), "/")
		doc, _, err := p.JSON(name)
		if err != nil {
			continue
		}
		if f, ok := fix(FixInput{File: name, Doc: doc, Pointer: d.Pointer, Manifest: p.Root(), Profile: p.Profile, Spec: p.Spec}); ok {
			d.Fix, d.Fixable = f, true
		}
	}
}

// valueAt is the string at ptr in src, if there is one.
func valueAt(src []byte, ptr string) (string, bool) {
	doc, err := jsonpos.Parse(src)
	if err != nil {
		return "", false
	}
	return stringAt(doc, ptr)
}

// stringAt is the string at ptr in doc, if there is one.
func stringAt(doc *jsonpos.Doc, ptr string) (string, bool) {
	v := doc.Lookup(ptr)
	if v == nil || v.Kind != jsonpos.String {
		return "", false
	}
	return v.Str, true
}

// setString is the fix writing s at ptr in place of old (none when equal).
func setString(ptr, old, s string) (diag.Fix, bool) {
	return diag.Fix{Old: old, New: s, Pointer: ptr}, s != old
}

// fixSchemaID sets a pack schema's $id to <base>/<name>/<version>/<file>.
func fixSchemaID(in FixInput) (diag.Fix, bool) {
	id, ok := stringAt(in.Doc, "/$id")
	if !ok {
		return diag.Fix{}, false
	}
	return setString("/$id", id, fmt.Sprintf("%s/%s/%s/%s", in.Profile.SchemaBase, in.Manifest.Get("name").String(), in.Manifest.Get("version").String(), strings.TrimPrefix(in.File, "schemas/")))
}

// fixSchemaRefDrift moves an absolute $ref into this pack to its version.
func fixSchemaRefDrift(in FixInput) (diag.Fix, bool) {
	ref, ok := stringAt(in.Doc, in.Pointer)
	prefix := in.Profile.SchemaBase + "/" + in.Manifest.Get("name").String() + "/"
	rest, found := strings.CutPrefix(ref, prefix)
	_, tail, hasTail := strings.Cut(rest, "/")
	if !ok || !found || !hasTail {
		return diag.Fix{}, false
	}
	return setString(in.Pointer, ref, prefix+in.Manifest.Get("version").String()+"/"+tail)
}

// fixRefCanonical rewrites a ref whose only fault is its spelling ("./a",
// "a//b", "a/./b"); refs with a fragment, a query or backslashes mean
// something a person must decide.
func fixRefCanonical(in FixInput) (diag.Fix, bool) {
	ref, ok := stringAt(in.Doc, in.Pointer)
	if !ok || strings.ContainsAny(ref, `#?\`) {
		return diag.Fix{}, false
	}
	canon := canonicalRef(ref)
	if rule, _ := refSyntax(canon); rule != "" {
		return diag.Fix{}, false
	}
	return setString(in.Pointer, ref, canon)
}

var lowerBoundOnly = regex.Lazy(`^>=\s*v?(\d+)\.\d+\.\d+$`)

// fixEnginesUpperBound closes a range of the form ">=X.Y.Z" below the next
// major protocol: ">=X.Y.Z <X+1.0.0".
func fixEnginesUpperBound(in FixInput) (diag.Fix, bool) {
	r, ok := stringAt(in.Doc, "/engines/openwop")
	m := lowerBoundOnly().FindStringSubmatch(strings.TrimSpace(r))
	if !ok || m == nil {
		return diag.Fix{}, false
	}
	return setString("/engines/openwop", r, fmt.Sprintf("%s <%d.0.0", strings.TrimSpace(r), ceilingIn(in.Spec, lowestMajor(r)+1)))
}
