package jsonpos

import (
	"slices"
	"testing"
)

// stringValuesOf walks Parse's tree for its string values, in order: what
// StringValues must yield.
func stringValuesOf(v *Value, out *[]string) {
	switch v.Kind {
	case String:
		*out = append(*out, v.Str)
	case Array:
		for _, it := range v.Items {
			stringValuesOf(it, out)
		}
	case Object:
		for _, m := range v.Members {
			stringValuesOf(m.Value, out)
		}
	}
}

func TestStringValues(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
		ok        bool
	}{
		{"names are skipped", `{"typeId": "acme.a", "n": 1, "list": ["x", {"k" : "y"}]}`, []string{"acme.a", "x", "y"}, true},
		{"escapes decoded", `["a\"b", "\u00e9\n", "\ud83d\ude00"]`, []string{`a"b`, "é\n", "😀"}, true},
		{"a name that looks like a value", `{"a":"b","c":"d"}`, []string{"b", "d"}, true},
		{"unterminated", `["a", "b`, []string{"a"}, false},
		{"no strings", `[1, true, null, {}]`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			ok := StringValues([]byte(tt.src), func(s string) { got = append(got, s) })
			if ok != tt.ok || !slices.Equal(got, tt.want) {
				t.Errorf("StringValues = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// FuzzStringValues: for every document Parse accepts, StringValues yields
// exactly the string values of its tree, in order; on anything it never
// panics.
func FuzzStringValues(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `["x",{"y":["z"]}]`, `"top"`, `{"k" :"v", "e":"\u0041"}`, `{"a":"b",}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var got []string
		StringValues(src, func(s string) { got = append(got, s) })
		doc, err := Parse(src)
		if err != nil {
			return
		}
		var want []string
		stringValuesOf(doc.Root, &want)
		if !slices.Equal(got, want) {
			t.Fatalf("StringValues(%q) = %q, tree has %q", src, got, want)
		}
	})
}
