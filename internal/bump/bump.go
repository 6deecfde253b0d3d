// Package bump plans the edits that move a pack source to a new version:
// pack.json's version, every schema $id and absolute $ref into the pack that
// embeds a version, and the own versions of nodes and chains whose contract
// changed. Plan returns new file contents and writes nothing (Run, the
// command's entry point, writes them); edits go through jsonedit, so
// formatting and untouched bytes are kept.
package bump

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/jsonedit"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
)

// Options say where schema ids live and which entity versions to raise.
type Options struct {
	// SchemaBase prefixes pack schema $ids: <SchemaBase>/<name>/<version>/<file>.
	SchemaBase string
	// Stale are node and chain versions to raise (from breaking.Result).
	Stale []breaking.StaleVersion
}

// FileEdit is one file's new contents and what changed in it.
type FileEdit struct {
	Name     string   // slash path in the pack
	Old, New []byte   // contents before and after
	Notes    []string // one line per edit, for the user
}

// Plan computes the edits that set pk's version to version.
func Plan(pk *pack.Pack, version string, opt Options) ([]FileEdit, error) {
	if _, err := semver.StrictNewVersion(version); err != nil {
		return nil, fmt.Errorf("version %q is not SemVer 2.0.0 (want X.Y.Z)", version)
	}
	src, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return nil, err
	}
	doc, err := jsonpos.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pack.ManifestName, err)
	}
	name := doc.Root.Get("name").String()
	man := &FileEdit{Name: pack.ManifestName, Old: src, New: src}
	if old := doc.Root.Get("version").String(); old != version {
		if err := man.set("/version", version, fmt.Sprintf("version %s -> %s", old, version)); err != nil {
			return nil, err
		}
	}
	for _, s := range opt.Stale {
		next, err := breaking.Next(s.Version, s.Needed)
		if err != nil {
			continue // not SemVer: lint's semver-invalid says so
		}
		if err := man.set(s.Pointer, next, fmt.Sprintf("%s %s -> %s (its contract changed)", s.Pointer, s.Version, next)); err != nil {
			return nil, err
		}
	}
	edits := []FileEdit{}
	if len(man.Notes) > 0 {
		edits = append(edits, *man)
	}
	for _, file := range SchemaFiles(pk, doc.Root) {
		e, err := schemaEdit(pk, file, name, version, opt.SchemaBase)
		if err != nil {
			return nil, err
		}
		if len(e.Notes) > 0 {
			edits = append(edits, e)
		}
	}
	return edits, nil
}

func (e *FileEdit) set(ptr string, v any, note string) error {
	out, err := jsonedit.Set(e.New, ptr, v)
	if err != nil {
		return fmt.Errorf("%s %s: %w", e.Name, ptr, err)
	}
	e.New = out
	e.Notes = append(e.Notes, note)
	return nil
}

// SchemaFiles lists the pack's schema documents: schemas/*.json and every
// file a schema ref names, in pack order.
func SchemaFiles(pk *pack.Pack, manifest *jsonpos.Value) []string {
	refs := map[string]bool{}
	for _, r := range pack.Refs(manifest) {
		if r.Kind == pack.RefSchema {
			refs[r.Path()] = true
		}
	}
	var out []string
	for _, f := range pk.Files {
		if strings.HasSuffix(f.Name, ".json") && (strings.HasPrefix(f.Name, "schemas/") || refs[f.Name]) && f.Name != pack.ManifestName {
			out = append(out, f.Name)
		}
	}
	return out
}

// SchemaID is the $id a pack schema file must have (lint's
// schema-id-mismatch): <base>/<name>/<version>/<file without schemas/>.
func SchemaID(base, name, version, file string) string {
	return fmt.Sprintf("%s/%s/%s/%s", base, name, version, strings.TrimPrefix(file, "schemas/"))
}

// schemaEdit moves one schema's top-level $id and its absolute $refs into
// the pack to version. An $id outside <base>/<name>/ is someone else's and
// is left alone; a file that is not JSON is left to lint.
func schemaEdit(pk *pack.Pack, file, name, version, base string) (FileEdit, error) {
	src, err := pk.ReadFile(file)
	e := FileEdit{Name: file, Old: src, New: src}
	if err != nil {
		return e, nil
	}
	doc, err := jsonpos.Parse(src)
	if err != nil || len(doc.Duplicates) > 0 || doc.Root.Kind != jsonpos.Object {
		return e, nil
	}
	prefix := base + "/" + name + "/"
	if id := doc.Root.Get("$id"); id != nil && id.Kind == jsonpos.String && strings.HasPrefix(id.Str, prefix) {
		if want := SchemaID(base, name, version, file); id.Str != want {
			if err := e.set("/$id", want, fmt.Sprintf("$id -> %s", want)); err != nil {
				return e, err
			}
		}
	}
	versioned := regexp.MustCompile("^" + regexp.QuoteMeta(prefix) + `[^/]+/`)
	for _, ref := range refs(doc.Root, "") {
		if loc := versioned.FindStringIndex(ref.value); loc != nil {
			want := prefix + version + "/" + ref.value[loc[1]:]
			if want != ref.value {
				if err := e.set(ref.ptr, want, fmt.Sprintf("%s -> %s", ref.ptr, want)); err != nil {
					return e, err
				}
			}
		}
	}
	return e, nil
}

type refAt struct{ ptr, value string }

// refs lists every string "$ref" member below v.
func refs(v *jsonpos.Value, ptr string) []refAt {
	var out []refAt
	for _, m := range v.Members {
		p := ptr + "/" + jsonpos.EscapeToken(m.Name)
		if m.Name == "$ref" && m.Value.Kind == jsonpos.String {
			out = append(out, refAt{p, m.Value.Str})
		}
		out = append(out, refs(m.Value, p)...)
	}
	for i, it := range v.Items {
		out = append(out, refs(it, fmt.Sprintf("%s/%d", ptr, i))...)
	}
	return out
}
