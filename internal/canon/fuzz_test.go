package canon

import (
	"strconv"
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// FuzzCanonical: whatever parses canonicalises; canonical output is a fixed
// point and denotes the same value.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null]}`, `"\u2028<>&"`, `[1e21,1e-7,-0,0.1]`, `{"😀":1,"｡":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			return
		}
		once, err := Marshal(doc.Root)
		if err != nil {
			return // a non-finite number: refused, not mangled
		}
		back, err := Parse(once)
		if err != nil {
			t.Fatalf("canonical output does not parse: %s: %v", once, err)
		}
		twice, err := Marshal(back.Root)
		if err != nil || string(twice) != string(once) {
			t.Fatalf("not a fixed point:\n%s\n%s", once, twice)
		}
		if !sameValue(doc.Root, back.Root) {
			t.Fatalf("value changed: %s -> %s", src, once)
		}
	})
}

// sameValue compares two parsed values; numbers by their float64 value.
func sameValue(a, b *jsonpos.Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case jsonpos.Bool:
		return a.Bool == b.Bool
	case jsonpos.Number:
		x, _ := strconv.ParseFloat(a.Num, 64)
		y, _ := strconv.ParseFloat(b.Num, 64)
		return x == y
	case jsonpos.String:
		return a.Str == b.Str
	case jsonpos.Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !sameValue(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case jsonpos.Object:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			o := b.Get(m.Name)
			if o == nil || !sameValue(m.Value, o) {
				return false
			}
		}
		return true
	}
	return true
}
