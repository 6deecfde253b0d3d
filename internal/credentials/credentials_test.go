package credentials

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestSaveIsPrivateAndOpenFilesAreRefused(t *testing.T) {
	path := Path(t.TempDir())
	if err := Save(path, "https://reg.acme.dev/", "tok-1"); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, "https://other.dev", "tok-2"); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", info.Mode().Perm(), err)
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v", dir.Mode().Perm())
	}
	if tok, err := Token(path, "https://reg.acme.dev"); err != nil || tok != "tok-1" {
		t.Errorf("Token = %q, %v", string(tok), err)
	}
	if tok, _ := Token(path, "https://unknown.dev"); tok != "" {
		t.Errorf("unknown registry: %q", string(tok))
	}
	os.Chmod(path, 0o644)
	if _, err := Token(path, "https://reg.acme.dev"); !errors.Is(err, ErrTooOpen) {
		t.Errorf("group-readable file: %v", err)
	}
	if tok, err := Token(filepath.Join(t.TempDir(), "none.json"), "x"); err != nil || tok != "" {
		t.Errorf("no file: %q %v", string(tok), err)
	}
}
