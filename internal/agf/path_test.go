package agf

import (
	"reflect"
	"testing"
)

func TestParsePath(t *testing.T) {
	good := map[string]Path{
		"parent.input.query":          {Root: "parent", Side: "input", Segments: []string{"query"}},
		"checker.output.score":        {Root: "checker", Side: "output", Segments: []string{"score"}},
		"parent.input.items.[].value": {Root: "parent", Side: "input", Segments: []string{"items", "[]", "value"}},
		"_a1.output.[]":               {Root: "_a1", Side: "output", Segments: []string{"[]"}},
	}
	for s, want := range good {
		got, err := ParsePath(s)
		if err != nil || !reflect.DeepEqual(got, want) || got.String() != s {
			t.Errorf("ParsePath(%q) = %+v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "parent", "parent.input", "parent.state.x", "parent.input..x", "1a.input.x", "parent.input.x-y", "[].input.x", "parent.[].x", "parent.input.x[]"} {
		if _, err := ParsePath(s); err == nil {
			t.Errorf("ParsePath(%q) accepted", s)
		}
	}
}
