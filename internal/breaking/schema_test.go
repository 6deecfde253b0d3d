package breaking

import (
	"encoding/json"
	"testing"
	"time"
)

// TestCyclicRefsStayLinear: a schema whose properties all refer back to the
// root would branch exponentially without memoising compared pairs.
func TestCyclicRefsStayLinear(t *testing.T) {
	doc := `{"properties":{` + props(12) + `},"required":["p0"]}`
	var a, b any
	if err := json.Unmarshal([]byte(doc), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(doc), &b); err != nil {
		t.Fatal(err)
	}
	b.(map[string]any)["required"] = []any{"p0", "p1"}
	start := time.Now()
	got := narrowings(a, b)
	if len(got) != 1 || time.Since(start) > 2*time.Second {
		t.Errorf("got %d narrowings in %v; want 1, fast", len(got), time.Since(start))
	}
}

func props(n int) string {
	s := ""
	for i := range n {
		if i > 0 {
			s += ","
		}
		s += `"p` + string(rune('a'+i)) + `":{"$ref":"#"}`
	}
	return s
}
