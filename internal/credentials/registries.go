package credentials

import (
	"maps"
	"slices"
)

// Registries lists the registries the file holds a token for, sorted (none
// when there is no file).
func Registries(path string) ([]string, error) {
	f, err := load(path)
	if err != nil || f == nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(f.Registries)), nil
}
