package agf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An import into a pack whose prompts/ is a symlink out of it must write
// nothing there (nor anywhere).
func TestWriteImportRefusesLinkedFolder(t *testing.T) {
	pack, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(pack, "pack.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(pack, "prompts")); err != nil {
		t.Fatal(err)
	}
	im := &Imported{Files: map[string][]byte{
		"pack.json":           []byte(`{"agents":[]}`),
		"prompts/a.md":        []byte("prompt"),
		"schemas/a.task.json": []byte("{}"),
	}}
	err := WriteImport(pack, im)
	if err == nil || !strings.Contains(err.Error(), "prompts is a symlink") {
		t.Fatalf("writeImport = %v, want the linked folder refused", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside the pack: %v", entries)
	}
	if data, _ := os.ReadFile(filepath.Join(pack, "pack.json")); string(data) != "{}" {
		t.Errorf("pack.json changed to %q", data)
	}
	if _, err := os.Stat(filepath.Join(pack, "schemas")); err == nil {
		t.Error("schemas/ was created although the set was refused")
	}
}
