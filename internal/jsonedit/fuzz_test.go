package jsonedit

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// FuzzEdit applies one edit at a pointer picked from the document and
// checks that the result parses to exactly the expected value and that the
// bytes outside the edited container are untouched.
func FuzzEdit(f *testing.F) {
	for _, s := range []string{doc2, `{}`, `[]`, `{"a":[1,{"b":null}],"c":"d"}`, "[\n\t1,\n\t2\n]", `{"a/b":{"~":1}}`} {
		for op := range 4 {
			f.Add([]byte(s), uint8(op), uint(op), "new")
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, op uint8, pick uint, text string) {
		d, err := jsonpos.Parse(src)
		if err != nil || len(d.Duplicates) > 0 || !utf8.ValidString(text) {
			return // encoding/json writes U+FFFD for invalid UTF-8: a value other than asked
		}
		var sites []site
		collect(d.Root, nil, nil, &sites)
		s := sites[pick%uint(len(sites))]
		want := decode(t, src)
		var got []byte
		lo, hi := s.v.Start, s.v.End // the span allowed to change
		if s.parent != nil {
			lo, hi = s.parent.Start, s.parent.End
		}
		switch op % 4 {
		case 0:
			got, err = Set(src, Pointer(s.path...), text)
			want = apply(want, s.path, func(any) (any, bool) { return text, true })
		case 1:
			if s.parent == nil {
				return
			}
			got, err = Delete(src, Pointer(s.path...))
			want = apply(want, s.path, func(any) (any, bool) { return nil, false })
		case 2:
			if s.parent == nil || s.parent.Kind != jsonpos.Object || s.parent.Get(text) != nil {
				return
			}
			got, err = Rename(src, Pointer(s.path...), text)
			want = renamed(want, s.path, text)
		case 3:
			if s.v.Kind != jsonpos.Object && s.v.Kind != jsonpos.Array || s.v.Kind == jsonpos.Object && s.v.Get(text) != nil {
				return
			}
			lo, hi = s.v.Start, s.v.End
			tok := "-"
			if s.v.Kind == jsonpos.Object {
				tok = text
			}
			got, err = Insert(src, Pointer(append(slices.Clone(s.path), tok)...), text)
			want = inserted(want, s.path, tok, text)
		}
		if err != nil {
			t.Fatalf("edit %d at %q: %v", op%4, Pointer(s.path...), err)
		}
		if !reflect.DeepEqual(decode(t, got), want) {
			t.Fatalf("edit %d at %q: got %s", op%4, Pointer(s.path...), got)
		}
		if !bytes.HasPrefix(got, src[:lo]) || !bytes.HasSuffix(got, src[hi:]) {
			t.Fatalf("bytes outside [%d,%d) changed: %q -> %q", lo, hi, src, got)
		}
	})
}

type site struct {
	path      []string
	v, parent *jsonpos.Value
}

func collect(v *jsonpos.Value, parent *jsonpos.Value, path []string, out *[]site) {
	*out = append(*out, site{path: path, v: v, parent: parent})
	for _, m := range v.Members {
		collect(m.Value, v, append(slices.Clone(path), m.Name), out)
	}
	for i, it := range v.Items {
		collect(it, v, append(slices.Clone(path), strconv.Itoa(i)), out)
	}
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, b)
	}
	if _, err := jsonpos.Parse(b); err != nil {
		t.Fatalf("result is not strict JSON: %v\n%s", err, b)
	}
	return v
}

// apply replaces (keep) or removes the value at path in a decoded tree.
func apply(root any, path []string, fn func(any) (any, bool)) any {
	if len(path) == 0 {
		v, _ := fn(root)
		return v
	}
	switch c := root.(type) {
	case map[string]any:
		if len(path) > 1 {
			c[path[0]] = apply(c[path[0]], path[1:], fn)
		} else if v, keep := fn(c[path[0]]); keep {
			c[path[0]] = v
		} else {
			delete(c, path[0])
		}
	case []any:
		i, _ := strconv.Atoi(path[0])
		if len(path) > 1 {
			c[i] = apply(c[i], path[1:], fn)
		} else if v, keep := fn(c[i]); keep {
			c[i] = v
		} else {
			return slices.Delete(c, i, i+1)
		}
	}
	return root
}

func renamed(root any, path []string, name string) any {
	return apply(root, path[:len(path)-1], func(p any) (any, bool) {
		m := p.(map[string]any)
		v := m[path[len(path)-1]]
		delete(m, path[len(path)-1])
		m[name] = v
		return m, true
	})
}

func inserted(root any, path []string, tok string, val any) any {
	return apply(root, path, func(p any) (any, bool) {
		if m, ok := p.(map[string]any); ok {
			m[tok] = val
			return m, true
		}
		return append(p.([]any), val), true
	})
}

// FuzzSetAll: replacing one value and adding a member to an object in one
// SetAll gives the document Set gives doing them one after the other (or
// an error, when the two edits overlap).
func FuzzSetAll(f *testing.F) {
	for _, s := range []string{doc2, `{}`, `{"a":[1,{"b":null}],"c":"d"}`, "[\n\t1,\n\t{}\n]"} {
		f.Add([]byte(s), uint(1), uint(0), "new", "x")
	}
	f.Fuzz(func(t *testing.T, src []byte, replace, addTo uint, text, name string) {
		d, err := jsonpos.Parse(src)
		if err != nil || len(d.Duplicates) > 0 || !utf8.ValidString(text) || !utf8.ValidString(name) {
			return
		}
		var sites []site
		collect(d.Root, nil, nil, &sites)
		edits := map[string]any{Pointer(sites[replace%uint(len(sites))].path...): text}
		if o := sites[addTo%uint(len(sites))]; o.v.Kind == jsonpos.Object && o.v.Get(name) == nil {
			edits[Pointer(append(slices.Clone(o.path), name)...)] = text
		}
		got, err := SetAll(src, edits)
		if err != nil {
			return
		}
		want := src
		for _, ptr := range slices.Sorted(maps.Keys(edits)) {
			if want, err = Set(want, ptr, edits[ptr]); err != nil {
				t.Fatalf("SetAll made %v but Set refused %s: %v", edits, ptr, err)
			}
		}
		if g, w := decode(t, got), decode(t, want); !reflect.DeepEqual(g, w) {
			t.Fatalf("SetAll %v:\n%s\none by one:\n%s", edits, got, want)
		}
	})
}
