package agf_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	. "github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

// lintFile lints src as a.agf.yaml with the registry's rules, next to
// the sub-agent files the fixtures name, and keeps a.agf.yaml's findings.
func lintFile(t *testing.T, src string, strict bool) []diag.Diagnostic {
	t.Helper()
	return lintFiles(t, map[string]string{"a.agf.yaml": src, "drafter.agf.yaml": "x", "checker.agf.yaml": "x"}, "a.agf.yaml", strict)
}

// lintFiles lints the named file among files and keeps its findings.
func lintFiles(t *testing.T, files map[string]string, name string, strict bool) []diag.Diagnostic {
	t.Helper()
	ds, err := lint.AgentFormat([]string{name}, memSource(files), lint.AgentFormatOptions{Strict: strict})
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(ds, func(d diag.Diagnostic) bool { return d.File != name })
}

func memSource(files map[string]string) Source {
	return Source{
		Read: func(name string) ([]byte, error) {
			if d, ok := files[name]; ok {
				return []byte(d), nil
			}
			return nil, fs.ErrNotExist
		},
		Display: func(name string) string { return name },
	}
}

func TestValidFilesAreClean(t *testing.T) {
	for _, f := range []string{"react.agf.yaml", "team.agf.yaml"} {
		if ds := lintFile(t, base(t, f), true); len(ds) != 0 {
			t.Errorf("%s: %+v", f, ds)
		}
	}
}

// seqPolicy is team.agf.yaml's policy, for cases that swap it.
const seqPolicy = "  id: agf.sequential\n  config:\n    steps:\n      - agent: drafter\n        input_mapping:\n          text: parent.input.text\n      - agent: checker\n        input_mapping:\n          draft: drafter.output.text\n    output_from: checker\n"

