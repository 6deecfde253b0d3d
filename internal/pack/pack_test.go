package pack

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/tarball"
)

func writeTgz(t *testing.T, files map[string]string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, data := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write([]byte(data))
	}
	tw.Close()
	zw.Close()
	p := filepath.Join(t.TempDir(), "p.tgz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestArchiveHoldsEveryEntry: an archive is decompressed once, at load;
// big entries are held like small ones, so no read decompresses it again.
func TestArchiveHoldsEveryEntry(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	p := writeTgz(t, map[string]string{"pack.json": "{}", "prompts/big.md": big, "prompts/small.md": "hi"})
	pk, err := Load(p, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil { // every read below is from memory
		t.Fatal(err)
	}
	if e, _ := pk.Archive.Find("prompts/big.md"); string(e.Data) != big {
		t.Errorf("big entry not held in memory (size %d)", e.Size)
	}
	data, err := pk.ReadFile("prompts/big.md")
	if err != nil || string(data) != big {
		t.Errorf("ReadFile of a big entry: %v", err)
	}
	seen := map[string]int{}
	err = pk.Each(func(string) bool { return true }, func(name string, data []byte) error {
		seen[name] = len(data)
		return nil
	})
	if err != nil || seen["prompts/big.md"] != len(big) || seen["pack.json"] != 2 {
		t.Errorf("Each: %v %v", seen, err)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(t.TempDir(), tarball.DefaultLimits); err == nil || !strings.Contains(err.Error(), "no pack.json") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Load(writeTgz(t, map[string]string{"README.md": "x"}), tarball.DefaultLimits); err == nil {
		t.Error("archive without pack.json accepted")
	}
}

func TestLoadFollowsALinkedRootOnly(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.Mkdir(src, 0o755)
	os.WriteFile(filepath.Join(src, "pack.json"), []byte(`{}`), 0o644)
	os.WriteFile(filepath.Join(dir, "outside.md"), []byte("secret"), 0o644)
	os.Symlink(filepath.Join(dir, "outside.md"), filepath.Join(src, "README.md"))
	link := filepath.Join(dir, "link")
	if err := os.Symlink("src", link); err != nil {
		t.Skip(err)
	}
	pk, err := Load(link, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(pk.Files) != 2 || pk.Files[1].Name != "pack.json" || pk.Display != filepath.ToSlash(link) {
		t.Fatalf("files %+v display %q", pk.Files, pk.Display)
	}
	if _, err := pk.ReadFile("README.md"); err == nil {
		t.Error("read through a link inside the pack")
	}
}

func TestReadFileRefusesAFileSwappedAfterListing(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pack.json"), []byte(`{}`), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("readme"), 0o644)
	os.WriteFile(filepath.Join(dir, "other"), []byte("secret"), 0o644)
	pk, err := Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "README.md"))
	os.Symlink(filepath.Join(dir, "other"), filepath.Join(dir, "README.md"))
	if _, err := pk.ReadFile("README.md"); err == nil || !strings.Contains(err.Error(), "README.md") {
		t.Errorf("swapped for a link: %v", err)
	}
}

func TestLoadNamesARefusedManifest(t *testing.T) {
	big := `{"x":"` + strings.Repeat("a", 300<<10) + `"}`
	_, err := Load(writeTgz(t, map[string]string{"pack.json": big}), tarball.DefaultLimits)
	if err == nil || errors.Is(err, ErrNoManifest) || !strings.Contains(err.Error(), "pack.json") || !strings.Contains(err.Error(), "262144") {
		t.Errorf("big pack.json: %v", err)
	}
}

func TestLoadRefusesDataAfterTheArchive(t *testing.T) {
	p := writeTgz(t, map[string]string{"pack.json": "{}"})
	data, _ := os.ReadFile(p)
	os.WriteFile(p, append(data, "hidden"...), 0o644)
	if _, err := Load(p, tarball.DefaultLimits); !errors.Is(err, tarball.ErrCorrupt) || !strings.Contains(err.Error(), "data after the gzip stream") {
		t.Errorf("trailing data: %v", err)
	}
}

// TestLoadRefusesADirectoryNamedPackJSON: a folder named pack.json holds no
// manifest; loading on would lint an empty pack clean while build fails.
func TestLoadRefusesADirectoryNamedPackJSON(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ManifestName), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir, tarball.DefaultLimits)
	if err == nil || !strings.Contains(err.Error(), "pack.json is a directory") {
		t.Fatalf("Load = %v, want pack.json is a directory", err)
	}
}

