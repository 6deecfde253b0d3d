package jsonpos

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		kind ErrorKind
		off  int
	}{
		{"trailing comma", `{"a":1,}`, ErrSyntax, 6},
		{"trailing comma, bracket on the next line", "{\n  \"a\": [1,\n  2,\r\n\t],\n}", ErrSyntax, 16},
		{"comma then missing value", `[1,,2]`, ErrSyntax, 3},
		{"comment", "{\n// x\n}", ErrSyntax, 2},
		{"NaN", `{"a":NaN}`, ErrSyntax, 5},
		{"truncated", `{"a":[1,2`, ErrSyntax, 9},
		{"empty", ``, ErrSyntax, 0},
		{"two values", `{} {}`, ErrSyntax, 3},
		{"bom", "\xef\xbb\xbf{}", ErrEncoding, 0},
		{"invalid utf8", "{\"a\":\"\xff\"}", ErrEncoding, 6},
		{"nul", "{\"a\":\"\x00\"}", ErrEncoding, 6},
		{"lone high surrogate", `{"a":"x\ud800y"}`, ErrEncoding, 7},
		{"lone low surrogate", `{"a":"\udc00"}`, ErrEncoding, 6},
		{"deep", strings.Repeat("[", 1_000_000), ErrDepth, MaxDepth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) err = %v, want *Error", tt.src, err)
			}
			if pe.Kind != tt.kind || pe.Offset != tt.off {
				t.Errorf("got kind %d offset %d (%s), want kind %d offset %d", pe.Kind, pe.Offset, pe.Msg, tt.kind, tt.off)
			}
		})
	}
}

func TestParseKeepsPairsAndEscapes(t *testing.T) {
	if _, err := Parse([]byte(`{"a":"\ud83d\ude00 \\ud800"}`)); err != nil {
		t.Fatalf("valid pair and escaped backslash refused: %v", err)
	}
}

func TestSafeIntegers(t *testing.T) {
	for _, src := range []string{`9007199254740992`, `-9007199254740992`, `123456789012345678901234`, `1e18`, `-1.5e20`} {
		if _, err := ParseWith([]byte(src), Options{SafeIntegers: true}); err == nil {
			t.Errorf("%s accepted", src)
		}
	}
	if _, err := ParseWith([]byte(`[9007199254740991, 1e300, 1.5]`), Options{SafeIntegers: true}); err != nil {
		t.Errorf("safe numbers refused: %v", err)
	}
}

// TestHugeNumberMessage: a number of 500,000 digits is named by its start
// and length, not echoed whole.
func TestHugeNumberMessage(t *testing.T) {
	huge := strings.Repeat("9", 500000)
	_, err := ParseWith([]byte(`{"n": `+huge+`}`), Options{SafeIntegers: true})
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "999... (500000 characters)") {
		t.Errorf("error of %d bytes: %.200v", len(fmt.Sprint(err)), err)
	}
	if got := NumberForMessage("12345"); got != "12345" {
		t.Errorf("a short literal became %q", got)
	}
}

func TestDuplicatesAndPositions(t *testing.T) {
	src := "{\n  \"name\": \"a\",\n  \"agents\": [\n    {\"id\": 1, \"id\": 2}\n  ],\n  \"é\": \"ü\", \"x/y\": true\n}"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Duplicate{{Pointer: "/agents/0", Name: "id", At: strings.Index(src, `"id": 2`)}}
	if !reflect.DeepEqual(d.Duplicates, want) {
		t.Errorf("duplicates = %+v, want %+v", d.Duplicates, want)
	}
	if got := d.Lookup("/agents/0/id").Num; got != "1" {
		t.Errorf("first duplicate not kept: %s", got)
	}
	cases := map[string]Position{
		"":                 {1, 1},
		"/name":            {2, 11},
		"/agents/0":        {4, 5},
		"/agents/0/id":     {4, 12},
		"/agents/0/absent": {4, 5},
		"/x~1y":            {6, 20},
		"/agents/7":        {3, 13},
	}
	for ptr, pos := range cases {
		if got := d.Locate(ptr); got != pos {
			t.Errorf("Locate(%q) = %v, want %v", ptr, got, pos)
		}
	}
	if got := d.LocateName("/name"); got != (Position{2, 3}) {
		t.Errorf("LocateName(/name) = %v", got)
	}
}

func TestInterfaceMatchesEncodingJSON(t *testing.T) {
	src := []byte(`{"a":[1,2.5,"x",null,true,{"b":{}}],"c":-0}`)
	d, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var want any
	dec := json.NewDecoder(strings.NewReader(string(src)))
	dec.UseNumber()
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Root.Interface(), want) {
		t.Errorf("Interface() = %#v, want %#v", d.Root.Interface(), want)
	}
}

// TestTrailingCommaNamed: the mistake is named and placed at the comma, not
// at the bracket on the next line.
func TestTrailingCommaNamed(t *testing.T) {
	src := "{\n  \"a\": 1,\n}\n"
	_, err := Parse([]byte(src))
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v", err)
	}
	if got := PositionOf([]byte(src), pe.Offset); got != (Position{Line: 2, Column: 9}) {
		t.Errorf("position %+v, want 2:9", got)
	}
	if want := `trailing comma before the closing '}'; delete the comma`; pe.Msg != want {
		t.Errorf("message %q, want %q", pe.Msg, want)
	}
}

// TestMissingCommaNamed: a missing comma is named, in the trailing comma's
// style, and placed where the comma belongs (just after the previous value,
// often a line above the one encoding/json names); input that a comma would
// not fix says what belongs where the unexpected character is.
func TestMissingCommaNamed(t *testing.T) {
	tests := []struct {
		name, src string
		at        Position
		msg       string
	}{
		{"member on the next line", "{\n  \"name\": \"community.a.b\"\n  \"version\": \"1.0.0\"\n}", Position{Line: 2, Column: 26}, `missing "," after this value, before the next member; add the comma`},
		{"member after an object", "{\"a\": {}  \"b\": 1}", Position{Line: 1, Column: 9}, `missing "," after this value, before the next member; add the comma`},
		{"array item", "[1\n 2]", Position{Line: 1, Column: 3}, `missing "," after this value, before the next item; add the comma`},
		{"array of objects", "[{}\r\n\t{}]", Position{Line: 1, Column: 4}, `missing "," after this value, before the next item; add the comma`},
		{"not a member", `{"a": 1 x}`, Position{Line: 1, Column: 9}, `unexpected 'x' where "," before the next member or "}" to close the object belongs`},
		{"not an item", `[1 }`, Position{Line: 1, Column: 4}, `unexpected '}' where "," before the next item or "]" to close the array belongs`},
		{"no colon", `{"a" 1}`, Position{Line: 1, Column: 6}, `unexpected '1' where ":" between the member's name and its value belongs`},
		{"name not a string", `{1: 2}`, Position{Line: 1, Column: 2}, `unexpected '1' where a member's name (a string in double quotes) belongs`},
		{"bare word", `{"a": green}`, Position{Line: 1, Column: 7}, `unexpected 'g' where a value belongs; a string needs double quotes`},
		{"control byte", "[\x01]", Position{Line: 1, Column: 2}, `unexpected byte 0x01 where a value belongs`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v", err)
			}
			if got := PositionOf([]byte(tt.src), pe.Offset); got != tt.at || pe.Msg != tt.msg {
				t.Errorf("%d:%d %q, want %d:%d %q", got.Line, got.Column, pe.Msg, tt.at.Line, tt.at.Column, tt.msg)
			}
		})
	}
}
