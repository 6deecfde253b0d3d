package stage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func labels(steps []step) string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Label+" => "+strings.Join(s.Argv, " "))
	}
	return strings.Join(out, "\n")
}

func TestGeneratorsAndGate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		files      map[string]string
		tree       string
		generators string
		gate       string
		err        string
	}{
		{
			name: "the registry's layout: SBOM script, declared index builder, declared check",
			files: map[string]string{
				"package.json":                       `{"scripts":{"build:index":"node registry/scripts/build-index.mjs","check":"bash scripts/registry-check.sh"}}`,
				"registry/scripts/generate-sbom.mjs": "", "registry/scripts/build-index.mjs": "", "scripts/registry-check.sh": "",
			},
			tree:       "v1",
			generators: "node registry/scripts/generate-sbom.mjs => node registry/scripts/generate-sbom.mjs\nnpm run build:index => sh -c node registry/scripts/build-index.mjs",
			gate:       "npm run check => sh -c bash scripts/registry-check.sh",
		},
		{
			name:       "scripts without package.json, v2 tree",
			files:      map[string]string{"registry/scripts/build-index.mjs": "", "scripts/registry-check.sh": ""},
			tree:       "v2",
			generators: "node registry/scripts/build-index.mjs => node registry/scripts/build-index.mjs --tree v2",
			gate:       "bash scripts/registry-check.sh => bash scripts/registry-check.sh",
		},
		{
			name:  "data without tooling",
			files: map[string]string{"package.json": `{"scripts":{"check":"x"}}`},
			tree:  "v1",
			err:   "no index builder",
		},
		{
			name:  "a copy of the data without the registry's scripts",
			files: map[string]string{"package.json": `{"scripts":{"build:index":"node registry/scripts/build-index.mjs"}}`},
			tree:  "v1",
			err:   "build:index runs registry/scripts/build-index.mjs, which the checkout does not have",
		},
		{
			name: "index builder present, gate script missing",
			files: map[string]string{
				"package.json":                     `{"scripts":{"build:index":"node registry/scripts/build-index.mjs","check":"bash scripts/registry-check.sh"}}`,
				"registry/scripts/build-index.mjs": "",
			},
			tree:       "v1",
			generators: "npm run build:index => sh -c node registry/scripts/build-index.mjs",
			err:        "check (the registry's CI gate) runs scripts/registry-check.sh, which the checkout does not have",
		},
		{
			name:  "broken package.json",
			files: map[string]string{"package.json": `{"scripts":`},
			tree:  "v1",
			err:   "package.json",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, tc.files)
			gens, err := generators(root, tc.tree)
			if tc.err != "" && tc.generators == "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := labels(gens); got != tc.generators {
				t.Errorf("generators\n%s\nwant\n%s", got, tc.generators)
			}
			g, ok, err := gate(root)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("gate err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !ok {
				t.Fatalf("gate: %v %v", ok, err)
			}
			if got := labels([]step{g}); got != tc.gate {
				t.Errorf("gate %s, want %s", got, tc.gate)
			}
		})
	}
}

// TestRunReportsTheFailingGate: a failing step names the last gate heading
// it printed and shows the end of its output; node_modules/.bin is on PATH.
func TestRunReportsTheFailingGate(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "node_modules", ".bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "fake-gate"), []byte("#!/bin/sh\necho '[1/9] Registry index up to date...'\necho '[7/9] SBOMs up to date...'\necho 'x.sbom.json drifted' >&2\nexit 1\n"), 0o755)
	err := run(context.Background(), dir, []string{"PATH=/usr/bin:/bin"}, "", step{"npm run check", []string{"sh", "-c", "fake-gate"}})
	var se *StepError
	if !errors.As(err, &se) {
		t.Fatalf("err %v", err)
	}
	if se.Gate != "[7/9] SBOMs up to date..." || !strings.Contains(se.Output, "x.sbom.json drifted") {
		t.Errorf("gate %q output %q", se.Gate, se.Output)
	}
	if !strings.Contains(se.Error(), "npm run check at [7/9] SBOMs up to date... failed") {
		t.Errorf("message %q", se.Error())
	}
}

