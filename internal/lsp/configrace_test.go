package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
)

// TestConfigChangedWhileSettingsMade: a .wop.yaml written while a pack's
// settings are being made (they read the disk before it changed) leaves
// nothing stale behind: what was made is not kept, and the next request
// makes the settings again and applies the file. The change is announced
// before any settings of the pack are cached, so only the generation
// tells that the result is stale.
func TestConfigChangedWhileSettingsMade(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(`{"name": "community.acme.p", "version": "1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &lintrun.Env{WorkDir: root, Getenv: func(string) string { return "" }}
	config := filepath.Join(root, ".wop.yaml")
	c := newPackCache()
	made := 0
	mk := func() settingsEntry {
		made++
		s, err := lintrun.SettingsFor(env, "", dir, lint.Options{}, lintrun.NewSettingsMemo(), nil)
		if made == 1 { // the editor saves .wop.yaml now, after the settings read the disk
			if err := os.WriteFile(config, []byte("rules:\n  engines-range-unbounded: off\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			c.fileChanged(config)
		}
		return settingsEntry{s: s, err: err}
	}
	first := remember(c, c.settings, dir, mk)
	if first.err != nil || first.s.ConfigPath != "" {
		t.Fatalf("first settings: %+v", first)
	}
	if _, kept := c.settings[dir]; kept {
		t.Fatal("settings made across a .wop.yaml change are kept")
	}
	second := remember(c, c.settings, dir, mk)
	if made != 2 || second.err != nil || second.s.ConfigPath != config {
		t.Errorf("after the change: made %d times, settings %+v; want the file %s applied", made, second.s, config)
	}
}
