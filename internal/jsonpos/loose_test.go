package jsonpos

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// looseInterface converts a loose value the way Value.Interface does, for
// comparing with encoding/json.
func looseInterface(v *Loose) any {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case Bool:
		return v.Str == "true"
	case Number:
		return json.Number(v.Str)
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = looseInterface(it)
		}
		return out
	case Object:
		out := map[string]any{}
		for _, m := range v.Members {
			if _, dup := out[m.Name.Str]; !dup {
				out[m.Name.Str] = looseInterface(m.Value)
			}
		}
		return out
	}
	return nil
}

// TestParseLooseForgives holds what ParseLoose makes of broken documents.
func TestParseLooseForgives(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{"kind": "`, `{"kind":""}`},
		{`{"name": `, `{"name":null}`},
		{`{"a": [1, {"b": tr`, `{"a":[1,{"b":"tr"}]}`},
		{"{\"a\": \"x\n\"b\": 1}", `{"a":"x","b":1}`},
		{`{"a" 1, "b": 2}`, `{"a":null,"b":2}`},
		{`[1,,2]}`, `[1,2]`},
		{`{"a": {"b": 1]}`, `{"a":{"b":1}}`},
		{`["a\/b", "\ud83d\ude00", "x\u00e9", "half \u00`, `["a/b","😀","xé","half \\u00"]`},
	} {
		v := ParseLoose([]byte(tc.src))
		got, _ := json.Marshal(looseInterface(v))
		if string(got) != tc.want {
			t.Errorf("%s: %s, want %s", tc.src, got, tc.want)
		}
	}
	if ParseLoose([]byte("  ")) != nil {
		t.Error("blank document gave a value")
	}
}

// FuzzParseLoose holds that ParseLoose reads any bytes without a panic,
// every node's span inside the document and its children's inside it,
// that it reads valid JSON as encoding/json does, and that Locate at any
// offset names tokens inside the document.
func FuzzParseLoose(f *testing.F) {
	for _, s := range []string{`{"kind": "`, `{"a":[1,"\u00e9",{"b":null}]}`, `{"a" 1, "b": 2}`, `[1,,2]}`, "\"\\", strings.Repeat("[", 300), `{"a": {"b": 1]}`, `["a\/b", "\ud83d\ude00"]`} {
		f.Add([]byte(s), uint16(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, src []byte, at uint16) {
		root := ParseLoose(src)
		checkSpans(t, root, 0, len(src), 0)
		if json.Valid(src) && CheckEncoding(src) == nil {
			var want any
			dec := json.NewDecoder(bytes.NewReader(src))
			dec.UseNumber()
			if dec.Decode(&want) == nil && !hasDuplicates(src) && !reflect.DeepEqual(looseInterface(root), want) {
				t.Fatalf("valid JSON read differently")
			}
		}
		off := int(at) % (len(src) + 1)
		c := Locate(src, root, off)
		if c.Token != nil && (c.Token.Start < 0 || c.Token.End > len(src) || c.Token.Start > c.Token.End) {
			t.Fatalf("token %d..%d outside %d bytes", c.Token.Start, c.Token.End, len(src))
		}
	})
}

func hasDuplicates(src []byte) bool {
	d, err := Parse(src)
	return err != nil || len(d.Duplicates) > 0
}

func checkSpans(t *testing.T, v *Loose, lo, hi, depth int) {
	if v == nil {
		return
	}
	if v.Start < lo || v.End > hi || v.Start > v.End {
		t.Fatalf("node %d..%d outside %d..%d", v.Start, v.End, lo, hi)
	}
	if depth > MaxDepth+1 {
		t.Fatalf("nested %d deep", depth)
	}
	for _, m := range v.Members {
		checkSpans(t, m.Name, v.Start, v.End, depth+1)
		checkSpans(t, m.Value, v.Start, v.End, depth+1)
	}
	for _, it := range v.Items {
		checkSpans(t, it, v.Start, v.End, depth+1)
	}
}
