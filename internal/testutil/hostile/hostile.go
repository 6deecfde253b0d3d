// Package hostile builds packs that readers must refuse or warn about
// (unsafe names, links, special files, extended headers, oversized or
// duplicate entries) next to a clean pack with the same manifest, as
// archives or directories, for tests that compare how wop treats them.
package hostile

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Manifest is a clean pack's pack.json; Prompt is the file it refers to.
const (
	Manifest = `{"name":"community.acme.demo","version":"1.0.0","description":"A demo pack.","license":"MIT","engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/a.md"}]}`
	Prompt   = "You are A.\n"
)

// Entry is one archive entry (or directory file). Type is a tar type flag;
// Link is a link's target; PAX adds extended-header records.
type Entry struct {
	Name string
	Type byte
	Data []byte
	Link string
	PAX  map[string]string
	// Owned gives the entry a non-zero owner and mtime (a legacy shape).
	Owned bool
}

// Clean returns the entries of the clean pack.
func Clean() []Entry {
	return []Entry{
		{Name: "pack.json", Type: tar.TypeReg, Data: []byte(Manifest)},
		{Name: "prompts/a.md", Type: tar.TypeReg, Data: []byte(Prompt)},
	}
}

// Fixture is a named hostile variant of the clean pack.
type Fixture struct {
	Name    string
	Entries []Entry
}

// Archives returns the hostile archive fixtures: the clean pack plus one
// thing a reader refuses or tolerates with a warning.
func Archives() []Fixture {
	with := func(name string, extra ...Entry) Fixture {
		return Fixture{Name: name, Entries: append(Clean(), extra...)}
	}
	big := bytes.Repeat([]byte("a"), 5<<20+1)
	return []Fixture{
		with("clean"),
		with("traversal", Entry{Name: "../evil.md", Type: tar.TypeReg, Data: []byte("x")}),
		with("absolute", Entry{Name: "/etc/evil.md", Type: tar.TypeReg, Data: []byte("x")}),
		with("not-clean", Entry{Name: "prompts//b.md", Type: tar.TypeReg, Data: []byte("x")}),
		with("backslash", Entry{Name: `prompts\b.md`, Type: tar.TypeReg, Data: []byte("x")}),
		with("symlink", Entry{Name: "prompts/link.md", Type: tar.TypeSymlink, Link: "/etc/passwd"}),
		with("hardlink", Entry{Name: "prompts/hard.md", Type: tar.TypeLink, Link: "prompts/a.md"}),
		with("char-device", Entry{Name: "dev", Type: tar.TypeChar}),
		with("block-device", Entry{Name: "blk", Type: tar.TypeBlock}),
		with("fifo", Entry{Name: "fifo", Type: tar.TypeFifo}),
		with("second-manifest", Entry{Name: "pack.json", Type: tar.TypeReg, Data: []byte(`{"name":"community.evil.demo"}`)}),
		with("duplicate-prompt", Entry{Name: "prompts/a.md", Type: tar.TypeReg, Data: []byte("evil\n")}),
		with("pax", Entry{Name: "prompts/pax.md", Type: tar.TypeReg, Data: []byte("x"), PAX: map[string]string{"comment": "hi"}}),
		with("long-name", Entry{Name: "prompts/" + strings.Repeat("n", 100) + ".md", Type: tar.TypeReg, Data: []byte("x")}),
		with("too-large", Entry{Name: "big.bin", Type: tar.TypeReg, Data: big}),
		with("directory-entry", Entry{Name: "prompts/", Type: tar.TypeDir}),
		with("dot-slash", Entry{Name: "./notes.md", Type: tar.TypeReg, Data: []byte("x")}),
		with("owned", Entry{Name: "notes.md", Type: tar.TypeReg, Data: []byte("x"), Owned: true}),
		{Name: "manifest-only", Entries: Clean()[:1]},
		{Name: "duplicate-key", Entries: []Entry{
			{Name: "pack.json", Type: tar.TypeReg, Data: []byte(strings.Replace(Manifest, `"name":"community.acme.demo",`, `"name":"community.acme.demo","name":"community.acme.demo",`, 1))},
			{Name: "prompts/a.md", Type: tar.TypeReg, Data: []byte(Prompt)},
		}},
	}
}

// Archive encodes entries as a gzip-compressed tar.
func Archive(entries []Entry) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		hdr := &tar.Header{Name: e.Name, Typeflag: e.Type, Linkname: e.Link, Mode: 0o644, Size: int64(len(e.Data)), PAXRecords: e.PAX, Format: tar.FormatUSTAR}
		if e.Type != tar.TypeReg {
			hdr.Size = 0
		}
		if len(e.PAX) > 0 || len(e.Name) > 100 {
			hdr.Format = tar.FormatPAX
		}
		if e.Owned {
			hdr.Uid, hdr.Uname = 1000, "acme"
			hdr.ModTime = hdr.ModTime.AddDate(2000, 0, 0)
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name, err)
		}
		if hdr.Size > 0 {
			if _, err := tw.Write(e.Data); err != nil {
				return nil, err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteDir writes entries under dir (which it empties first): regular
// files, directories, symbolic links and FIFOs. Writes go through an
// os.Root, so no name or link can reach outside dir; entries a directory
// cannot hold (unsafe names, devices, a file where a directory is, an
// empty link target) are
// left out.
func WriteDir(dir string, entries []Entry) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, e := range entries {
		name := filepath.FromSlash(e.Name)
		if !filepath.IsLocal(name) || root.MkdirAll(filepath.Dir(name), 0o755) != nil {
			continue
		}
		if _, err := root.Lstat(name); err == nil {
			continue // a second entry of the same name: the first stays
		}
		// An entry the file system refuses (an empty link target, a name
		// too long) is left out like the ones above.
		_ = writeEntry(root, filepath.Join(dir, name), name, e)
	}
	return nil
}

func writeEntry(root *os.Root, path, name string, e Entry) error {
	switch e.Type {
	case tar.TypeReg:
		return root.WriteFile(name, e.Data, 0o644)
	case tar.TypeSymlink:
		return root.Symlink(e.Link, name)
	case tar.TypeDir:
		return root.MkdirAll(name, 0o755)
	case tar.TypeFifo:
		return mkfifo(path)
	}
	return nil
}
