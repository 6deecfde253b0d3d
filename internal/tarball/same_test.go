package tarball

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"hash/crc32"
	"io"
	"testing"
)

func sameFiles() []File {
	return []File{memFile("pack.json", `{"name":"x"}`), memFile("prompts/a.md", "Be brief.\n")}
}

func archiveOf(t testing.TB, files []File) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, files); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// level9 frames the same tar deflated at another level: another deflate
// stream for the same tar, as an older wop might have written.
func level9(t testing.TB, files []File) []byte {
	return framed(t, files, true)
}

// framed frames files' tar deflated at level 9 in gzipHeader and its
// trailer; without end, the deflate stream lacks its final block.
func framed(t testing.TB, files []File, end bool) []byte {
	t.Helper()
	var tar bytes.Buffer
	if err := WriteTar(&tar, files); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(gzipHeader[:])
	fw, _ := flate.NewWriter(&b, flate.BestCompression)
	fw.Write(tar.Bytes())
	if end {
		fw.Close()
	} else {
		fw.Flush()
	}
	b.Write(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(tar.Bytes())))
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(tar.Len())))
	return b.Bytes()
}

func TestSameArchive(t *testing.T) {
	good := archiveOf(t, sameFiles())
	edit := func(f func([]byte) []byte) []byte { return f(bytes.Clone(good)) }
	other := archiveOf(t, []File{memFile("pack.json", `{"name":"y"}`), memFile("prompts/a.md", "Be brief.\n")})
	more := archiveOf(t, append(sameFiles(), memFile("prompts/b.md", "")))
	var std bytes.Buffer
	zw := gzip.NewWriter(&std)
	WriteTar(zw, sameFiles())
	zw.Close()
	for _, c := range []struct {
		name    string
		archive []byte
		want    bool
	}{
		{"the same build", good, true},
		{"the same tar, another deflate stream", level9(t, sameFiles()), true},
		{"another file's bytes", other, false},
		{"one entry more", more, false},
		{"compress/gzip's header (XFL 0, OS 3)", std.Bytes(), false},
		{"trailing bytes", append(bytes.Clone(good), 0), false},
		{"a second member", append(bytes.Clone(good), good...), false},
		{"a wrong CRC", edit(func(b []byte) []byte { b[len(b)-8] ^= 1; return b }), false},
		{"a wrong length", edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), false},
		{"truncated", good[:len(good)-9], false},
		{"a deflate stream without its final block", framed(t, sameFiles(), false), false},
		{"a corrupt deflate stream", edit(func(b []byte) []byte { b[20] ^= 0xff; return b }), false},
		{"empty", nil, false},
	} {
		got, err := new(Compressors).SameArchive(c.archive, sameFiles())
		if err != nil || got != c.want {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// FuzzSameArchive: whatever the archive, SameArchive never fails on it
// (only a source file can make it fail), and says true only when the
// archive is a single gzip member of exactly WriteTar's tar.
func FuzzSameArchive(f *testing.F) {
	files := sameFiles()
	good := archiveOf(f, files)
	f.Add(good)
	f.Add(level9(f, files))
	f.Add(append(bytes.Clone(good), good...))
	f.Add(good[:len(good)-3])
	var tar bytes.Buffer
	WriteTar(&tar, files)
	var c Compressors
	f.Fuzz(func(t *testing.T, archive []byte) {
		same, err := c.SameArchive(archive, files)
		if err != nil {
			t.Fatalf("error on an archive: %v", err)
		}
		if !same {
			return
		}
		zr, err := gzip.NewReader(bytes.NewReader(archive))
		if err != nil {
			t.Fatalf("said same, but gzip refuses it: %v", err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, tar.Bytes()) {
			t.Fatalf("said same, but it inflates to %d other bytes (%v)", len(got), err)
		}
		if !bytes.Equal(archive[:len(gzipHeader)], gzipHeader[:]) {
			t.Fatal("said same with another header")
		}
	})
}
