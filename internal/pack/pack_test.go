package pack

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
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

// TestArchiveKeepsOnlySmallEntries: big entries are listed, not held, and
// still readable on demand.
func TestArchiveKeepsOnlySmallEntries(t *testing.T) {
	big := strings.Repeat("x", keepInMemory+1)
	p := writeTgz(t, map[string]string{"pack.json": "{}", "prompts/big.md": big, "prompts/small.md": "hi"})
	pk, err := Load(p, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := pk.Archive.Find("prompts/big.md"); e.Data != nil || e.Size != int64(len(big)) {
		t.Errorf("big entry held in memory (size %d)", e.Size)
	}
	data, err := pk.ReadFile("prompts/big.md")
	if err != nil || string(data) != big {
		t.Errorf("ReadFile of a streamed entry: %v", err)
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

func TestReadCapped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("12345"), 0o644)
	if data, err := ReadCapped(p, 5); err != nil || string(data) != "12345" {
		t.Errorf("at the cap: %q %v", data, err)
	}
	var tl *FileTooLargeError
	_, err := ReadCapped(p, 4)
	if !errors.As(err, &tl) || tl.Size != 5 || tl.Max != 4 {
		t.Errorf("over the cap: %v", err)
	}
}