// TestGateRefusalHints: a gate that refuses with a registry error code
// (the registry's v2 checks print it) gets the code's fix as the error's
// hint, even when the code scrolled out of the output the error shows.
func TestGateRefusalHints(t *testing.T) {
	dir := t.TempDir()
	script := "echo '[v2 5/9] engines admit major 2...'\necho 'packs/community.acme.demo: pack_engine_unsupported: >=1.0.0 <2.0.0'\n" +
		"i=0; while [ $i -lt 40 ]; do echo line $i; i=$((i+1)); done\nexit 1\n"
	err := run(context.Background(), dir, []string{"PATH=/usr/bin:/bin"}, "", step{"npm run check", []string{"sh", "-c", script}})
	var se *StepError
	if !errors.As(err, &se) {
		t.Fatalf("err %v", err)
	}
	if strings.Contains(se.Output, "pack_engine_unsupported") {
		t.Fatal("the test wants the code out of the shown tail")
	}
	if h := se.Hint(); !strings.HasPrefix(h, "pack_engine_unsupported: engines.openwop does not admit") {
		t.Errorf("hint %q", h)
	}
	err = run(context.Background(), dir, []string{"PATH=/usr/bin:/bin"}, "", step{"npm run check", []string{"sh", "-c", "echo SBOM drifted; exit 1"}})
	if errors.As(err, &se) && se.Hint() != "" {
		t.Errorf("a refusal naming no code got hint %q", se.Hint())
	}
}

// TestRunBoundsAndEscapesOutput: a gate printing megabytes, terminal
// escape sequences, bidi overrides and invalid UTF-8 leaves a bounded tail
// in memory, shown escaped; an error code printed before the flood still
// gets its hint, and the last heading is still found.
func TestRunBoundsAndEscapesOutput(t *testing.T) {
	dir := t.TempDir()
	script := "echo 'packs/x: pack_engine_unsupported: >=1.0.0 <2.0.0'\n" +
		"echo '[v2 4/9] \033[31mred heading\033[0m'\n" +
		// 4 MB of lines, then one 1 MB line without a newline before the end.
		"head -c 4000000 /dev/zero | tr '\\0' 'x' | fold -w 100\n" +
		"head -c 1000000 /dev/zero | tr '\\0' 'y'; echo\n" +
		"printf 'evil \\033]52;c;cHduZWQ=\\007 \\342\\200\\256txt.exe \\377 done\\r\\n'\n" +
		"exit 1\n"
	err := run(context.Background(), dir, []string{"PATH=/usr/bin:/bin"}, "", step{"npm run check", []string{"sh", "-c", script}})
	var se *StepError
	if !errors.As(err, &se) {
		t.Fatalf("err %v", err)
	}
	if len(se.Output) > 2*tailBytes {
		t.Errorf("output shown is %d bytes, want at most %d", len(se.Output), 2*tailBytes)
	}
	want := `  | evil \x1b]52;c;cHduZWQ=\x07 \u202etxt.exe \xff done`
	if !strings.HasSuffix(se.Output, want) {
		t.Errorf("output ends %q, want %q", se.Output[max(0, len(se.Output)-200):], want)
	}
	if strings.ContainsAny(se.Output, "\x1b\x07\r\u202e") {
		t.Error("raw control characters reached the output")
	}
	if se.Gate != `[v2 4/9] \x1b[31mred heading\x1b[0m` {
		t.Errorf("gate %q", se.Gate)
	}
	if h := se.Hint(); !strings.HasPrefix(h, "pack_engine_unsupported: ") {
		t.Errorf("hint %q", h)
	}
}

// TestOutputWatcherMemory: what the watcher keeps stays bounded however
// much is written, in however small or large pieces.
func TestOutputWatcherMemory(t *testing.T) {
	w := &outputWatcher{}
	chunk := []byte(strings.Repeat("z", 999) + "\n")
	for range 10000 {
		w.Write(chunk)
	}
	w.Write(make([]byte, 3<<20))
	if cap(w.tail) > 4*tailBytes || cap(w.line) > 2*maxLine {
		t.Errorf("kept tail cap %d, line cap %d", cap(w.tail), cap(w.line))
	}
	if got := len(w.lastLines()); got > tailBytes {
		t.Errorf("last lines %d bytes", got)
	}
}
