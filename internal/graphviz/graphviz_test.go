package graphviz

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocate: $WOP_GRAPHVIZ_HELPER, then the helper beside wop, then PATH.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	beside := filepath.Join(dir, Name)
	if err := os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	exe := func() (string, error) { return filepath.Join(dir, "wop"), nil }
	env := func(v string) func(string) string { return func(string) string { return v } }
	if p, _ := Locate(env("/x/helper"), exe); p != "/x/helper" {
		t.Errorf("with $WOP_GRAPHVIZ_HELPER: %q", p)
	}
	if p, _ := Locate(env(""), exe); p != beside {
		t.Errorf("beside wop: %q", p)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := Locate(env(""), func() (string, error) { return "", errors.New("no") })
	if err == nil || !strings.Contains(err.Error(), "go install github.com/wop-cli/wop/cmd/wop-graphviz") {
		t.Errorf("missing helper: %v", err)
	}
}

// TestRenderRefusesAnotherProtocol: a stale helper's answer is not used.
func TestRenderRefusesAnotherProtocol(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the stand-in helper")
	}
	helper := filepath.Join(t.TempDir(), Name)
	if err := os.WriteFile(helper, []byte("#!/bin/sh\ncat >/dev/null\necho '{\"protocol\":1,\"svg\":\"<svg/>\"}'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Renderer{Helper: helper, CacheDir: t.TempDir()}.Render(t.Context(), []Graph{{Layout: Dot, DOT: "digraph {}"}})
	if err == nil || !strings.Contains(err.Error(), "speaks protocol 1, this wop needs 2") {
		t.Errorf("err = %v", err)
	}
}

func TestRenderNamesAMissingHelper(t *testing.T) {
	_, err := Renderer{Helper: filepath.Join(t.TempDir(), "absent")}.Render(t.Context(), []Graph{{Layout: Dot, DOT: "digraph {}"}})
	if err == nil || !strings.Contains(err.Error(), "cannot be run") || !strings.Contains(err.Error(), "go install") {
		t.Errorf("err = %v", err)
	}
}