// Each case edits a valid file and must fire its rule at the given line.
func TestRules(t *testing.T) {
	react, team := base(t, "react.agf.yaml"), base(t, "team.agf.yaml")
	tests := []struct {
		rule, file, old, new string
		line                 int
		sev                  diag.Severity
	}{
		{"agf-yaml-invalid", react, "  id: ticket_triager\n", "  id: ticket_triager\n  id: again\n", 4, diag.Error},
		{"agf-schema", react, "    model: gpt-4o\n", "", 32, diag.Error},
		{"agf-alias-duplicate", react, "  mcp_servers:\n    - alias: kb", "  mcp_servers:\n    - alias: kb\n      server_ref: x\n    - alias: kb", 28, diag.Error},
		{"agf-step-unknown-agent", team, "      - agent: checker\n", "      - agent: chekcer\n", 23, diag.Error},
		{"agf-step-unknown-agent", team, "    output_from: checker\n", "    output_from: reviewer\n", 26, diag.Error},
		{"agf-path-invalid", team, "drafter.output.text", "drafter.result.text", 25, diag.Error},
		{"agf-path-invalid", team, "drafter.output.text", "editor.output.text", 25, diag.Error},
		{"agf-batch-no-iteration", team, "  id: agf.sequential\n  config:\n    steps:\n      - agent: drafter\n        input_mapping:\n          text: parent.input.text\n      - agent: checker\n        input_mapping:\n          draft: drafter.output.text\n    output_from: checker\n",
			"  id: agf.batch\n  config:\n    agent: drafter\n    input_mapping:\n      text: parent.input.text\n", 21, diag.Error},
		{"agf-policy-unknown", react, "  id: agf.react", "  id: agf.reactive", 30, diag.Error},
		{"agf-policy-unknown", react, "  id: agf.react\n  config:\n", "  id: mycorp.react\n  config:\n", 30, diag.Error},
		{"agf-source-missing", team, "source: checker.agf.yaml", "source: missing.agf.yaml", 15, diag.Error},
		{"agf-conditional-no-default", team, "  id: agf.sequential\n  config:\n    steps:\n      - agent: drafter\n        input_mapping:\n          text: parent.input.text\n      - agent: checker\n        input_mapping:\n          draft: drafter.output.text\n    output_from: checker\n",
			"  id: agf.conditional\n  config:\n    routes:\n      - when: {args_match: {parent.input.text: {pattern: \"^draft\"}}}\n        agent: drafter\n", 19, diag.Warning},
		{"agf-pattern-invalid", team, "  id: agf.sequential\n  config:\n    steps:\n      - agent: drafter\n        input_mapping:\n          text: parent.input.text\n      - agent: checker\n        input_mapping:\n          draft: drafter.output.text\n    output_from: checker\n",
			"  id: agf.conditional\n  config:\n    default_agent: checker\n    routes:\n      - when: {args_match: {parent.input.text: {pattern: \"(unclosed\"}}}\n        agent: drafter\n", 21, diag.Error},
		{"agf-unknown-field", react, "    max_steps: 5\n", "    max_step: 5\n", 37, diag.Warning},
		{"agf-renamed-key", react, "allowed_tools: [search]", "allow_tools: [search]", 28, diag.Error},
		{"agf-version-not-semver", react, "version: \"1.2.0\"", "version: \"v1.2\"", 5, diag.Warning},
		// issue 15: checks the spec prose implies
		{"agf-yaml-invalid", react, "    max_steps: 5\n", "    max_steps: 5\n---\nschema_version: \"1.0.0\"\n", 38, diag.Error},
		{"agf-schema-version", react, `schema_version: "1.0.0"`, `schema_version: "2.0.0"`, 1, diag.Error},
		{"agf-schema-version", react, `schema_version: "1.0.0"`, `schema_version: "1.1.0"`, 1, diag.Warning},
		{"agf-interface-invalid", react, "    required: [area, urgency]\n", "    required: area\n", 20, diag.Error},
		{"agf-interface-invalid", react, "      ticket: {type: string, description: The customer's message.}\n", "      ticket: {$ref: \"#/$defs/missing\"}\n", 11, diag.Error},
		{"agf-path-unavailable", team, "text: parent.input.text", "text: checker.output.text", 22, diag.Error},
		{"agf-path-unavailable", team, "draft: drafter.output.text", "draft: checker.output.text", 25, diag.Error},
		{"agf-path-unavailable", team, seqPolicy, "  id: agf.parallel\n  config:\n    agents:\n      - agent: drafter\n        input_mapping:\n          text: checker.output.text\n      - agent: checker\n", 22, diag.Error},
		{"agf-path-unavailable", team, seqPolicy, "  id: agf.batch\n  config:\n    agent: drafter\n    input_mapping:\n      text: drafter.output.items.[].text\n", 21, diag.Error},
		{"agf-path-unavailable", team, seqPolicy, "  id: agf.conditional\n  config:\n    default_agent: checker\n    routes:\n      - when: {args_match: {checker.output.ok: true}}\n        agent: drafter\n", 21, diag.Error},
		{"agf-output-from-not-step", team, "      - agent: checker\n        input_mapping:\n          draft: drafter.output.text\n", "", 23, diag.Error},
		{"agf-path-invalid", team, "text: parent.input.text", "text: parent.input.[]", 22, diag.Error},
		{"agf-pattern-unchecked", team, seqPolicy, "  id: agf.conditional\n  config:\n    default_agent: checker\n    routes:\n      - when: {args_match: {parent.input.text: {pattern: \"^(?=.*x)\"}}}\n        agent: drafter\n", 21, diag.Info},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			if !strings.Contains(tt.file, tt.old) {
				t.Fatalf("fixture lacks %q", tt.old)
			}
			ds := lintFile(t, strings.Replace(tt.file, tt.old, tt.new, 1), false)
			var hit *diag.Diagnostic
			for i := range ds {
				if ds[i].Rule == tt.rule {
					hit = &ds[i]
				}
			}
			if hit == nil {
				t.Fatalf("%s did not fire: %+v", tt.rule, ds)
			}
			if hit.Start.Line != tt.line || hit.Severity != tt.sev {
				t.Errorf("%s at line %d (%s), want line %d (%s): %s", tt.rule, hit.Start.Line, hit.Severity, tt.line, tt.sev, hit.Message)
			}
		})
	}
}

func TestStrictMakesUnknownFieldsErrors(t *testing.T) {
	ds := lintFile(t, strings.Replace(base(t, "react.agf.yaml"), "    max_steps: 5\n", "    max_step: 5\n", 1), true)
	if len(ds) != 1 || ds[0].Severity != diag.Error || !strings.Contains(ds[0].Message, `did you mean "max_steps"`) {
		t.Errorf("%+v", ds)
	}
}

func TestParseRefusesBombsAndDepth(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	_, err := Parse([]byte(bomb))
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Errorf("alias bomb: %v", err)
	}
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300)
	if _, err := Parse([]byte(deep)); err == nil {
		t.Error("300-deep nesting accepted")
	}
}

func TestLintTreeFollowsSourcesAndFindsCycles(t *testing.T) {
	files := map[string]string{
		"team.agf.yaml":    base(t, "team.agf.yaml"),
		"drafter.agf.yaml": strings.Replace(base(t, "react.agf.yaml"), "version: \"1.2.0\"", "version: \"one\"", 1),
		"checker.agf.yaml": strings.Replace(base(t, "team.agf.yaml"), "source: drafter.agf.yaml", "source: team.agf.yaml", 1),
	}
	src := memSource(files)
	src.Display = func(name string) string { return "agents/" + name }
	ds, err := lint.AgentFormat([]string{"team.agf.yaml"}, src, lint.AgentFormatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.File+" "+d.Rule)
	}
	// checker leads back to team (its drafter) and to itself (its checker).
	want := "agents/checker.agf.yaml agf-source-cycle,agents/checker.agf.yaml agf-source-cycle,agents/drafter.agf.yaml agf-version-not-semver"
	if strings.Join(got, ",") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}

