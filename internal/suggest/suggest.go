// Package suggest finds the nearest known word to a misspelt one, for
// "did you mean" hints.
package suggest

import (
	"slices"
	"strings"
)

// Nearest returns the candidate closest to word (case-insensitive edit
// distance), if one is within maxDist edits; ties go to the earlier
// candidate in sorted order.
func Nearest(word string, candidates []string, maxDist int) (string, bool) {
	best, bestD := "", maxDist+1
	w := strings.ToLower(word)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if abs(len(w)-len(lc)) > maxDist {
			continue // at least that many edits: a long word costs nothing
		}
		d := distance(w, lc)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return best, best != ""
}

// Closest returns every candidate at the smallest edit distance from word,
// if that is within maxDist, in the candidates' order.
func Closest(word string, candidates []string, maxDist int) []string {
	var best []string
	bestD := maxDist + 1
	w := strings.ToLower(word)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if abs(len(w)-len(lc)) > maxDist {
			continue
		}
		switch d := distance(w, lc); {
		case d < bestD:
			best, bestD = []string{c}, d
		case d == bestD && d <= maxDist: // maxDist+1 is where bestD starts, not a match
			best = append(best, c)
		}
	}
	return best
}

// distance is the Levenshtein edit distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// OrList joins alternatives as a message names them: "a", "a or b",
// "a, b or c". It returns "" for none.
func OrList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// Only returns the candidate closest to word when it is the one candidate
// at that distance (within maxDist): a guess with no rival, which a fix may
// apply without asking (Nearest breaks a tie alphabetically, which a
// person may do, a fix may not).
func Only(word string, candidates []string, maxDist int) (string, bool) {
	if meant, sure := Guess(word, candidates, maxDist); sure {
		return meant, true
	}
	return "", false
}

// Guess is Nearest and Only from one measure of the candidates: meant is
// what Nearest returns ("" for none), and sure says Only would return it
// too, as it has no rival at its distance.
func Guess(word string, candidates []string, maxDist int) (meant string, sure bool) {
	best := Closest(word, candidates, maxDist)
	if len(best) == 0 {
		return "", false
	}
	slices.Sort(best)
	best = slices.Compact(best)
	return best[0], len(best) == 1
}
