package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
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
  entries: 20000
`)
	c, err := Load(p, Options{})
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
	if n, err := c.Limits.EntryCount(); n != 20000 || err != nil {
		t.Errorf("limits.entries %d %v", n, err)
	}
	if _, err := Load(write(t, t.TempDir(), ""), Options{}); err != nil {
		t.Errorf("empty file: %v", err)
	}
}

// TestParseReportsEverythingInYAMLTerms: one run names every mistake, with
// its line, column and YAML path, and never a Go type.
func TestParseReportsEverythingInYAMLTerms(t *testing.T) {
	body := `registy: public
registry: galactic
rules:
  ref-mising: error
  schema-id-missing:
    severty: error
  json-invalid: [error]
  json-duplicate-key:
    severity: loud
    ignore: "not a list"
limits:
  file: lots
  pack: {a: 1}
schemaBase: [x]
`
	known := func(id string) (bool, string, bool) {
		if id == "ref-mising" {
			return false, "ref-missing", true
		}
		return true, "", false
	}
	_, err := Parse(".wop.yaml", []byte(body), Options{Rule: known})
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("got %v", err)
	}
	want := []string{
		`.wop.yaml:1:1: unknown key "registy"; did you mean "registry"?`,
		`.wop.yaml:6:5: rules.schema-id-missing: unknown key "severty"; did you mean "severity"?`,
		`.wop.yaml:7:17: rules.json-invalid: expected a severity (off, info, warning, error) or a mapping with severity and ignore, got a list`,
		`.wop.yaml:10:13: rules.json-duplicate-key.ignore: expected a list, got the string "not a list"`,
		`.wop.yaml:13:9: limits.pack: expected a string, got a mapping`,
		`.wop.yaml:14:13: schemaBase: expected a string, got a list`,
		`.wop.yaml:2:11: registry: "galactic": want public or private`,
		`.wop.yaml:4:3: rules: no rule "ref-mising"`,
		`.wop.yaml:12:9: limits.file: size "lots"`,
	}
	got := err.Error()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	for _, goType := range []string{"!!", "[]string", "map[", "config.", "struct", "unmarshal"} {
		if strings.Contains(got, goType) {
			t.Errorf("message names a Go type (%s):\n%s", goType, got)
		}
	}
	// Values are checked once the shape is right, all of them too.
	_, err = Parse(".wop.yaml", []byte("registry: galactic\nrules:\n  ref-mising: error\n  json-invalid: loud\nlimits:\n  file: lots\n  pack: 3 parsecs\n  entries: many\n"), Options{Rule: known})
	for _, w := range []string{
		`1:11: registry: "galactic": want public or private`,
		`3:3: rules: no rule "ref-mising"; did you mean "ref-missing"?`,
		`4:17: rules.json-invalid: unknown severity "loud"`,
		`6:9: limits.file: size "lots"`,
		`7:9: limits.pack: size "3 parsecs"`,
		`8:12: limits.entries: entries "many": write a whole number of files above zero`,
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in\n%v", w, err)
		}
	}
}

func TestFind(t *testing.T) {
	me := os.Getuid()
	if me < 0 {
		t.Skip("no file owners here")
	}
	type tree struct {
		config, git, home string // directories (relative) holding them; "" = none
	}
	tests := []struct {
		name    string
		tree    tree
		d       Discovery
		want    string // relative dir of the config found; "-" none
		ignored bool
	}{
		{"walks up", tree{config: "."}, Discovery{UID: me}, ".", false},
		{"next to the pack", tree{config: "packs/a"}, Discovery{UID: me}, "packs/a", false},
		{"stops at the repository root", tree{config: ".", git: "packs"}, Discovery{UID: me}, "-", false},
		{"the repository root's own", tree{config: "packs", git: "packs"}, Discovery{UID: me}, "packs", false},
		{"stops at home", tree{config: ".", home: "packs"}, Discovery{UID: me}, "-", false},
		{"another user's is ignored", tree{config: "."}, Discovery{UID: me + 1000}, "-", true},
		{"unless its directory is safe", tree{config: "."}, Discovery{UID: me + 1000, SafeDirs: []string{"ROOT"}}, ".", false},
		{"or every directory is", tree{config: "."}, Discovery{UID: me + 1000, SafeDirs: []string{"*"}}, ".", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			pk := filepath.Join(root, "packs", "a")
			os.MkdirAll(pk, 0o755)
			write(t, filepath.Join(root, tt.tree.config), "registry: public\n")
			if tt.tree.git != "" {
				os.Mkdir(filepath.Join(root, tt.tree.git, ".git"), 0o755)
			}
			if tt.tree.home != "" {
				tt.d.Home = filepath.Join(root, tt.tree.home)
			}
			for i, s := range tt.d.SafeDirs {
				if s == "ROOT" {
					tt.d.SafeDirs[i] = root
				}
			}
			if me == 0 && tt.ignored { // root's files count as trusted: own the file by someone else
				os.Chown(filepath.Join(root, ".wop.yaml"), 4242, 4242)
			}
			got, err := Find(pk, tt.d)
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tt.want != "-" {
				want = filepath.Join(root, tt.want, ".wop.yaml")
			}
			if got.Path != want || (got.Ignored != "") != tt.ignored {
				t.Errorf("Find = %+v, want %q (ignored %v)", got, want, tt.ignored)
			}
			if tt.ignored && !strings.Contains(got.Warning(), "WOP_SAFE_DIRECTORIES") {
				t.Errorf("warning %q", got.Warning())
			}
		})
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

// TestProblemFixes: a did-you-mean in a configuration carries the
// replacement of the key's bytes, in its quoting; Fixable only when no
// other candidate was as close.
func TestProblemFixes(t *testing.T) {
	known := func(id string) (bool, string, bool) {
		switch id {
		case "placeholder-lef":
			return false, "placeholder-left", true
		case "ref-mis":
			return false, "ref-missing", false // a tie: the editor offers it, --fix leaves it
		}
		return true, "", false
	}
	tests := []struct {
		name, src, want string
		fixable         bool
	}{
		{"rule id", "rules:\n  placeholder-lef: off\n", "rules:\n  placeholder-left: off\n", true},
		{"quoted rule id", "rules:\n  'placeholder-lef': {severity: off}\n", "rules:\n  'placeholder-left': {severity: off}\n", true},
		{"rule id with a rival", "rules:\n  ref-mis: off\n", "rules:\n  ref-missing: off\n", false},
		{"top-level key", "registy: private\n", "registry: private\n", true},
		{"severity", "rules:\n  placeholder-left: of\n", "rules:\n  placeholder-left: off\n", true},
		{"severity in an entry", "rules:\n  placeholder-left: {severity: warnng}\n", "rules:\n  placeholder-left: {severity: warning}\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(".wop.yaml", []byte(tt.src), Options{Rule: known})
			var ce *Error
			if !errors.As(err, &ce) || len(ce.Problems) != 1 {
				t.Fatalf("Parse: %v, want one problem", err)
			}
			p := ce.Problems[0]
			if p.Fix.IsZero() || p.Fixable != tt.fixable {
				t.Fatalf("problem %+v: want a fix, fixable %v", p, tt.fixable)
			}
			if got := tt.src[:p.Fix.Start] + p.Fix.Text + tt.src[p.Fix.End:]; got != tt.want || tt.src[p.Fix.Start:p.Fix.End] != p.Fix.Was {
				t.Errorf("fixed: %q, want %q", got, tt.want)
			}
		})
	}
}

// TestProblemNoGuessNotFixable: an unknown key with nothing near enough to
// name gets no "did you mean" and is not labelled fixable (it was, as
// "k: 1" was one edit past the cut-off from "host": lint --fix then did
// nothing the label promised).
func TestProblemNoGuessNotFixable(t *testing.T) {
	_, err := Parse(".wop.yaml", []byte("k: 1\n"), Options{})
	var ce *Error
	if !errors.As(err, &ce) || len(ce.Problems) != 1 {
		t.Fatalf("Parse: %v, want one problem", err)
	}
	p := ce.Problems[0]
	if p.Fixable || !p.Fix.IsZero() || strings.Contains(p.String(), "fixable") || strings.Contains(p.String(), "did you mean") {
		t.Errorf("problem %q (fixable %v, fix %+v): want no guess and no fix", p.String(), p.Fixable, p.Fix)
	}
}

// TestLoadDiscoveredLinkRefused: a .wop.yaml that discovery finds is not
// followed through a symbolic link (a checkout's link to /etc/shadow was
// read, and its lines printed as unknown keys); the same link named
// explicitly (no Want: --config, WOP_CONFIG) is the user's choice.
func TestLoadDiscoveredLinkRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("root:$6$hash:19000:0:99999:7::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".wop.yaml")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	found, err := Find(dir, Discovery{UID: os.Getuid()})
	if err != nil || found.Path != link {
		t.Fatalf("Find: %+v, %v", found, err)
	}
	_, err = Load(found.Path, Options{Want: &found.ID})
	if err == nil || !strings.Contains(err.Error(), "a symbolic link") || strings.Contains(err.Error(), "$6$hash") {
		t.Errorf("discovered link: %v, want refused without its target's text", err)
	}
	if _, err := Load(link, Options{}); err == nil || !strings.Contains(err.Error(), "$6$hash") {
		t.Errorf("explicit link: %v, want it read (and its unknown key named)", err)
	}
}

// TestErrorWithoutLine: a problem the YAML library places nowhere (a
// document nested past its depth limit) reads "file: message", not
// ".wop.yaml:not valid YAML".
func TestErrorWithoutLine(t *testing.T) {
	src := "rules: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"
	_, err := Parse(".wop.yaml", []byte(src), Options{})
	if err == nil || !strings.HasPrefix(err.Error(), ".wop.yaml: not valid YAML: ") {
		t.Errorf("Parse: %v, want .wop.yaml: not valid YAML: ...", err)
	}
}
