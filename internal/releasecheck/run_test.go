package releasecheck

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	prevrelease "github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestRun drives the command's entry point with a stubbed previous
// release: what it prints and whether the run fails.
func TestRun(t *testing.T) {
	removed := base()
	removed["pack.json"] = manifest("1.2.1", `{"typeId": "acme.tools.fetch", "version": "1.0.0", "role": "pure"}`)
	info := base()
	info["pack.json"] = manifest("1.2.1", twoNodes)
	info["prompts/helper.md"] = "You help well.\n"
	tests := []struct {
		name       string
		files      map[string]string
		first      bool // no previous release
		strict     bool
		wantFailed bool
		wantOut    string // in the report
		wantErrOut string // in the verdict
	}{
		{name: "first release", files: base(), first: true, wantErrOut: "no previous release at old.tgz: nothing to compare"},
		{name: "bump insufficient fails", files: removed, wantFailed: true, wantOut: "node-removed"},
		{name: "info hidden without --info", files: info},
		{name: "strict ignores info", files: info, strict: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			filetree.Write(t, filepath.Join(dir, "new"), tt.files)
			oldDir := filepath.Join(dir, "old")
			filetree.Write(t, oldDir, base())
			var out, errOut bytes.Buffer
			r := Request{Lint: &lintrun.Env{WorkDir: dir, Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }, Version: "test"},
				Path: "new", Against: "old.tgz", Format: "text", Strict: tt.strict,
				Previous: func(_ context.Context, ref, _ string, lim tarball.Limits) (*pack.Pack, func(), error) {
					if tt.first {
						return nil, func() {}, prevrelease.ErrNoPrevious
					}
					pk, err := pack.Load(oldDir, lim)
					return pk, func() {}, err
				}}
			failed, err := Run(context.Background(), r)
			if err != nil || failed != tt.wantFailed {
				t.Fatalf("Run = %v, %v; want %v, nil\nout:\n%s\nerr:\n%s", failed, err, tt.wantFailed, &out, &errOut)
			}
			if !strings.Contains(out.String(), tt.wantOut) || !strings.Contains(errOut.String(), tt.wantErrOut) {
				t.Errorf("out:\n%s\nerr:\n%s\nwant %q and %q", &out, &errOut, tt.wantOut, tt.wantErrOut)
			}
			if !tt.wantFailed && strings.Contains(out.String(), "prompt-changed") {
				t.Errorf("an info change shown without --info:\n%s", &out)
			}
		})
	}
}

func TestRunMissingPackIsUsage(t *testing.T) {
	r := Request{Lint: &lintrun.Env{WorkDir: t.TempDir(), Getenv: func(string) string { return "" }}, Path: "nowhere", Against: "x"}
	_, err := Run(context.Background(), r)
	var u *exitcode.UsageError
	if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), "nowhere: ") {
		t.Fatalf("Run = %v; want a usage error naming the path", err)
	}
}

const twoNodes = `{"typeId": "acme.tools.fetch", "version": "1.0.0", "role": "pure"},
    {"typeId": "acme.tools.parse", "version": "1.0.0", "role": "pure"}`

// manifest is a small node pack at version with the given nodes.
func manifest(version, nodes string) string {
	return `{
  "name": "acme.tools", "version": "` + version + `", "kind": "node", "description": "Tools.",
  "engines": {"openwop": ">=1.0.0 <2.0.0"},
  "runtime": {"language": "javascript", "entry": "index.mjs", "format": "esm", "minRuntimeVersion": "node>=20"},
  "nodes": [` + nodes + `],
  "agents": [{"agentId": "acme.tools.helper", "role": "skill", "systemPromptRef": "prompts/helper.md"}]
}
`
}

// base is the old release every case starts from.
func base() map[string]string {
	return map[string]string{
		"pack.json":         manifest("1.2.0", twoNodes),
		"prompts/helper.md": "You help.\n",
		"index.mjs":         "export default {};\n",
	}
}
