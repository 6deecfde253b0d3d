// Package fixturejson gathers the JSON files of the repository's own test
// fixtures (the examples, the lint defect and probe archives, the CLI
// scripts), for tests that hold a fast path to its reference on real-shaped
// inputs.
package fixturejson

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// File is one JSON file: where it was found, and its bytes.
type File struct {
	Name string // "<fixture>:<path in the pack>"
	Data []byte
}

// All returns every .json file under the fixtures, given the path of the
// repository root relative to the calling test's package.
func All(t testing.TB, root string) []File {
	t.Helper()
	var out []File
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		out = append(out, File{Name: p, Data: data})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, glob := range []string{"internal/lint/testdata/defects/*.txtar", "internal/lint/testdata/*.txtar", "cmd/wop/testdata/script/*.txtar"} {
		archives, err := filepath.Glob(filepath.Join(root, glob))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range archives {
			ar, err := txtar.ParseFile(a)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".json") {
					out = append(out, File{Name: filepath.Base(a) + ":" + f.Name, Data: f.Data})
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no JSON fixtures found under " + root)
	}
	return out
}
