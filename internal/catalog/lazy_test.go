package catalog

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestLazyFolder: with Lazy, a folder whose snapshot is cached reads its
// facts only when a method asks about them, and they are the facts an
// eager read gives; Len says the size without reading them. A snapshot
// whose packs no longer decode (the header alone intact) falls back to
// the manifests.
func TestLazyFolder(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	filetree.Write(t, dir, toolsPack)
	open := func() *Catalog {
		t.Helper()
		c, err := Open(t.Context(), dir, Options{CacheDir: cache, Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	eager := open() // no snapshot yet: read at once
	if len(eager.Packs) == 0 || eager.lazy != nil {
		t.Fatal("the first open had no snapshot to defer to, yet read nothing")
	}
	check := func(step string) {
		t.Helper()
		c := open()
		if len(c.Packs) != 0 || c.Len() != len(eager.Packs) {
			t.Fatalf("%s: before any question: %d packs read, Len %d, want 0 and %d", step, len(c.Packs), c.Len(), len(eager.Packs))
		}
		if !c.HasType("community.acme.tools.send") {
			t.Fatalf("%s: the facts were not read on first need", step)
		}
		if !reflect.DeepEqual(c.Packs, eager.Packs) || !reflect.DeepEqual(c.NodeTypes(), eager.NodeTypes()) {
			t.Errorf("%s: lazy facts differ:\n%+v\n%+v", step, c.Packs, eager.Packs)
		}
	}
	check("snapshot")

	snaps, _ := filepath.Glob(filepath.Join(cache, "catalog", "folder-*"+snapshotExt))
	if len(snaps) != 1 {
		t.Fatalf("snapshots = %v", snaps)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(snapshotHeader{Packs: len(eager.Packs)}); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("not the packs")
	if err := os.WriteFile(snaps[0], buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	check("snapshot body broken")
}

// TestLazyFolderWithBrokenPack: a folder with a broken manifest stores no
// snapshot, so a lazy open reads it at once and warns every time.
func TestLazyFolderWithBrokenPack(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	filetree.Write(t, dir, toolsPack)
	filetree.Write(t, dir, map[string]string{"p3/pack.json": "{\n  \"name\": garbage\n}\n"})
	for run := range 2 {
		c, err := Open(t.Context(), dir, Options{CacheDir: cache, Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		if c.lazy != nil || c.Skipped != 1 || len(c.Warnings) != 1 {
			t.Errorf("run %d: lazy %v, skipped %d, warnings %q", run, c.lazy != nil, c.Skipped, c.Warnings)
		}
	}
}

// TestLazyMerge: a lazy folder merged with a host profile (pre-commit with
// `host:` in .wop.yaml) reads no pack's facts until a question needs them,
// and a second run whose StateFor is remembered reads none at all; the
// answers are those of an eager merge.
func TestLazyMerge(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	filetree.Write(t, dir, toolsPack)
	h, err := ParseHost([]byte(refHost))
	if err != nil {
		t.Fatal(err)
	}
	open := func() (*Catalog, *Catalog) {
		t.Helper()
		c, err := Open(t.Context(), dir, Options{CacheDir: cache, Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		return c, WithHosts(c, h)
	}
	eagerSrc, eager := open() // no snapshot yet: the folder is read at once
	ids := []string{"community.acme.tools.send", "feature.notify.nodes.notify"}
	want := eager.StateFor(ids)
	if want == "" || len(eagerSrc.Packs) == 0 {
		t.Fatalf("eager: state %q, %d packs", want, len(eagerSrc.Packs))
	}
	for run := range 2 {
		src, m := open()
		if len(src.Packs) != 0 || len(m.Packs) != 0 {
			t.Fatalf("run %d: the merge read the facts when made (%d, %d packs)", run, len(src.Packs), len(m.Packs))
		}
		got := m.StateFor(ids)
		if run == 1 && (len(src.Packs) != 0 || len(m.Packs) != 0) {
			t.Errorf("run %d: a remembered StateFor read the facts", run)
		}
		if got != want {
			t.Errorf("run %d: StateFor = %q, want %q", run, got, want)
		}
		if !m.HasType("community.acme.tools.send") || !m.HasType("feature.notify.nodes.notify") {
			t.Fatalf("run %d: the lazy merge lacks a node type", run)
		}
		if !reflect.DeepEqual(m.AllPacks(), eager.AllPacks()) || !reflect.DeepEqual(m.NodeTypes(), eager.NodeTypes()) {
			t.Errorf("run %d: lazy merge facts differ:\n%+v\n%+v", run, m.Packs, eager.Packs)
		}
	}
}
