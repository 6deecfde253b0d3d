package pack

import (
	"os"
	"path/filepath"
)

// Enclosing returns the pack folder (one holding a pack.json) that dir is,
// or is inside; dir need not exist yet.
func Enclosing(dir string) (string, bool) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ManifestName)); err == nil {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}
