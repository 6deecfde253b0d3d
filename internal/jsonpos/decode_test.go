package jsonpos

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecodeErrorNamesNoGoType(t *testing.T) {
	type entry struct {
		Version string `json:"version"`
	}
	type doc struct {
		Versions []entry `json:"versions"`
		Count    int     `json:"count"`
	}
	tests := []struct {
		name, src, want string
	}{
		{"array wanted", "{\n  \"versions\": \"1.0.0\"}", `line 2:22: "versions" is a string, want an array`},
		{"string wanted", `{"versions": [{"version": 1}]}`, `line 1:28: "versions.version" is a number, want a string`},
		{"integer wanted", `{"count": true}`, `line 1:15: "count" is true or false, want an integer`},
		{"root", `[]`, `line 1:2: the document is an array, want an object`},
		{"syntax", "{\n  \"count\": }", "line 2:12: unexpected '}' where a value belongs"},
		{"trailing comma", "{\n  \"count\": 1,\n}", "line 2:13: trailing comma before the closing '}'; delete the comma"},
		{"missing comma", "{\n  \"count\": 1\n  \"versions\": []}", `line 2:13: missing "," after this value, before the next member; add the comma`},
		{"double comma", "{\n  \"count\": 1,,\n  \"versions\": []}", `line 2:14: a second comma where a member belongs; delete one of the two`},
		{"double comma in an array", `{"versions": [{}, , {}]}`, `line 1:19: a second comma where a value belongs; delete one of the two`},
		{"two commas before the end", `{"versions": [{},,]}`, `line 1:18: two commas before the closing ']', where no value follows; delete both`},
		{"leading comma", `{"versions": [ ,{}]}`, `line 1:16: a comma right after the opening '[', before any value; delete it`},
		{"comma opening an object", `{, "count": 1}`, `line 1:2: a comma right after the opening '{', before any value; delete it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d doc
			err := DecodeError([]byte(tt.src), json.Unmarshal([]byte(tt.src), &d))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("DecodeError = %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "jsonpos.") {
				t.Errorf("%q names a Go type", err)
			}
		})
	}
	other := errors.New("read failed")
	if got := DecodeError(nil, other); got != other {
		t.Errorf("other errors pass through: got %v", got)
	}
}

// FuzzDecodeError: whatever the bytes, restating the decode error never
// panics and never names a Go type.
func FuzzDecodeError(f *testing.F) {
	f.Add([]byte(`{"versions": "x", "count": 1.5}`))
	f.Add([]byte("{\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var d struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
			Count int            `json:"count"`
			Meta  map[string]int `json:"meta"`
		}
		if err := DecodeError(src, json.Unmarshal(src, &d)); err != nil && strings.Contains(err.Error(), "Go struct") {
			t.Fatalf("%q names a Go type", err)
		}
	})
}
