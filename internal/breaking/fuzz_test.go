package breaking

import (
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// FuzzNarrowings compares arbitrary schema documents, as published packs
// ship them: it must not panic or loop (cyclic $refs), and a schema never
// narrows against itself.
func FuzzNarrowings(f *testing.F) {
	for _, s := range [][2]string{
		{`{"type":"object","properties":{"a":{"enum":[1,2]}},"required":["a"]}`, `{"type":"object","properties":{"a":{"enum":[1]}},"required":["a","b"],"additionalProperties":false}`},
		{`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}}`, `{"$ref":"#"}`},
		{`{"items":{"type":["string","null"],"maxLength":3}}`, `{"items":false}`},
		{`true`, `{"minimum":1,"pattern":"^a"}`},
		{`{"properties":{"a":{"$ref":"#"},"b":{"$ref":"#"},"c":{"items":{"$ref":"#"}}}}`, `{"properties":{"a":{"$ref":"#"},"b":{"$ref":"#"},"c":{"items":{"$ref":"#"}}},"required":["a"]}`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		da, err1 := jsonpos.Parse(a)
		db, err2 := jsonpos.Parse(b)
		if err1 != nil || err2 != nil {
			return
		}
		x, y := da.Root.Interface(), db.Root.Interface()
		_ = narrowings(x, y)
		if got := narrowings(x, x); len(got) > 0 {
			t.Fatalf("a schema narrows against itself: %+v", got)
		}
	})
}