// TestNoFalseErrors: edits the official schema accepts (or the spec allows)
// must not produce an error or a warning.
func TestNoFalseErrors(t *testing.T) {
	react, team := base(t, "react.agf.yaml"), base(t, "team.agf.yaml")
	tests := []struct{ name, file, old, new string }{
		{"homepage without a scheme", react, "  license: Apache-2.0\n", "  license: Apache-2.0\n  homepage: example.com/agents/triager\n"},
		{"merge keys", react, "execution_policy:\n  id: agf.react\n  config:\n    instructions: |",
			"x-defaults: &defaults\n  model: gpt-4o\n  max_steps: 5\nexecution_policy:\n  id: agf.react\n  config:\n    <<: *defaults\n    instructions: |"},
		{"merge key list", react, "    model: gpt-4o\n", "    <<: [{model: gpt-4o}, {model: other, top_k: 3}]\n"},
		{"newer patch", react, `schema_version: "1.0.0"`, `schema_version: "1.0.7"`},
		{"iterating an array input", team, "  input: {type: object, properties: {items: {type: array}, text: {type: string}}}", "  input: {type: array}"},
		{"lookahead in an interface pattern", react, "ticket: {type: string,", "ticket: {type: string, pattern: \"^(?!\\\\s*$)\","},
		{"remote $ref in an interface (not checkable offline)", react, "ticket: {type: string,", "ticket: {$ref: \"https://example.com/t.json\","},
		{"empty trailing document", react, "    max_steps: 5\n", "    max_steps: 5\n---\n"},
		{"output_from a strategy", team, "    output_from: checker\n", "    output_from: last\n"},
		{"later step read in a loop", team, "  id: agf.sequential\n", "  id: agf.loop\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(tt.file, tt.old) {
				t.Fatalf("fixture lacks %q", tt.old)
			}
			src := strings.Replace(tt.file, tt.old, tt.new, 1)
			if tt.name == "iterating an array input" {
				src = strings.Replace(src, "text: parent.input.text", "text: parent.input.[]", 1)
			}
			if tt.name == "later step read in a loop" {
				src = strings.Replace(src, "text: parent.input.text", "text: checker.output.text", 1)
			}
			for _, d := range lintFile(t, src, false) {
				if d.Severity >= diag.Warning {
					t.Errorf("%s at %d:%d: %s", d.Rule, d.Start.Line, d.Start.Column, d.Message)
				}
			}
		})
	}
}

// TestMergeKeys: merged members are visible to the rules, a mapping's own
// keys win over merged ones, and earlier sources win over later ones.
func TestMergeKeys(t *testing.T) {
	doc, err := Parse([]byte("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  x: 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := doc.Get("/c")
	want := map[string]any{"x": json.Number("3"), "y": json.Number("1"), "z": json.Number("2")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("/c = %v, want %v", got, want)
	}
	if _, err := Parse([]byte("c:\n  <<: 3\n")); err == nil || !strings.Contains(err.Error(), "merge key") {
		t.Errorf("a merge of a scalar: %v", err)
	}
	if _, err := Parse([]byte("c:\n  \"<<\": 3\n")); err != nil {
		t.Errorf("a quoted \"<<\" is an ordinary key: %v", err)
	}
}

// TestTabPlacedOnItsLine: yaml.v3 names the line before a tab that indents
// a line; the finding is at the tab itself and says to use spaces.
func TestTabPlacedOnItsLine(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Pos
	}{
		{"a:\n  b: 1\n\tc: 2\n", Pos{3, 1}},
		{"a: 1\nb:\n\t- 2\n", Pos{3, 1}},
		{"a:\n\tb: 1\n", Pos{2, 1}},
		{"a:\n  b:\n    c: 1\n  \td: 2\n", Pos{4, 3}},
		{"a: 1\n\t\n", Pos{2, 1}},
		{"a:\n  - x\n\t- y\n", Pos{3, 1}},
		{"a: |\n  x\n\ty\n", Pos{3, 1}},
	} {
		_, err := Parse([]byte(c.src))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("%q: err = %v", c.src, err)
		}
		if pe.Pos != c.want || !strings.Contains(pe.Msg, "replace the tab with spaces") {
			t.Errorf("%q: %d:%d %s, want %d:%d and the fix", c.src, pe.Pos.Line, pe.Pos.Column, pe.Msg, c.want.Line, c.want.Column)
		}
	}
}
