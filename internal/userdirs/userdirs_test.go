package userdirs

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheDir: off disables the cache, an absolute path is used as it
// is, a relative one is ignored with a warning.
func TestCacheDir(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	var warn bytes.Buffer
	if got := CacheDir(env("off"), &warn); got != "" {
		t.Errorf("off: %q", got)
	}
	abs := filepath.Join(t.TempDir(), "c")
	if got := CacheDir(env(abs), &warn); got != abs {
		t.Errorf("absolute: %q", got)
	}
	if warn.Len() != 0 {
		t.Errorf("warned: %q", warn.String())
	}
	if got := CacheDir(env("rel/dir"), &warn); got == "rel/dir" || !strings.Contains(warn.String(), `WOP_CACHE_DIR="rel/dir" is not an absolute path`) {
		t.Errorf("relative: %q, warning %q", got, warn.String())
	}
}
