package tarball

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The hostile archives below are written byte by byte: archive/tar cannot
// produce most of them, and the reader must judge raw bytes, not what a
// tar library makes of them.

// rawHeader is a writer-made USTAR header with typeflag typ, changed by mut
// (which sees the whole block) and given a fresh checksum.
func rawHeader(t testing.TB, name string, typ byte, size int, mut func(h []byte)) []byte {
	t.Helper()
	arr, err := Header(name, int64(size))
	if err != nil {
		t.Fatal(err)
	}
	h := arr[:]
	h[156] = typ
	if mut != nil {
		mut(h)
	}
	copy(h[148:156], "        ")
	sum := 0
	for _, b := range h {
		sum += int(b)
	}
	copy(h[148:], fmt.Sprintf("%07o\x00", sum))
	return h
}

// padded is data zero-padded to whole blocks.
func padded(data string) []byte {
	b := []byte(data)
	return append(b, make([]byte, (block-len(b)%block)%block)...)
}

// regular is a header and data for a regular file.
func regular(t testing.TB, name, data string) []byte {
	return append(rawHeader(t, name, '0', len(data), nil), padded(data)...)
}

var endOfArchive = make([]byte, 2*block)

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func gz(t testing.TB, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadRefusesCorruptStreams(t *testing.T) {
	good := cat(regular(t, "pack.json", `{"name":"a"}`), endOfArchive)
	goodGz := gz(t, good)
	flip := func(off int) []byte { // off counted from the end
		b := bytes.Clone(goodGz)
		b[len(b)-off] ^= 0xff
		return b
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"wrong CRC", flip(8)},
		{"wrong ISIZE", flip(4)},
		{"trailing garbage", cat(goodGz, []byte("hello"))},
		{"trailing zeros after gzip", cat(goodGz, make([]byte, 16))},
		{"second gzip member", cat(goodGz, gz(t, good))},
		{"empty second gzip member", cat(goodGz, gz(t, nil))},
		{"second tar after the end marker", gz(t, cat(good, good))},
		{"second pack.json after the end marker", gz(t, cat(good, regular(t, "pack.json", `{"name":"evil"}`), endOfArchive))},
		{"garbage inside the padding", gz(t, cat(good, make([]byte, 5000), []byte{1}, make([]byte, 100)))},
		{"no end-of-archive marker", gz(t, regular(t, "pack.json", "{}"))},
		{"half an end-of-archive marker", gz(t, cat(regular(t, "pack.json", "{}"), make([]byte, block)))},
	}
	for cut := 1; cut <= 9; cut++ {
		tests = append(tests, struct {
			name string
			data []byte
		}{fmt.Sprintf("cut %d bytes short", cut), goodGz[:len(goodGz)-cut]})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tt.data), DefaultLimits)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
		})
	}
	t.Run("second gzip member named", func(t *testing.T) {
		entry := regular(t, "pack.json", `{"name":"a"}`)
		for name, data := range map[string][]byte{
			"end marker in the second member": cat(gz(t, entry), gz(t, endOfArchive)),
			"an entry cut across members":     cat(gz(t, entry[:block+3]), gz(t, cat(entry[block+3:], endOfArchive))),
			"a whole archive after the first": cat(goodGz, gz(t, good)),
			"an empty member after the first": cat(goodGz, gz(t, nil)),
		} {
			_, err := Read(bytes.NewReader(data), DefaultLimits)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "a second gzip member after the archive's first one") {
				t.Errorf("%s: %v", name, err)
			}
		}
	})
	t.Run("zero padding to a record is fine", func(t *testing.T) {
		a, err := Read(bytes.NewReader(gz(t, cat(good, make([]byte, 10240-len(good))))), DefaultLimits)
		if err != nil || len(a.Entries) != 1 || len(a.Issues) != 0 {
			t.Fatalf("%v %+v", err, a)
		}
	})
}

func TestReadRefusesExtendedHeadersByTheirBytes(t *testing.T) {
	pax := func(typ byte, rec string) []byte {
		return cat(rawHeader(t, "PaxHeaders/pack.json", typ, len(rec), nil), padded(rec))
	}
	longName := func(typ byte, name string) []byte {
		return cat(rawHeader(t, "././@LongLink", typ, len(name)+1, nil), padded(name+"\x00"))
	}
	tests := []struct {
		name string
		tar  []byte
	}{
		{"GNU long name shorter than 100 bytes", cat(longName('L', "pack.json"), regular(t, "x", "{}"))},
		{"GNU long link", cat(longName('K', "target"), regular(t, "pack.json", "{}"))},
		{"PAX header", cat(pax('x', "18 path=pack.json\n"), regular(t, "x", "{}"))},
		{"PAX header with harmless records", cat(pax('x', "13 mtime=100\n"), regular(t, "pack.json", "{}"))},
		{"PAX global header", cat(pax('g', "13 mtime=100\n"), regular(t, "pack.json", "{}"))},
		{"name split across the prefix field", cat(regular(t, "pack.json", "{}"),
			rawHeader(t, "pack.json", '0', 2, func(h []byte) { copy(h[345:], "x") }), padded("{}"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Read(bytes.NewReader(gz(t, cat(tt.tar, endOfArchive))), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			var refused bool
			for _, is := range a.Refused() {
				refused = refused || is.Rule == "archive-extended-header"
			}
			if !refused {
				t.Errorf("not refused as archive-extended-header: issues %+v", a.Issues)
			}
		})
	}
}
