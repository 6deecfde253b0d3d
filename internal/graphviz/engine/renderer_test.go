package engine

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/graphviz"
)

// TestMain lets the test binary act as the wop-graphviz helper, go-graphviz
// and wazero included, so that graphviz.Renderer's cache handling meets
// the real compiled module.
func TestMain(m *testing.M) {
	if os.Getenv("WOP_ENGINE_TEST_HELPER") == "1" {
		Main("test")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestRendererWithRealCache: the compiled module a run leaves in the cache,
// installed beside a helper as a release does (release/precompile-graphviz),
// seeds an empty cache; a cache whose module is cut short, and a seed cut
// short, are recovered from. Every drawing is the same bytes: a cache never
// changes what is drawn.
func TestRendererWithRealCache(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Graphviz's module several times")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("WOP_ENGINE_TEST_HELPER", "1")
	draw := func(r graphviz.Renderer) []byte {
		t.Helper()
		svgs, err := r.Render(t.Context(), []graphviz.Graph{{Layout: graphviz.Dot, DOT: `digraph { a -> b; b -> c; a -> c }`}})
		if err != nil {
			t.Fatal(err)
		}
		return svgs[0]
	}
	cold := t.TempDir()
	want := draw(graphviz.Renderer{Helper: exe, CacheDir: cold})
	compiled := compiledFiles(t, cold)

	install := t.TempDir()
	helper := filepath.Join(install, graphviz.Name)
	copyFile(t, exe, helper, 0o755)
	for rel, data := range compiled {
		writeFile(t, filepath.Join(install, graphviz.PrecompiledDir, rel), data)
	}
	// wazero compiles to the same bytes, so the module in the cache cannot
	// tell a seed from a compile: a marker beside it in the seed can.
	marker := filepath.Join("go-graphviz", "seeded")
	writeFile(t, filepath.Join(install, graphviz.PrecompiledDir, marker), []byte("from the seed"))
	seeded := t.TempDir()
	if got := draw(graphviz.Renderer{Helper: helper, CacheDir: seeded}); !bytes.Equal(got, want) {
		t.Errorf("seeded drawing differs from the compiled one")
	}
	got := compiledFiles(t, seeded)
	if string(got[marker]) != "from the seed" {
		t.Errorf("the seed was not copied into the cache")
	}
	delete(got, marker)
	if !equalFiles(got, compiled) {
		t.Errorf("seeded cache holds %d files, not the seed's %d", len(got), len(compiled))
	}
	if err := os.Remove(filepath.Join(seeded, marker)); err != nil {
		t.Fatal(err)
	}

	for rel, data := range compiled { // damage the cache's module
		writeFile(t, filepath.Join(seeded, rel), data[:len(data)/2])
	}
	if got := draw(graphviz.Renderer{Helper: helper, CacheDir: seeded}); !bytes.Equal(got, want) {
		t.Errorf("drawing after a damaged cache differs")
	}
	if got := compiledFiles(t, seeded); !equalFiles(got, compiled) {
		t.Errorf("the damaged module was not compiled again")
	}

	for rel, data := range compiled { // and the seed's
		writeFile(t, filepath.Join(install, graphviz.PrecompiledDir, rel), data[:len(data)/2])
	}
	if got := draw(graphviz.Renderer{Helper: helper}); !bytes.Equal(got, want) {
		t.Errorf("drawing from a damaged seed differs")
	}
}

// compiledFiles reads the helper's compiled code under cache, by path
// relative to cache.
func compiledFiles(t *testing.T, cache string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(cache, path)
		files[rel] = data
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("compiled code under %s: %d files, %v", cache, len(files), err)
	}
	return files
}

func equalFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string, perm os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, perm); err != nil {
		t.Fatal(err)
	}
}
