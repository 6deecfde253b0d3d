package agf_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

func base(t *testing.T, name string) string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const packJSON = `{
  "name": "community.acme.support",
  "version": "2.1.0",
  "description": "Support agents.",
  "license": "Apache-2.0",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "dependencies": {"community.acme.crm": "^1.0.0"},
  "runtime": {"language": "remote", "entry": "pack.json"}
}
`

// render lists the files an import writes and its losses, for golden files.
func render(im *Imported) []byte {
	var b strings.Builder
	var names []string
	for n := range im.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&b, "-- %s --\n%s", n, im.Files[n])
	}
	b.WriteString("-- losses --\n")
	for _, l := range im.Losses {
		fmt.Fprintf(&b, "%d %s: %s\n", l.Line, l.Pointer, l.What)
	}
	return []byte(b.String())
}

// TestImportGolden: YAML in, pack files out, and the round trip: the pack
// the import produces lints clean.
func TestImportGolden(t *testing.T) {
	src := base(t, "react.agf.yaml")
	im, err := Import([]byte(src), []byte(packJSON), ImportOptions{ModelClass: "classification",
		Tools: map[string]string{"lookup_customer": "openwop:community.acme.crm.lookup"}})
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "golden/import-react.txt", render(im))

	dir := filepath.Join(t.TempDir(), "community.acme.support")
	for name, data := range im.Files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := lint.Run(pk, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Severity >= diag.Warning {
			t.Errorf("imported pack does not lint clean: %s %s: %s", d.File, d.Rule, d.Message)
		}
	}
}

func TestImportRefusals(t *testing.T) {
	react, team := base(t, "react.agf.yaml"), base(t, "team.agf.yaml")
	mapped := map[string]string{"lookup_customer": "openwop:community.acme.crm.lookup"}
	withApproval := strings.Replace(react, "      description: Find the customer's plan.\n", "      description: Find the customer's plan.\n      approval: true\n", 1)
	tests := []struct {
		name, src, want string
		opt             ImportOptions
	}{
		{"multi-agent policy", team, "multi-agent and vendor policies have no agents[] equivalent", ImportOptions{}},
		{"unmapped tool", react, "local tools lookup_customer need a mapping", ImportOptions{}},
		{"tool for no alias", react, `the file has no local tool "nope"`, ImportOptions{Tools: map[string]string{"lookup_customer": "openwop:a.b.c", "nope": "openwop:x.y.z"}}},
		{"approval", withApproval, "requires human approvals", ImportOptions{Tools: mapped}},
		{"bad id", react, "agent id segment", ImportOptions{Tools: mapped, AgentID: "Bad Id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import([]byte(tt.src), []byte(packJSON), tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	im, err := Import([]byte(withApproval), []byte(packJSON), ImportOptions{Tools: mapped, AcceptLoss: true})
	if err != nil || !im.Approval || !slices.ContainsFunc(im.Losses, func(l Loss) bool { return strings.HasSuffix(l.Pointer, "/approval") }) {
		t.Errorf("--accept-loss: %v %+v", err, im)
	}
	_, err = Import([]byte(react), im.Files["pack.json"], ImportOptions{Tools: mapped})
	if err == nil || !strings.Contains(err.Error(), "already has agent") {
		t.Errorf("second import of the same agent: %v", err)
	}
}
