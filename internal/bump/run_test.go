package bump

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestRun: the command's entry point writes the new version, or with
// DryRun writes nothing; an archive is refused as a usage error.
func TestRun(t *testing.T) {
	const manifest = "{\n\t\"name\": \"acme.x\",\n\t\"version\": \"1.0.0\"\n}\n"
	for _, dryRun := range []bool{false, true} {
		dir := t.TempDir()
		filetree.Write(t, filepath.Join(dir, "p"), map[string]string{"pack.json": manifest})
		var out bytes.Buffer
		r := Request{Lint: &lintrun.Env{WorkDir: dir, Getenv: func(string) string { return "" }}, Out: &out, Step: "minor", Path: "p", DryRun: dryRun}
		if err := Run(context.Background(), r); err != nil {
			t.Fatalf("dry run %v: %v", dryRun, err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "p", "pack.json"))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(manifest, "1.0.0", "1.1.0", 1)
		if dryRun {
			want = manifest
		}
		if string(got) != want {
			t.Errorf("dry run %v: pack.json = %q, want %q", dryRun, got, want)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.tgz"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Run(context.Background(), Request{Lint: &lintrun.Env{WorkDir: dir}, Step: "minor", Path: "a.tgz"})
	var u *exitcode.UsageError
	if !errors.As(err, &u) || err.Error() != "a.tgz: bump edits a pack source directory, not an archive" {
		t.Errorf("bump of an archive: %v", err)
	}
}
