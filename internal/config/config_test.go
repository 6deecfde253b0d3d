package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, ".wop.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad(t *testing.T) {
	p := write(t, t.TempDir(), `registry: private
schemaBase: https://packs.acme.dev
rules:
  name-scope-core: off
  schema-id-missing:
    severity: error
    ignore: ["legacy/**", "schemas/old-*.json"]
limits:
  manifest: 512KB
  file: 10MB
  pack: 200MB
`)
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Registry != "private" || c.Rules["name-scope-core"].Severity != "off" || c.Rules["schema-id-missing"].Severity != "error" {
		t.Errorf("%+v", c)
	}
	m, f, pk, _ := c.Limits.Bytes()
	if m != 512<<10 || f != 10<<20 || pk != 200<<20 {
		t.Errorf("limits %d %d %d", m, f, pk)
	}
}

func TestLoadRefuses(t *testing.T) {
	for body, want := range map[string]string{
		"registy: public\n":                  "line 1: field registy not found",
		"rules:\n  x:\n    severty: error\n": "field severty not found",
		"registry: galactic\n":               `registry "galactic"`,
		"limits:\n  file: lots\n":            `size "lots"`,
	} {
		_, err := Load(write(t, t.TempDir(), body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
	if _, err := Load(write(t, t.TempDir(), "")); err != nil {
		t.Errorf("empty file: %v", err)
	}
}

func TestFindWalksUp(t *testing.T) {
	root := t.TempDir()
	p := write(t, root, "registry: public\n")
	deep := filepath.Join(root, "packs", "a")
	os.MkdirAll(deep, 0o755)
	if got, err := Find(deep); err != nil || got != p {
		t.Errorf("Find = %q, %v", got, err)
	}
}

func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		glob, path string
		want       bool
	}{
		{"legacy/**", "legacy/a/pack.json", true},
		{"**/pack.json", "packs/a/pack.json", true},
		{"**/pack.json", "pack.json", true},
		{"schemas/*.json", "schemas/a.json", true},
		{"schemas/*.json", "schemas/x/a.json", false},
		{"a?.md", "ab.md", true},
	} {
		g, err := CompileGlob(tt.glob)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("Match(%q, %q) = %v", tt.glob, tt.path, got)
		}
	}
}
