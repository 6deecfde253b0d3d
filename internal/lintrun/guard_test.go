package lintrun

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestGateOptionsHoldEnforcedRules: at every gate an enforced rule keeps
// its severity and loses its ignores whatever the configuration says
// (raising stays); other rules keep the configuration's, and under
// GateGuard are off.
func TestGateOptionsHoldEnforcedRules(t *testing.T) {
	glob, err := config.CompileGlob("pack.json")
	if err != nil {
		t.Fatal(err)
	}
	opt := lint.Options{
		Severities: map[string]diag.Severity{
			"manifest-schema":  diag.Off,
			"placeholder-left": diag.Info,
			"json-invalid":     diag.Warning,
			"symlink-in-pack":  diag.Error, // a raise: already its severity
			"ref-missing":      diag.Warning,
		},
		Ignores: map[string][]config.Glob{"manifest-schema": {glob}, "ref-missing": {glob}},
	}
	for _, tt := range []struct {
		gate        Gate
		placeholder diag.Severity
		refMissing  diag.Severity
		refIgnored  bool
	}{
		{GateBuild, diag.Warning, diag.Warning, true},
		{GatePublish, diag.Error, diag.Warning, true},
		{GateGuard, diag.Error, diag.Off, false},
	} {
		got := tt.gate.Options(opt)
		for id, want := range map[string]diag.Severity{"manifest-schema": diag.Error, "json-invalid": diag.Error, "symlink-in-pack": diag.Error,
			"placeholder-left": tt.placeholder, "ref-missing": tt.refMissing} {
			if got.Severities[id] != want {
				t.Errorf("gate %d: %s is %v, want %v", tt.gate, id, got.Severities[id], want)
			}
		}
		if _, ok := got.Ignores["manifest-schema"]; ok {
			t.Errorf("gate %d kept the ignore of manifest-schema", tt.gate)
		}
		if _, ok := got.Ignores["ref-missing"]; ok != tt.refIgnored {
			t.Errorf("gate %d: ref-missing's ignore kept %v, want %v", tt.gate, ok, tt.refIgnored)
		}
		if tt.gate == GateGuard && got.Severities["license-not-spdx"] != diag.Off {
			t.Error("GateGuard runs a style rule")
		}
	}
	if opt.Severities["manifest-schema"] != diag.Off || len(opt.Ignores) != 2 {
		t.Error("Options changed the caller's maps")
	}
	if GateOff.Options(opt).Severities["manifest-schema"] != diag.Off {
		t.Error("GateOff changed the options")
	}
	// A configuration that lowers no enforced rule: build lints with
	// lint's own options, so a build after lint finds its cached verdict.
	for _, plain := range []lint.Options{{}, {Severities: map[string]diag.Severity{"ref-missing": diag.Warning, "json-invalid": diag.Error}}} {
		if got := GateBuild.Options(plain); !reflect.DeepEqual(got, plain) {
			t.Errorf("GateBuild.Options(%v) = %v, want them unchanged", plain.Severities, got.Severities)
		}
	}
}

// TestGateFor: publish --no-lint keeps the guard rules; build --no-lint
// lints nothing.
func TestGateFor(t *testing.T) {
	for _, tt := range []struct {
		noLint, publishing bool
		want               Gate
	}{{false, false, GateBuild}, {true, false, GateOff}, {false, true, GatePublish}, {true, true, GateGuard}} {
		if got := GateFor(tt.noLint, tt.publishing); got != tt.want {
			t.Errorf("GateFor(%v, %v) = %v, want %v", tt.noLint, tt.publishing, got, tt.want)
		}
	}
}

// gatePack writes the trial pack (an agent's modelClass misspelt,
// a license lint would correct) with cfg as its .wop.yaml, and returns it
// loaded with its settings.
func gatePack(t *testing.T, cfg string) (*Env, *pack.Pack, *Settings, *bytes.Buffer) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "community.acme.demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"name": "community.acme.demo", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"}, "license": "Apache 2",
 "runtime": {"language": "remote", "entry": "pack.json"},
 "agents": [{"agentId": "community.acme.demo.a", "persona": "A", "modelClass": "reasonin", "systemPrompt": "Hi."}]}
