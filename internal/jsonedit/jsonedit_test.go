package jsonedit

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

const doc2 = `{
  "name": "a.b",
  "version": "1.0.0",
  "nodes": [
    {"typeId": "x", "n": 1.50},
    {"typeId": "y"}
  ],
  "empty": {},
  "list": []
}
`

func TestEdits(t *testing.T) {
	tests := []struct {
		name string
		src  string
		op   func([]byte) ([]byte, error)
		want string
	}{
		{"set keeps the rest", doc2, func(b []byte) ([]byte, error) { return Set(b, "/version", "2.0.0") },
			`{
  "name": "a.b",
  "version": "2.0.0",
  "nodes": [
    {"typeId": "x", "n": 1.50},
    {"typeId": "y"}
  ],
  "empty": {},
  "list": []
}
`},
		{"set nested object indents", `{
    "a": 1
}`, func(b []byte) ([]byte, error) { return Set(b, "/a", map[string]any{"b": []int{1}}) }, `{
    "a": {
        "b": [
            1
        ]
    }
}`},
		{"set adds a missing member at the end", `{"a": 1, "b": 2}`, func(b []byte) ([]byte, error) { return Set(b, "/c", "<&>") }, `{"a": 1, "b": 2, "c": "<&>"}`},
		{"set appends with -", `[1, 2]`, func(b []byte) ([]byte, error) { return Set(b, "/-", 3) }, `[1, 2, 3]`},
		{"insert before an index", "[\n  1,\n  2\n]", func(b []byte) ([]byte, error) { return Insert(b, "/1", 9) }, "[\n  1,\n  9,\n  2\n]"},
		{"insert at 0 of one", "[\n  1\n]", func(b []byte) ([]byte, error) { return Insert(b, "/0", 0) }, "[\n  0,\n  1\n]"},
		{"insert into empty object", doc2, func(b []byte) ([]byte, error) { return Insert(b, "/empty/k", "v") }, `{
  "name": "a.b",
  "version": "1.0.0",
  "nodes": [
    {"typeId": "x", "n": 1.50},
    {"typeId": "y"}
  ],
  "empty": {
    "k": "v"
  },
  "list": []
}
`},
		{"insert into empty compact array", `{"l":[]}`, func(b []byte) ([]byte, error) { return Insert(b, "/l/-", "v") }, `{"l":["v"]}`},
		{"insert member mid-line object", doc2, func(b []byte) ([]byte, error) { return Insert(b, "/nodes/1/role", "pure") }, `{
  "name": "a.b",
  "version": "1.0.0",
  "nodes": [
    {"typeId": "x", "n": 1.50},
    {"typeId": "y", "role": "pure"}
  ],
  "empty": {},
  "list": []
}
`},
		{"rename keeps place", doc2, func(b []byte) ([]byte, error) { return Rename(b, "/nodes/0/typeId", "type/Id") }, `{
  "name": "a.b",
  "version": "1.0.0",
  "nodes": [
    {"type/Id": "x", "n": 1.50},
    {"typeId": "y"}
  ],
  "empty": {},
  "list": []
}
`},
		{"delete middle member", `{"a": 1, "b": 2, "c": 3}`, func(b []byte) ([]byte, error) { return Delete(b, "/b") }, `{"a": 1, "c": 3}`},
		{"delete last member", "{\n  \"a\": 1,\n  \"b\": 2\n}", func(b []byte) ([]byte, error) { return Delete(b, "/b") }, "{\n  \"a\": 1\n}"},
		{"delete only element", `[ 1 ]`, func(b []byte) ([]byte, error) { return Delete(b, "/0") }, `[]`},
		{"escaped pointer", `{"a/b": {"~": 1}}`, func(b []byte) ([]byte, error) { return Set(b, "/a~1b/~0", 2) }, `{"a/b": {"~": 2}}`},
		{"raw value keeps member order", `{"a": 1}`, func(b []byte) ([]byte, error) { return Set(b, "/a", json.RawMessage(`{"z":1,"a":2}`)) }, `{"a": {"z":1,"a":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.op([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// SetAll is Set for many pointers at once: the same text as setting them
// one by one, everything else kept byte for byte.
func TestSetAll(t *testing.T) {
	for _, edits := range []map[string]any{
		{"/nodes/1/typeId": "y@1.0.0", "/nodes/0/typeId": "x<&>\u00e9", "/name": "c.d"},
		{"/nodes/0/version": "1.0.0", "/nodes/1/version": "2.0.0", "/empty/a": 1, "/nodes/0/n": 2},
	} {
		got, err := SetAll([]byte(doc2), edits)
		if err != nil {
			t.Fatal(err)
		}
		want := []byte(doc2)
		for _, ptr := range slices.Sorted(maps.Keys(edits)) {
			if want, err = Set(want, ptr, edits[ptr]); err != nil {
				t.Fatal(err)
			}
		}
		if string(got) != string(want) {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	}
	if same, err := SetAll([]byte(doc2), nil); err != nil || string(same) != doc2 {
		t.Errorf("no edits: %s, %v", same, err)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		op   func() ([]byte, error)
	}{
		{"missing parent", func() ([]byte, error) { return Set([]byte(`{}`), "/a/b", 1) }},
		{"bad pointer", func() ([]byte, error) { return Set([]byte(`{}`), "a", 1) }},
		{"bad escape", func() ([]byte, error) { return Set([]byte(`{}`), "/~2", 1) }},
		{"insert existing", func() ([]byte, error) { return Insert([]byte(`{"a":1}`), "/a", 1) }},
		{"index past end", func() ([]byte, error) { return Insert([]byte(`[1]`), "/5", 1) }},
		{"leading zero index", func() ([]byte, error) { return Set([]byte(`[1,2]`), "/01", 1) }},
		{"rename onto sibling", func() ([]byte, error) { return Rename([]byte(`{"a":1,"b":2}`), "/a", "b") }},
		{"delete missing", func() ([]byte, error) { return Delete([]byte(`{"a":1}`), "/b") }},
		{"duplicate keys", func() ([]byte, error) { return Set([]byte(`{"a":1,"a":2}`), "/a", 3) }},
		{"not json", func() ([]byte, error) { return Set([]byte(`{`), "/a", 3) }},
		{"scalar parent", func() ([]byte, error) { return Set([]byte(`{"a":1}`), "/a/b", 3) }},
		{"set all: two members added to one object", func() ([]byte, error) { return SetAll([]byte(`{}`), map[string]any{"/a": 1, "/b": 2}) }},
		{"set all: missing parent", func() ([]byte, error) { return SetAll([]byte(`{}`), map[string]any{"/a/b": 1}) }},
		{"set all: past an array's end", func() ([]byte, error) { return SetAll([]byte(`[1]`), map[string]any{"/1": 1}) }},
		{"set all: overlapping", func() ([]byte, error) { return SetAll([]byte(`{"a":{"b":1}}`), map[string]any{"/a": "x", "/a/b": "y"}) }},
		{"set all: duplicate keys", func() ([]byte, error) { return SetAll([]byte(`{"a":1,"a":2}`), map[string]any{"/a": "x"}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if out, err := tt.op(); err == nil {
				t.Fatalf("no error; got %s", out)
			}
		})
	}
	if _, err := Delete([]byte(`{"a":1}`), "/b"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete of a missing member: %v, want ErrNotFound", err)
	}
}

func TestEditFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pack.json")
	if err := os.WriteFile(p, []byte(`{"version": "1.0.0"}`), 0o640); err != nil {
		t.Fatal(err)
	}
	changed, err := EditFile(p, func(b []byte) ([]byte, error) { return Set(b, "/version", "1.0.1") })
	if err != nil || !changed {
		t.Fatalf("EditFile = %v, %v", changed, err)
	}
	got, _ := os.ReadFile(p)
	info, _ := os.Stat(p)
	if string(got) != `{"version": "1.0.1"}` || info.Mode().Perm() != 0o640 {
		t.Errorf("file = %s mode %v", got, info.Mode())
	}
	if _, err := EditFile(p, func(b []byte) ([]byte, error) { return Set(b, "/x/y", 1) }); err == nil {
		t.Fatal("a failed edit reported no error")
	}
	if again, _ := os.ReadFile(p); string(again) != string(got) {
		t.Error("a failed edit changed the file")
	}
}

func TestPointerRoundTrip(t *testing.T) {
	toks := []string{"a/b", "~c", "", "0"}
	got, err := Tokens(Pointer(toks...))
	if err != nil || len(got) != len(toks) {
		t.Fatalf("Tokens(Pointer) = %q, %v", got, err)
	}
	for i := range toks {
		if got[i] != toks[i] {
			t.Errorf("token %d = %q, want %q", i, got[i], toks[i])
		}
	}
}
