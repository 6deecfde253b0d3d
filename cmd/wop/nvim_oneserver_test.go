package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNeovimOneServer opens three files of a pack in a headless Neovim
// configured by the README's init.lua and checks one `wop lsp` serves
// them all (a server per buffer published the disk's findings over the
// unsaved buffer's) and that each buffer completes with the server and
// has K and gd. It runs where nvim is installed and is skipped elsewhere.
func TestNeovimOneServer(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed")
	}
	if _, err := exec.LookPath("wop"); err != nil {
		t.Fatal(err)
	}
	initLua := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(initLua, []byte(readmeBlock(t, "nvim")), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("testdata/nvim/oneserver.lua")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "text-tools")
	if err := os.CopyFS(dir, os.DirFS("../../examples/community.example.text-tools")); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "pack.json")
	raw, _ := os.ReadFile(manifest)
	if err := os.WriteFile(manifest, []byte(strings.Replace(string(raw), `"schemas/uppercase.input.json"`, `"schemas/missing.json"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.txt")
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
	want := "servers 1\n" +
		"pack.json omnifunc=v:lua.vim.lsp.omnifunc K=true gd=true\n" +
		"uppercase.input.json omnifunc=v:lua.vim.lsp.omnifunc K=true gd=true\n" +
		"README.md omnifunc=v:lua.vim.lsp.omnifunc K=true gd=true\n"
	if string(got) != want {
		t.Errorf("Neovim:\n%s\nwant:\n%s", got, want)
	}
}

// TestNeovimWithoutWop: the README's Neovim 0.7 snippet in an editor where
// wop is not on PATH opens files without a Lua error (start_client returns
// nil, and the snippet stops there).
func TestNeovimWithoutWop(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed")
	}
	initLua := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(initLua, []byte(readmeBlock(t, "nvim")), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir() // nvim alone on PATH
	if err := os.Symlink(nvim, filepath.Join(bin, "nvim")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", initLua, "-i", "NONE", "-n", "pack.json", "+lua io.stdout:write(vim.v.errmsg)", "+qa!")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin, "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "E5108") || strings.Contains(string(out), "expected number") {
		t.Errorf("nvim without wop: %v\n%s", err, out)
	}
}
