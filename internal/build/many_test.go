package build

import (
	"slices"
	"testing"
)

// heaviestFirst orders jobs largest manifest first, keeping the given
// order among equals.
func TestHeaviestFirst(t *testing.T) {
	jobs := []*Job{{Name: "p0", Weight: 300}, {Name: "p1", Weight: 500}, {Name: "p2", Weight: 100}, {Name: "p3", Weight: 300}}
	var order []string
	for _, j := range heaviestFirst(jobs) {
		order = append(order, j.Name)
	}
	if want := []string{"p1", "p0", "p3", "p2"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}
