package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNeovimShowsDiagnostics opens a broken pack.json in a headless Neovim
// configured by the README's init.lua (which starts `wop lsp`), and checks
// Neovim's diagnostics are wop's. It runs where nvim is installed
// (apt-get install neovim) and is skipped elsewhere.
func TestNeovimShowsDiagnostics(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed")
	}
	if _, err := exec.LookPath("wop"); err != nil { // TestMain's copy of this binary, which the README's init.lua starts
		t.Fatal(err)
	}
	initLua := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(initLua, []byte(readmeBlock(t, "nvim")), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("testdata/nvim/diagnostics.lua")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "text-tools")
	if err := os.CopyFS(dir, os.DirFS("../../examples/community.example.text-tools")); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "pack.json")
	raw, _ := os.ReadFile(manifest)
	broken := strings.Replace(string(raw), `"schemas/uppercase.input.json"`, `"schemas/missing.json"`, 1)
	if err := os.WriteFile(manifest, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "diagnostics.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", initLua, "-i", "NONE", "-n", "-c", "luafile "+script, "pack.json")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NVIM_OUT="+out, "WOP_CACHE_DIR=off", "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	if log, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, log)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(broken[:strings.Index(broken, `"schemas/missing.json"`)], "\n")
	want := "wop ref-missing nodes[0].inputSchemaRef"
	if !strings.Contains(string(got), want) || !strings.HasPrefix(string(got), fmt.Sprintf("%d:", line)) {
		t.Errorf("Neovim's diagnostics:\n%s\nwant %q on line %d", got, want, line)
	}
}
