package lintrun

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
)

// copyExample copies the repository's text-tools example pack into a
// temporary directory and returns the pack's path.
func copyExample(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "examples", "community.example.text-tools")
	dst := filepath.Join(t.TempDir(), "text-tools")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func testEnv(dir string) *Env {
	var sink bytes.Buffer
	return &Env{WorkDir: dir, Getenv: func(string) string { return "" }, Out: &sink, ErrOut: &sink}
}

func rulesOf(ds []diag.Diagnostic) string {
	var ids []string
	for _, d := range ds {
		ids = append(ids, d.File+":"+d.Rule)
	}
	return strings.Join(ids, " ")
}

// TestRunOverlay: an overlay's bytes are linted instead of the file on
// disk, and the disk is untouched.
func TestRunOverlay(t *testing.T) {
	dir := copyExample(t)
	env := testEnv(filepath.Dir(dir))
	manifest := filepath.Join(dir, "pack.json")
	raw, _ := os.ReadFile(manifest)
	clean, err := Run(context.Background(), env, Options{Paths: []string{"text-tools"}, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(clean.Diags) != 0 {
		t.Fatalf("the example has findings: %s", rulesOf(clean.Diags))
	}
	broken := bytes.Replace(raw, []byte(`"schemas/uppercase.input.json"`), []byte(`"schemas/missing.json"`), 1)
	res, err := Run(context.Background(), env, Options{Paths: []string{"text-tools"}, Overlay: map[string][]byte{manifest: broken}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(res.Diags); !strings.Contains(got, "text-tools/pack.json:ref-missing") {
		t.Errorf("findings with the overlay = %q, want ref-missing in pack.json", got)
	}
	if now, _ := os.ReadFile(manifest); !bytes.Equal(now, raw) {
		t.Error("the overlay was written to disk")
	}
}

// TestRunOverlayConfig: an overlaid .wop.yaml is the configuration applied,
// and its mistakes come back as a *config.Error with their lines.
func TestRunOverlayConfig(t *testing.T) {
	dir := copyExample(t)
	cfg := filepath.Join(dir, ".wop.yaml")
	if err := os.WriteFile(cfg, []byte("registry: private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := testEnv(filepath.Dir(dir))
	_, err := Run(context.Background(), env, Options{Paths: []string{"text-tools"}, Overlay: map[string][]byte{cfg: []byte("registry: private\nrules:\n  ref-mising: off\n")}})
	var ce *config.Error
	var in *InputError
	if !errors.As(err, &ce) || !errors.As(err, &in) {
		t.Fatalf("err = %v, want an *InputError holding a *config.Error", err)
	}
	if len(ce.Problems) != 1 || ce.Problems[0].Line != 3 {
		t.Errorf("problems = %+v, want one on line 3", ce.Problems)
	}
}

// TestFileCache: a run with the cache sees a file changed on disk since the
// last run (a new size, or the same size at another time), and a file
// removed.
func TestFileCache(t *testing.T) {
	dir := copyExample(t)
	env := testEnv(filepath.Dir(dir))
	cache := NewFileCache(1 << 20)
	run := func() string {
		t.Helper()
		res, err := Run(context.Background(), env, Options{Paths: []string{"text-tools"}, NoCache: true, Files: cache})
		if err != nil {
			t.Fatal(err)
		}
		return rulesOf(res.Diags)
	}
	if got := run(); got != "" {
		t.Fatalf("clean pack: %s", got)
	}
	schema := filepath.Join(dir, "schemas", "uppercase.config.json")
	raw, _ := os.ReadFile(schema)
	if err := os.WriteFile(schema, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(); !strings.Contains(got, "json-invalid") {
		t.Errorf("after a shorter file: %q, want json-invalid", got)
	}
	same := bytes.Repeat([]byte(" "), len(raw))
	same[0] = '['
	if err := os.WriteFile(schema, same, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(schema, later, later); err != nil {
		t.Fatal(err)
	}
	if got := run(); !strings.Contains(got, "json-invalid") {
		t.Errorf("after a same-size change: %q, want json-invalid", got)
	}
	if err := os.Remove(schema); err != nil {
		t.Fatal(err)
	}
	if got := run(); !strings.Contains(got, "ref-missing") {
		t.Errorf("after removing the file: %q, want ref-missing", got)
	}
}
