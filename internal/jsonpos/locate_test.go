package jsonpos

import (
	"strings"
	"testing"
)

// TestLocate holds where the cursor (written |) is found in documents an
// author is half way through typing.
func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		doc     string
		pointer string // Cursor.Pointer joined with /
		onName  bool
		value   bool
		token   string // Token.Str; "-" for no token
	}{
		{`{"kind": "|`, "/kind", false, true, ""},
		{`{"kind": "no|de"}`, "/kind", false, true, "node"},
		{`{"ki|nd": "node"}`, "/kind", true, false, "kind"},
		{`{"name": |`, "/name", false, true, "-"},
		{`{"name": "x", |}`, "/", true, false, "-"},
		{`{|}`, "/", true, false, "-"},
		{`{"agents": [{"modelClass": "|"}]}`, "/agents/0/modelClass", false, true, ""},
		{`{"agents": [{}, {|`, "/agents/1/", true, false, "-"},
		{`{"a": [1, |]}`, "/a/1", false, true, "-"},
		{`{"a": [1, 2|]}`, "/a/1", false, true, "2"},
		{`{"a": {"b": tr|}}`, "/a/b", false, true, "tr"},
		{`{"a": {"b": tr|ue}}`, "/a/b", false, true, "true"},
		{"{\"a\": \"x|\n\"b\": 1}", "/a", false, true, "x"},
		{`{"nodes": [{"typeId": "co|re.x", "role": "pure"}`, "/nodes/0/typeId", false, true, "core.x"},
		{`{mo|`, "/mo", true, false, "mo"},
		{`|{}`, "", false, true, "-"},
		{`"ab|c"`, "", false, true, "abc"},
	} {
		off := strings.Index(tc.doc, "|")
		src := []byte(strings.Replace(tc.doc, "|", "", 1))
		c := Locate(src, ParseLoose(src), off)
		ptr := ""
		if p := c.Pointer(); len(p) > 0 {
			ptr = "/" + strings.Join(p, "/")
		}
		tok := "-"
		if c.Token != nil {
			tok = c.Token.Str
		}
		if ptr != tc.pointer || c.OnName != tc.onName || c.Value != tc.value || tok != tc.token {
			t.Errorf("%s: pointer %q onName %v value %v token %q; want %q %v %v %q", tc.doc, ptr, c.OnName, c.Value, tok, tc.pointer, tc.onName, tc.value, tc.token)
		}
	}
}
