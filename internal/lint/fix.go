package lint

import (
	"bytes"
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

// FixInput is what a rule's fix sees: one finding and its file's text.
type FixInput struct {
	File     string         // slash path in the pack, e.g. "schemas/a.json"
	Src      []byte         // the file's current text (earlier fixes applied)
	Pointer  string         // the finding's pointer into Src
	Manifest *jsonpos.Value // the pack's parsed manifest
	Profile  Profile
	Spec     spec.Tree // the tree the pack is judged by (never auto)
}

// Fix returns Src with one finding fixed through jsonedit (formatting
// kept), or Src unchanged when this finding has no safe mechanical fix.
type Fix func(FixInput) ([]byte, error)

// FileFix is one file's text before and after its findings were fixed.
type FileFix struct {
	Name     string
	Old, New []byte
	Rules    []string // the rules whose findings were fixed, sorted
}

// Fixes computes, without writing, the fixes for the findings diags holds
// for pk (as Run returned them). Files whose text would not change are left
// out; archives cannot be fixed and give none.
func Fixes(pk *pack.Pack, diags []diag.Diagnostic, opt Options) ([]FileFix, error) {
	if pk.Archive != nil {
		return nil, nil
	}
	if opt.Profile.SchemaBase == "" {
		opt.Profile.SchemaBase = DefaultSchemaBase
	}
	src, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return nil, nil
	}
	man, err := jsonpos.Parse(src)
	if err != nil {
		return nil, nil // nothing is fixed in a pack whose manifest does not parse
	}
	byFile := map[string]*FileFix{}
	var order []string
	for _, d := range diags {
		r := Lookup(d.Rule)
		if r == nil || r.Fix == nil {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(d.File, pk.Path("")), "/")
		ff, ok := byFile[name]
		if !ok {
			data, err := pk.ReadFile(name)
			if err != nil {
				continue
			}
			ff = &FileFix{Name: name, Old: data, New: data}
			byFile[name], order = ff, append(order, name)
		}
		out, err := r.Fix(FixInput{File: name, Src: ff.New, Pointer: d.Pointer, Manifest: man.Root, Profile: opt.Profile, Spec: opt.Spec.Resolve(man.Root)})
		if err != nil {
			return nil, fmt.Errorf("fix %s in %s: %w", d.Rule, pk.Path(name), err)
		}
		if string(out) != string(ff.New) {
			ff.New = out
			ff.Rules = append(ff.Rules, d.Rule)
		}
	}
	var fixes []FileFix
	for _, name := range order {
		if ff := byFile[name]; len(ff.Rules) > 0 {
			slices.Sort(ff.Rules)
			ff.Rules = slices.Compact(ff.Rules)
			fixes = append(fixes, *ff)
		}
	}
	return fixes, nil
}

// markFixable sets Fixable on each finding whose rule's fix changes its
// file, so that text output can say which findings --fix takes care of.
// Each fix is tried alone on the file as it is; an archive is never fixed.
func markFixable(p *Pass, diags []diag.Diagnostic, rules Rules) {
	if p.Pack.Archive != nil || p.Manifest == nil {
		return
	}
	for i, d := range diags {
		r := rules.Lookup(d.Rule)
		if r == nil || r.Fix == nil {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(d.File, p.Pack.Path("")), "/")
		_, src, err := p.JSON(name)
		if err != nil {
			continue
		}
		out, err := r.Fix(FixInput{File: name, Src: src, Pointer: d.Pointer, Manifest: p.Root(), Profile: p.Profile, Spec: p.Spec})
		diags[i].Fixable = err == nil && !bytes.Equal(out, src)
	}
}

// valueAt is the string at ptr in src, if there is one.
func valueAt(src []byte, ptr string) (string, bool) {
	doc, err := jsonpos.Parse(src)
	if err != nil {
		return "", false
	}
	v := doc.Lookup(ptr)
	if v == nil || v.Kind != jsonpos.String {
		return "", false
	}
	return v.Str, true
}

// fixSchemaID sets a pack schema's $id to <base>/<name>/<version>/<file>.
func fixSchemaID(in FixInput) ([]byte, error) {
	if _, ok := valueAt(in.Src, "/$id"); !ok {
		return in.Src, nil
	}
	want := fmt.Sprintf("%s/%s/%s/%s", in.Profile.SchemaBase, in.Manifest.Get("name").String(), in.Manifest.Get("version").String(), strings.TrimPrefix(in.File, "schemas/"))
	return jsonedit.Set(in.Src, "/$id", want)
}

// fixSchemaRefDrift moves an absolute $ref into this pack to its version.
func fixSchemaRefDrift(in FixInput) ([]byte, error) {
	ref, ok := valueAt(in.Src, in.Pointer)
	prefix := in.Profile.SchemaBase + "/" + in.Manifest.Get("name").String() + "/"
	rest, found := strings.CutPrefix(ref, prefix)
	_, tail, hasTail := strings.Cut(rest, "/")
	if !ok || !found || !hasTail {
		return in.Src, nil
	}
	return jsonedit.Set(in.Src, in.Pointer, prefix+in.Manifest.Get("version").String()+"/"+tail)
}

// fixRefCanonical rewrites a ref whose only fault is its spelling ("./a",
// "a//b", "a/./b"); refs with a fragment, a query or backslashes mean
// something a person must decide.
func fixRefCanonical(in FixInput) ([]byte, error) {
	ref, ok := valueAt(in.Src, in.Pointer)
	if !ok || strings.ContainsAny(ref, `#?\`) {
		return in.Src, nil
	}
	canon := canonicalRef(ref)
	if rule, _ := refSyntax(canon); rule != "" || canon == ref {
		return in.Src, nil
	}
	return jsonedit.Set(in.Src, in.Pointer, canon)
}

var lowerBoundOnly = regex.Lazy(`^>=\s*v?(\d+)\.\d+\.\d+$`)

// fixEnginesUpperBound closes a range of the form ">=X.Y.Z" below the next
// major protocol: ">=X.Y.Z <X+1.0.0".
func fixEnginesUpperBound(in FixInput) ([]byte, error) {
	r, ok := valueAt(in.Src, "/engines/openwop")
	m := lowerBoundOnly().FindStringSubmatch(strings.TrimSpace(r))
	if !ok || m == nil {
		return in.Src, nil
	}
	return jsonedit.Set(in.Src, "/engines/openwop", fmt.Sprintf("%s <%d.0.0", strings.TrimSpace(r), ceilingIn(in.Spec, lowestMajor(r)+1)))
}
