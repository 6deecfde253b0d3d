package suggest

import (
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	cands := []string{"required", "properties", "additionalProperties", "toolAllowlist"}
	tests := []struct {
		word, want string
		ok         bool
	}{
		{"requried", "required", true},
		{"additionalProperites", "additionalProperties", true},
		{"toolAllowList", "toolAllowlist", true},
		{"zzzzzz", "", false},
	}
	for _, tt := range tests {
		got, ok := Nearest(tt.word, cands, 2)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Nearest(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.ok)
		}
	}
}

func TestClosest(t *testing.T) {
	got := Closest("lint", []string{"build", "lint", "lint", "list"}, 2)
	if strings.Join(got, ",") != "lint,lint" {
		t.Errorf("Closest = %v", got)
	}
	if got := Closest("zzzz", []string{"lint"}, 2); got != nil {
		t.Errorf("Closest far = %v", got)
	}
	// One edit past maxDist is as far as any other miss: "k" is 3
	// substitutions and an insert from "host", so nothing is close.
	if got := Closest("k", []string{"host", "rules"}, 3); got != nil {
		t.Errorf("Closest at maxDist+1 = %v", got)
	}
	if got, ok := Only("k", []string{"host", "rules"}, 3); ok {
		t.Errorf("Only at maxDist+1 = %q, sure", got)
	}
}

// TestLengthBound: a word far longer or shorter than every candidate is at
// least the difference away, so it gets no suggestion (and costs no
// distance computation: a hostile manifest's megabyte value stays cheap).
func TestLengthBound(t *testing.T) {
	if got, ok := Nearest(strings.Repeat("a", 1<<20), []string{"aaa"}, 2); ok {
		t.Errorf("Nearest(1 MB) = %q", got)
	}
	if got, ok := Nearest("ab", []string{"abcd"}, 2); !ok || got != "abcd" {
		t.Errorf("two inserts away: %q, %v", got, ok)
	}
	if got, ok := Nearest("ab", []string{"abcde"}, 2); ok {
		t.Errorf("three inserts away: %q", got)
	}
}

func TestOrList(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := OrList(tt.in); got != tt.want {
			t.Errorf("OrList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestOnly: a guess is sure only without a rival at its distance.
func TestOnly(t *testing.T) {
	formats := []string{"iri-reference", "uri-reference", "email"}
	for _, tt := range []struct {
		word, want string
		ok         bool
	}{
		{"emial", "email", true},
		{"xri-reference", "", false}, // iri- and uri-reference are one edit away alike
		{"zzzzzz", "", false},
	} {
		if got, ok := Only(tt.word, formats, 2); got != tt.want || ok != tt.ok {
			t.Errorf("Only(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.ok)
		}
	}
	if got, ok := Only("emial", []string{"email", "email"}, 2); !ok || got != "email" {
		t.Errorf("a candidate listed twice is no rival: %q, %v", got, ok)
	}
}

// FuzzGuess: Guess measures once what Nearest and Only measure apart, and
// says the same.
func FuzzGuess(f *testing.F) {
	f.Add("reasonin", "reasoning,fast,general,Reasoning", 2)
	f.Add("ab", "aa,bb,ab,AB", 1)
	f.Add("", ",x", 0)
	f.Fuzz(func(t *testing.T, word, list string, maxDist int) {
		if len(word) > 64 || len(list) > 512 || maxDist < 0 || maxDist > 4 {
			return
		}
		cands := strings.Split(list, ",")
		meant, sure := Guess(word, cands, maxDist)
		near, _ := Nearest(word, cands, maxDist)
		only, ok := Only(word, cands, maxDist)
		if meant != near || sure != ok || ok && only != meant {
			t.Errorf("Guess(%q, %q, %d) = %q, %v; Nearest %q, Only %q, %v", word, cands, maxDist, meant, sure, near, only, ok)
		}
	})
}
