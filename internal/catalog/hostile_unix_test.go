//go:build unix

package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestHostileFolderFilesNeverHang: a catalog folder is someone else's files
// (a registry checkout). A FIFO as a node type's schema, as an index file
// or as a pack's manifest fails at once instead of hanging lint.
func TestHostileFolderFilesNeverHang(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, filepath.Join(dir, "folder"), toolsPack)
	schemaPath := filepath.Join(dir, "folder", "community.acme.tools", "schemas", "send.config.json")
	os.Remove(schemaPath)
	if err := syscall.Mkfifo(schemaPath, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "index.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	filetree.Write(t, filepath.Join(dir, "fifopack"), map[string]string{"community.acme.x/schemas/a.json": "{}"})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifopack", "community.acme.x", "pack.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := loadFolder(filepath.Join(dir, "folder"), "")
		if err != nil {
			t.Error(err)
			return
		}
		n, _ := c.NodeType("community.acme.tools.send")
		if _, ok := c.SchemaURL(n, n.ConfigSchema); ok {
			t.Error("a FIFO was read as a schema")
		}
		if _, err := LoadIndex(filepath.Join(dir, "index.json")); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("FIFO index: %v", err)
		}
		if _, err := loadFolder(filepath.Join(dir, "fifopack"), ""); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("FIFO manifest: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO in a catalog folder hung")
	}
}

// TestHostileHostAndStateNeverHang: a host profile that is a FIFO fails at
// once, and the lint cache's look at a used pack's files (StateFor) skips
// a FIFO among them instead of blocking on it.
func TestHostileHostAndStateNeverHang(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, filepath.Join(dir, "folder"), toolsPack)
	fifo := filepath.Join(dir, "folder", "community.acme.tools", "schemas", "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "host.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := LoadHost(filepath.Join(dir, "host.json")); err == nil {
			t.Error("a FIFO host profile was read")
		}
		c, err := loadFolder(filepath.Join(dir, "folder"), "")
		if err != nil {
			t.Error(err)
			return
		}
		if c.StateFor([]string{"community.acme.tools.send"}) == "" {
			t.Error("a FIFO among a used pack's files made its state unknown")
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("hung on a FIFO")
	}
}
