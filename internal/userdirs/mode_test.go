package userdirs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestCacheDirModes: what decides is whether users outside the owner's
// group can write: a folder writable by every user but not by its group
// (0757) is refused, one its group can write but others cannot (0775)
// is used.
func TestCacheDirModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix owners or modes")
	}
	for _, tc := range []struct {
		mode os.FileMode
		used bool
	}{
		{0o757, false},
		{0o777, false},
		{0o703, false},
		{0o775, true},
		{0o770, true},
		{0o755, true},
		{0o700, true},
	} {
		t.Run(fmt.Sprintf("%04o", tc.mode), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cache")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, tc.mode); err != nil { // Chmod: the umask does not apply
				t.Fatal(err)
			}
			var warn bytes.Buffer
			got := CacheDir(func(string) string { return dir }, &warn)
			if used := got == dir; used != tc.used || used == (warn.Len() > 0) {
				t.Errorf("mode %04o: CacheDir = %q (warning %q), want used = %v", tc.mode, got, warn.String(), tc.used)
			}
		})
	}
}
