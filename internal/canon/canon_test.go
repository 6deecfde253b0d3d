package canon

import (
	"errors"
	"slices"
	"testing"
	"unicode/utf16"

	"github.com/wop-cli/wop/internal/jsonpos"
)

func canonical(t *testing.T, src string) string {
	t.Helper()
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse(%s): %v", src, err)
	}
	out, err := Marshal(doc.Root)
	if err != nil {
		t.Fatalf("Marshal(%s): %v", src, err)
	}
	return string(out)
}

func TestMarshal(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":1,"a":[true,false,null]}`, `{"a":[true,false,null],"b":1}`},
		{`{ "x" : "<a href='y'>&amp;</a>" }`, `{"x":"<a href='y'>&amp;</a>"}`},
		{`"\u2028\u2029é😀"`, "\"\u2028\u2029é😀\""},
		{`"\u0000\u001f\b\f\n\r\t\"\\\/"`, `"\u0000\u001f\b\f\n\r\t\"\\/"`},
		{`"\u007f"`, "\"\x7f\""},
		// UTF-16 order: U+1F600 (D83D DE00) sorts before U+FF61 (FF61).
		{`{"｡":1,"😀":2,"z":3,"Z":4}`, `{"Z":4,"z":3,"😀":2,"｡":1}`},
		{`[-0, 0.0, 1.0, 1e21, 123e-9, 1.5e-7, 0.000001, 1e-7, 2.50, -1E+2, 5e-324, 1.7976931348623157e308]`,
			`[0,0,1,1e+21,1.23e-7,1.5e-7,0.000001,1e-7,2.5,-100,5e-324,1.7976931348623157e+308]`},
		{`[9007199254740991, 0.1, 100, 1234.5678]`, `[9007199254740991,0.1,100,1234.5678]`},
	}
	for _, tt := range tests {
		if got := canonical(t, tt.in); got != tt.want {
			t.Errorf("canonical(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// Number::toString cases Parse itself refuses as unsafe integers.
func TestNumberFormatsLikeJavaScript(t *testing.T) {
	for lit, want := range map[string]string{"1e20": "100000000000000000000", "9007199254740993": "9007199254740992", "-0.0": "0", "1e-6": "0.000001", "1.5e300": "1.5e+300"} {
		if got, err := Number(lit); err != nil || got != want {
			t.Errorf("Number(%s) = %s, %v; want %s", lit, got, err, want)
		}
	}
}

func TestRefusals(t *testing.T) {
	for _, src := range []string{`{"a":1,"a":2}`, `"\ud800"`, `9007199254740992`, `1e400`, `1e18`} {
		doc, err := Parse([]byte(src))
		if err == nil {
			_, err = Marshal(doc.Root)
		}
		if err == nil {
			t.Errorf("%s accepted", src)
		}
	}
	_, err := Parse([]byte(`{"a":{"b":1,"b":2}}`))
	if !errors.Is(err, ErrDuplicateKey) {
		t.Errorf("nested duplicate: %v", err)
	}
}

// TestIdempotent is the property test: canonicalising canonical output is a
// no-op, and the output parses back to the same value.
func TestIdempotent(t *testing.T) {
	for _, src := range []string{`{"z":{"y":[1,2.50,{"b":"\u00e9","a":null}]},"a":-0.0}`, `[]`, `{}`, `"x"`, `[1e-7,1e21]`} {
		once := canonical(t, src)
		if twice := canonical(t, once); twice != once {
			t.Errorf("not idempotent: %s -> %s", once, twice)
		}
		a, _ := jsonpos.Parse([]byte(src))
		b, _ := jsonpos.Parse([]byte(once))
		if !sameValue(a.Root, b.Root) {
			t.Errorf("value changed: %s -> %s", src, once)
		}
	}
}

func TestIndentMatchesJSONStringify(t *testing.T) {
	doc, err := Parse([]byte(`{"name":"a","list":[],"obj":{},"nested":{"x":[1,{"y":"<é>"}]},"n":1.50}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Indent(doc.Root)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"name\": \"a\",\n  \"list\": [],\n  \"obj\": {},\n  \"nested\": {\n    \"x\": [\n      1,\n      {\n        \"y\": \"<é>\"\n      }\n    ]\n  },\n  \"n\": 1.5\n}\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// FuzzCompareUTF16 holds CompareUTF16's byte-order shortcut to the order
// of UTF-16 code units, whatever the strings.
func FuzzCompareUTF16(f *testing.F) {
	for _, pair := range [][2]string{{"a", "b"}, {"\uffff", "\U00010000"}, {"\ue000", "\U0001f600"}, {"z", "\ud7ff"}, {"\xff", "a"}, {"", "é"}} {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		want := slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := CompareUTF16(a, b); got != want {
			t.Fatalf("CompareUTF16(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}
