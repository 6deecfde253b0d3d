package breaking

import (
	"bytes"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
)

const manifestFile = pack.ManifestName

// place is a pointer into a file of a pack ("" file: the old manifest).
type place struct{ file, ptr string }

// compareSchemaRef compares the schemas two entities name at path (slash
// separated members, e.g. "handoff/taskSchemaRef"). It reports true when
// the contract changed at all (ignoring $id, title, description, examples).
func (c *comparison) compareSchemaRef(o, n entity, path, rule string, role schemaRole, what string) bool {
	oref, nref := member(o.v, path).String(), member(n.v, path).String()
	if oref != "" && nref == "" && role == outputSchema {
		c.add(rule, n.ptr, o.ptr+"/"+path, "%s no longer declares %s: consumers lose every guarantee it gave", what, path)
		return true
	}
	if oref == "" || nref == "" {
		return false // no schema on a side: nothing to compare (lint reports a missing ref)
	}
	oldDoc, ok := schemaDoc(c.old.pk, oref)
	if !ok {
		return false
	}
	newParsed, ok := parseFile(c.new.pk, nref)
	if !ok {
		return false
	}
	c.docs[nref] = newParsed
	label := what + "'s " + strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], "Ref")
	return c.compareSchemas(oldDoc, newParsed.Root.Interface(), place{file: oref}, place{file: nref}, rule, role, label)
}

// compareSchemas reports narrowings between two schema documents in the
// direction role forbids, and whether the contract changed at all.
func (c *comparison) compareSchemas(oldDoc, newDoc any, oldAt, newAt place, rule string, role schemaRole, what string) bool {
	var found []narrowing
	if role == inputSchema {
		found = narrowings(oldDoc, newDoc)
	} else {
		found = narrowings(newDoc, oldDoc)
	}
	for _, f := range found {
		newPtr, oldPtr, msg := f.NarrowPointer, f.WidePointer, what+" now "+f.What+was(f.Wide, "was")+": inputs that were valid are refused"
		if role == outputSchema {
			newPtr, oldPtr, msg = f.WidePointer, f.NarrowPointer, what+" no longer "+f.What+was(f.Wide, "now")+": consumers may get values they did not expect"
		}
		c.addIn(newAt.file, rule, newAt.ptr+newPtr, oldAt.ptr+oldPtr, msg)
	}
	return len(found) > 0 || !reflect.DeepEqual(stripDocs(oldDoc), stripDocs(newDoc))
}

func was(wide, word string) string {
	if wide == "" {
		return ""
	}
	return " (" + word + " " + wide + ")"
}

// ignoredKeywords never make a contract change.
var ignoredKeywords = []string{"$id", "$comment", "title", "description", "examples"}

// stripDocs returns a copy of a decoded schema without ignoredKeywords.
func stripDocs(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if !slices.Contains(ignoredKeywords, k) {
				out[k] = stripDocs(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = stripDocs(x)
		}
		return out
	}
	return v
}

// member walks slash-separated member names.
func member(v *jsonpos.Value, path string) *jsonpos.Value {
	for name := range strings.SplitSeq(path, "/") {
		v = v.Get(name)
	}
	return v
}

func parseFile(pk *pack.Pack, name string) (*jsonpos.Doc, bool) {
	src, err := pk.ReadFile(name)
	if err != nil {
		return nil, false
	}
	doc, err := jsonpos.Parse(src)
	return doc, err == nil
}

func schemaDoc(pk *pack.Pack, name string) (any, bool) {
	doc, ok := parseFile(pk, name)
	if !ok {
		return nil, false
	}
	return doc.Root.Interface(), true
}

// sameFile reports whether two refs name files with the same bytes.
func (c *comparison) sameFile(oref, nref *jsonpos.Value) bool {
	if oref == nil || nref == nil {
		return oref == nref
	}
	o, err1 := c.old.pk.ReadFile(oref.String())
	n, err2 := c.new.pk.ReadFile(nref.String())
	return err1 == nil && err2 == nil && bytes.Equal(o, n)
}

func iface(v *jsonpos.Value) any {
	if v == nil {
		return nil
	}
	return v.Interface()
}

func equalValues(a, b any) bool { return reflect.DeepEqual(a, b) }

func itoa(i int) string { return strconv.Itoa(i) }
