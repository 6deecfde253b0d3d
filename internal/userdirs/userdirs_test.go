package userdirs

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
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

// TestCacheDirOthersCanWrite: a cache directory every user can write, or
// one another user owns, is no cache: caching is off, with a warning.
func TestCacheDirOthersCanWrite(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix owners or modes")
	}
	env := func(v string) func(string) string { return func(string) string { return v } }
	open := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	if got := CacheDir(env(open), &warn); got != "" || !strings.Contains(warn.String(), "is writable by every user (mode 0777): caching is off") {
		t.Errorf("world-writable: %q, warning %q", got, warn.String())
	}
	if os.Getuid() != 0 {
		return // only root can give a directory to another user
	}
	theirs := filepath.Join(t.TempDir(), "theirs")
	if err := os.Mkdir(theirs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	warn.Reset()
	if got := CacheDir(env(theirs), &warn); got != "" || !strings.Contains(warn.String(), "belongs to another user (uid 65534)") {
		t.Errorf("another user's: %q, warning %q", got, warn.String())
	}
}
