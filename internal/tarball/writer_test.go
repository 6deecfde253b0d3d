package tarball

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"
)

func memFile(name, data string) File {
	return File{Name: name, Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(data)), nil
	}}
}

// TestHeaderBytes pins the reference builder's header for a real entry
// (LICENSE, 975 bytes, from a published archive).
func TestHeaderBytes(t *testing.T) {
	h, err := Header("LICENSE", 975)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{0: "LICENSE\x00", 100: "0000644\x00", 108: "0000000\x000000000\x00", 124: "00000001717\x00",
		136: "00000000000\x00", 148: "0006760\x00", 156: "0\x00", 257: "ustar\x0000\x00"}
	for off, s := range want {
		if got := string(h[off : off+len(s)]); got != s {
			t.Errorf("offset %d: %q, want %q", off, got, s)
		}
	}
	if !bytes.Equal(h[265:], make([]byte, block-265)) {
		t.Error("uname..prefix not NUL")
	}
}

func TestWriteTarIsSortedAndReadable(t *testing.T) {
	var b bytes.Buffer
	files := []File{memFile("prompts/b.md", "bee"), memFile("pack.json", "{}"), memFile("LICENSE", "x")}
	if err := Write(&b, files); err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(b.Bytes()[:10]); got != "1f8b08000000000002ff" {
		t.Errorf("gzip header %s", got)
	}
	a, err := Read(bytes.NewReader(b.Bytes()), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range a.Entries {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "LICENSE,pack.json,prompts/b.md" || len(a.Issues) != 0 {
		t.Errorf("entries %v issues %+v", names, a.Issues)
	}
	var tarBytes bytes.Buffer
	if err := WriteTar(&tarBytes, files); err != nil {
		t.Fatal(err)
	}
	if tarBytes.Len() != 3*1024+1024 {
		t.Errorf("tar is %d bytes", tarBytes.Len())
	}
}

func TestWriteRefuses(t *testing.T) {
	long := memFile(strings.Repeat("a", 101), "")
	if err := WriteTar(io.Discard, []File{long}); !errors.Is(err, ErrNameTooLong) {
		t.Errorf("long name: %v", err)
	}
	if err := WriteTar(io.Discard, []File{memFile("a", "1"), memFile("a", "2")}); err == nil {
		t.Error("duplicate accepted")
	}
	lying := File{Name: "x", Size: 10, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("short")), nil }}
	if err := WriteTar(io.Discard, []File{lying}); err == nil {
		t.Error("short file accepted")
	}
	if err := WriteTar(io.Discard, []File{memFile("é", "")}); err == nil {
		t.Error("non-ASCII accepted")
	}
}

// TestCompressorsReuseGivesTheSameBytes: deflate state lent from a shared
// Compressors, one archive after another and from several goroutines at
// once, writes exactly the bytes fresh state writes.
func TestCompressorsReuseGivesTheSameBytes(t *testing.T) {
	sets := [][]File{
		{memFile("pack.json", `{"name":"a"}`), memFile("prompts/a.md", strings.Repeat("alpha beta ", 5000))},
		{memFile("pack.json", `{"name":"b"}`)},
		{memFile("LICENSE", strings.Repeat("gamma\n", 20000)), memFile("pack.json", "{}")},
	}
	want := make([][]byte, len(sets))
	for i, files := range sets {
		var b bytes.Buffer
		if err := Write(&b, files); err != nil {
			t.Fatal(err)
		}
		want[i] = b.Bytes()
	}
	var shared Compressors
	done := make(chan error, 4*len(sets))
	for range 4 {
		go func() {
			for i, files := range sets {
				var b bytes.Buffer
				err := shared.Write(&b, files)
				if err == nil && !bytes.Equal(b.Bytes(), want[i]) {
					err = errors.New("a shared compressor wrote other bytes")
				}
				done <- err
			}
		}()
	}
	for range 4 * len(sets) {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