// TestReadFileReusing: a directory's file is read into the buffer given
// when it has room (no allocation), into a new one when not, and either way
// with the file's contents; the size ceiling still refuses before reading.
func TestReadFileReusing(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("b", 3000)
	for name, data := range map[string]string{"pack.json": "{}", "small.md": "hi", "big.md": big} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pk, err := Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 1024)
	got, err := pk.ReadFileReusing("small.md", buf)
	if err != nil || string(got) != "hi" || &got[:1][0] != &buf[:1][0] {
		t.Errorf("small file: %q, %v; want it read into the buffer given", got, err)
	}
	got, err = pk.ReadFileReusing("big.md", buf)
	if err != nil || string(got) != big {
		t.Errorf("file larger than the buffer: %d bytes, %v", len(got), err)
	}
	pk.limits.MaxEntry = 100
	var tooLarge *FileTooLargeError
	if _, err := pk.ReadFileReusing("big.md", buf); !errors.As(err, &tooLarge) {
		t.Errorf("file over the ceiling: %v, want FileTooLargeError", err)
	}
}

// TestKeepReadsOnce: once Keep is on, a file ReadFile read is served to
// ReadFile and Open again without touching the disk (here: after it was
// deleted), while a file past the budget is read again; without Keep every
// read goes to the disk.
func TestKeepReadsOnce(t *testing.T) {
	for _, keep := range []bool{true, false} {
		dir := t.TempDir()
		files := map[string]string{"pack.json": "{}", "prompts/a.md": "small", "prompts/b.md": strings.Repeat("b", 100)}
		for name, data := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		pk, err := Load(dir, tarball.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if keep {
			pk.Keep(50) // room for a.md, not b.md
		}
		for _, name := range []string{"prompts/a.md", "prompts/b.md"} {
			if _, err := pk.ReadFile(name); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, filepath.FromSlash(name)))
		}
		data, err := pk.ReadFile("prompts/a.md")
		if keep && (err != nil || string(data) != "small") || !keep && err == nil {
			t.Errorf("keep %v: ReadFile after the file went: %q %v", keep, data, err)
		}
		r, err := pk.Open("prompts/a.md")
		if keep != (err == nil) {
			t.Errorf("keep %v: Open after the file went: %v", keep, err)
		} else if err == nil {
			got, _ := io.ReadAll(r)
			if string(got) != "small" {
				t.Errorf("Open read %q", got)
			}
		}
		if _, err := pk.ReadFile("prompts/b.md"); err == nil {
			t.Errorf("keep %v: b.md, past the budget, was kept", keep)
		}
	}
}

// TestOverlay: overlaid bytes stand for the file on disk (or a file not on
// disk) in every read, within the size ceilings.
func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"name":"disk"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	lim := tarball.DefaultLimits
	lim.MaxEntry = 8
	pk, err := Load(dir, lim)
	if err != nil {
		t.Fatal(err)
	}
	pk.Overlay(map[string][]byte{ManifestName: []byte(`{"name":"buffer"}`), "new.md": []byte("hi"), "big.md": []byte("123456789")})
	if got, _ := pk.ReadFile(ManifestName); string(got) != `{"name":"buffer"}` {
		t.Errorf("ReadFile = %q, want the overlay", got)
	}
	buf := make([]byte, 0, 64)
	got, _ := pk.ReadFileReusing(ManifestName, buf)
	got[0] = 'X' // the caller owns what ReadFileReusing returns
	if again, _ := pk.ReadFile(ManifestName); again[0] != '{' {
		t.Error("writing ReadFileReusing's result changed the overlay")
	}
	if f, ok := pk.Lookup("new.md"); !ok || f.Size != 2 || !f.Mode.IsRegular() {
		t.Errorf("Lookup(new.md) = %+v, %v", f, ok)
	}
	var tooLarge *FileTooLargeError
	if _, err := pk.ReadFile("big.md"); !errors.As(err, &tooLarge) {
		t.Errorf("ReadFile(big.md) err = %v, want too large", err)
	}
}

// TestArchiveWithoutRootManifest: an archive with no pack.json at its root
// says so, and points at one in a folder (npm pack's package/); it is not
// ErrNoManifest, which callers read as "a directory without a pack".
func TestArchiveWithoutRootManifest(t *testing.T) {
	_, err := Load(writeTgz(t, map[string]string{"package/pack.json": "{}"}), tarball.DefaultLimits)
	if err == nil || errors.Is(err, ErrNoManifest) || !strings.Contains(err.Error(), "only package/pack.json") {
		t.Errorf("npm-style archive: %v", err)
	}
	_, err = Load(writeTgz(t, map[string]string{"README.md": "hi"}), tarball.DefaultLimits)
	if err == nil || errors.Is(err, ErrNoManifest) || !strings.Contains(err.Error(), "no pack.json at the archive's root") {
		t.Errorf("no manifest at all: %v", err)
	}
}