`
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".wop.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	env := testEnv(root)
	env.ErrOut = &out
	s, err := SettingsFor(env, "", dir, lint.Options{}, NewSettingsMemo(), nil)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	pk.Display = "community.acme.demo"
	return env, pk, s, &out
}

// TestCheckNamesTheEntry: an ignore or a lowered severity of an enforced
// rule stops build and publish, naming the .wop.yaml entry and the finding
// it would have hidden; the warnings are printed before, or not with Quiet.
func TestCheckNamesTheEntry(t *testing.T) {
	for _, tt := range []struct{ cfg, entry string }{
		{"rules:\n  manifest-schema:\n    ignore:\n      - pack.json\n", "community.acme.demo/.wop.yaml:3:5: rules.manifest-schema.ignore cannot hide manifest-schema at "},
		{"rules:\n  manifest-schema: warning\n", "community.acme.demo/.wop.yaml:2:20: rules.manifest-schema: warning cannot lower manifest-schema at "},
		{"rules:\n  manifest-schema:\n    severity: off\n", "community.acme.demo/.wop.yaml:3:5: rules.manifest-schema.severity: off cannot lower manifest-schema at "},
		// A deprecated id reads as its replacement; the entry is named as written.
		{"rules:\n  kind-schema-unavailable: off\n", "community.acme.demo/.wop.yaml:2:28: rules.kind-schema-unavailable: off cannot lower manifest-schema at "},
	} {
		for _, g := range []Gate{GateBuild, GatePublish, GateGuard} {
			env, pk, s, out := gatePack(t, tt.cfg)
			err := g.Check(env, pk, s, Show{})
			var gateErr *GateError
			if !errors.As(err, &gateErr) {
				t.Fatalf("%q gate %d: %v, want a refusal", tt.cfg, g, err)
			}
			first, _, _ := strings.Cut(err.Error(), "\n")
			wantFinding := `: community.acme.demo/pack.json:3:80: "reasonin" is not allowed here; did you mean "reasoning"?`
			if !strings.HasPrefix(first, tt.entry) || !strings.Contains(first, wantFinding) {
				t.Errorf("%q gate %d: refusal %q, want %q...%q", tt.cfg, g, first, tt.entry, wantFinding)
			}
			if !strings.Contains(gateErr.Hint(), "remove the entry from .wop.yaml") {
				t.Errorf("hint %q does not say to remove the entry", gateErr.Hint())
			}
			printed := out.String()
			if !strings.Contains(printed, "error manifest-schema") {
				t.Errorf("gate %d did not print the finding:\n%s", g, printed)
			}
			if style := strings.Contains(printed, "warning license-not-spdx"); style != (g != GateGuard) {
				t.Errorf("gate %d printed the style warning %v:\n%s", g, style, printed)
			}
		}
	}
	env, pk, s, out := gatePack(t, "rules:\n  manifest-schema:\n    ignore: [pack.json]\n")
	if err := GateBuild.Check(env, pk, s, Show{Quiet: true}); err == nil {
		t.Fatal("Quiet let the ignore through")
	}
	if strings.Contains(out.String(), "warning") || !strings.Contains(out.String(), "error manifest-schema") {
		t.Errorf("Quiet printed:\n%s\nwant the error alone", out.String())
	}
}

// TestCheckShowsWarnings: a pack with warnings only builds, and the gate
// prints them and lint's summary line, what .wop.yaml ignored counted.
func TestCheckShowsWarnings(t *testing.T) {
	env, pk, s, out := gatePack(t, "rules:\n  license-not-spdx:\n    ignore: [pack.json]\n  placeholder-left: off\n")
	raw, _ := os.ReadFile(filepath.Join(pk.Dir, "pack.json"))
	raw = bytes.Replace(raw, []byte(`"reasonin"`), []byte(`"reasoning"`), 1)
	pk.Overlay(map[string][]byte{"pack.json": bytes.Replace(raw, []byte(`"persona": "A"`), []byte(`"persona": "TODO: persona"`), 1)})
	if err := GateBuild.Check(env, pk, s, Show{}); err != nil {
		t.Fatal(err)
	}
	want := `community.acme.demo/pack.json:3:61: warning placeholder-left: persona still holds the placeholder 'wop pack init' wrote ("TODO: persona"); write the real text
0 errors, 1 warning, 0 info in 1 pack (1 ignored by .wop.yaml)
`
	if out.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestLintWarnsOfOverrides: lint honours the ignore of an enforced rule but
// says, at its line, that build and publish will not; a rule it does not
// lower (a raise) and a style rule's ignore get no warning.
func TestLintWarnsOfOverrides(t *testing.T) {
	cfg := "rules:\n  manifest-schema:\n    ignore: [pack.json]\n  json-invalid: error\n  license-not-spdx:\n    ignore: [pack.json]\n"
	env, pk, _, out := gatePack(t, cfg)
	out.Reset()
	res, err := Run(t.Context(), env, Options{Paths: []string{pk.Display}, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diags) != 0 || res.Ignored != 2 {
		t.Errorf("lint = %s, %d ignored; want nothing left, 2 ignored", rulesOf(res.Diags), res.Ignored)
	}
	want := "community.acme.demo/.wop.yaml:3:5: warning: rules.manifest-schema.ignore holds for lint only: manifest-schema is enforced (what must never reach a registry), so build and publish report its findings whatever .wop.yaml says; fix them instead\n"
	if out.String() != want {
		t.Errorf("lint printed:\n%s\nwant:\n%s", out.String(), want)
	}
}
