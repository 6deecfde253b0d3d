package jsonpos

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that an accepted document means what encoding/json says it
// means, and that every offset survives the trip to line:col and back.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,"\u00e9",{"b":null}]}`, "{\n\"a\"\n:\n1}", `[1e5,-0.5,true]`, `{"a":1,"a":2}`, `"\ud83d\ude00"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse(src)
		if err == nil && len(d.Duplicates) == 0 {
			var want any
			dec := json.NewDecoder(bytes.NewReader(src))
			dec.UseNumber()
			if jerr := dec.Decode(&want); jerr != nil {
				t.Fatalf("accepted what encoding/json refuses: %v", jerr)
			}
			if !reflect.DeepEqual(d.Root.Interface(), want) {
				t.Fatalf("value differs from encoding/json")
			}
		}
		if len(src) > 4096 {
			return // the round trip below is quadratic; long inputs add nothing
		}
		lines := lineStarts(src)
		for off := 0; off <= len(src); off++ {
			if off < len(src) && !utf8.RuneStart(src[off]) {
				continue
			}
			if got := Offset(src, lines, LineCol(src, lines, off)); got != off && utf8.Valid(src) {
				t.Fatalf("offset %d -> %v -> %d", off, LineCol(src, lines, off), got)
			}
		}
	})
}
