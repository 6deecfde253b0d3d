package schema

import "slices"

// Kinds lists the pack manifest kinds OpenWOP defines, sorted: the values
// of a manifest's kind, each selecting its schema (ForKind).
func Kinds() []string {
	kinds := make([]string, 0, len(kindFiles))
	for k := range kindFiles {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}
