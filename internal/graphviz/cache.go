package graphviz

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/atomicfile"
)

// PrecompiledDir is the folder a release installs beside the helper
// (release/precompile-graphviz writes it): Graphviz's WebAssembly module
// compiled to the helper's native code on the build machine, laid out as
// the helper's cache. Compiling it is what a first drawing costs (0.6 to 1
// second); seeded from this folder, the first drawing on a machine costs
// what a cached one does. Where the folder is absent (go install) or was
// compiled for other CPU features, the helper compiles as before: wazero
// files each compiled module under its wazero version, platform, CPU
// features and the module's hash, so a seed that does not fit this machine
// is never found, let alone run.
const PrecompiledDir = "wop-graphviz-precompiled"

// wazeroDir is the folder under the helper's $TMPDIR where go-graphviz
// keeps wazero's compilation cache.
const wazeroDir = "go-graphviz"

// Seed bounds: a seed holds one compiled module of a few megabytes; a
// folder far past these is not one, and copying it would only cost time.
const (
	maxSeedFiles = 16
	maxSeedBytes = 256 << 20 // in all
)

// cacheDir is where the helper keeps its compiled code: r.CacheDir, or,
// when caching is off or that folder cannot be written (a read-only home,
// a file in its place), a private temporary folder removed by done, as
// lint carries on uncached. Never the shared system temporary folder,
// where go-graphviz would otherwise put it: another local user could plant
// native code there for the helper to run.
func (r Renderer) cacheDir() (dir string, done func(), err error) {
	if r.CacheDir != "" && usable(r.CacheDir) {
		return r.CacheDir, func() {}, nil
	}
	dir, err = os.MkdirTemp("", "wop-graphviz-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// usable says whether the helper can keep or read compiled code under
// cache: its folder for it can be made and written, or is a folder it can
// read (a cache left read-only, by `sudo wop` or in an image). A file in
// its place is removed (go-graphviz would otherwise compile on every run,
// saying nothing); a folder never is.
func usable(cache string) bool {
	dir := filepath.Join(cache, wazeroDir)
	if info, err := os.Lstat(dir); err == nil && !info.IsDir() {
		os.Remove(dir)
	}
	if writable(dir) {
		return true
	}
	info, err := os.Stat(dir)
	return err == nil && info.IsDir()
}

// writable makes dir and says whether a file can be written in it.
func writable(dir string) bool {
	if os.MkdirAll(dir, 0o755) != nil {
		return false
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

// seed copies into cache the precompiled files installed beside the helper
// that cache lacks. It is best effort: whatever it cannot copy the helper
// compiles, with the same result.
func (r Renderer) seed(cache string) {
	helper := r.Helper
	if resolved, err := filepath.EvalSymlinks(helper); err == nil {
		helper = resolved
	}
	src := filepath.Join(filepath.Dir(helper), PrecompiledDir)
	files, budget := 0, int64(maxSeedBytes)
	_ = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fs.SkipAll
		}
		if !d.Type().IsRegular() { // directories are walked; links are not followed
			return nil
		}
		if files++; files > maxSeedFiles {
			return fs.SkipAll
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return fs.SkipAll
		}
		budget -= copySeedFile(path, filepath.Join(cache, rel), budget)
		return nil
	})
}

// copySeedFile copies src to dst unless dst exists or src is over budget
// bytes, atomically, so that a helper started meanwhile by another wop
// reads all of it or none. It returns the bytes it copied.
func copySeedFile(src, dst string, budget int64) int64 {
	if _, err := os.Lstat(dst); err == nil {
		return 0
	}
	in, err := os.Open(src)
	if err != nil {
		return 0
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > budget {
		return 0
	}
	if os.MkdirAll(filepath.Dir(dst), 0o755) != nil {
		return 0
	}
	err = atomicfile.WriteFrom(dst, 0o600, func(w io.Writer) error {
		_, err := io.Copy(w, io.LimitReader(in, info.Size()))
		return err
	})
	if err != nil {
		return 0
	}
	return info.Size()
}

// forgetCompiled removes the helper's compiled code from cache: a damaged
// file there that wazero cannot read makes the helper fail at start-up,
// every time, until it is gone.
func forgetCompiled(cache string) error {
	return os.RemoveAll(filepath.Join(cache, wazeroDir))
}
