// Package filetree writes test fixtures: a map of slash paths to contents
// laid out as files under a directory.
package filetree

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes files (slash path -> content) under dir, making the
// directories they need; any failure fails the test.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
