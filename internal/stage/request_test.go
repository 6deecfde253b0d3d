package stage

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/spec"
)

func TestRequestTree(t *testing.T) {
	tests := []struct {
		flag       string
		gen, asked spec.Tree
		want, err  string
	}{
		{gen: "v2", asked: spec.Auto, want: "v2"}, // the archive's generation by default
		{flag: "v1", gen: "v2", asked: spec.Auto, want: "v1"},
		{flag: "v1", gen: "v2", asked: "v2", err: "--tree v1 contradicts --spec v2: drop one"},
	}
	for _, tt := range tests {
		got, err := Request{Tree: tt.flag}.tree(tt.gen, tt.asked)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("tree(--tree %q, %s, %s) = %q, %v; want %q, %q", tt.flag, tt.gen, tt.asked, got, err, tt.want, tt.err)
		}
	}
}

func TestRequestCheckNotACheckout(t *testing.T) {
	err := Request{Checkout: "x", Root: t.TempDir()}.Check(context.Background())
	var u *exitcode.UsageError
	var h exitcode.Hinter
	if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), "--stage: ") || !errors.As(err, &h) || !strings.Contains(h.Hint(), "git clone") {
		t.Fatalf("Check = %v; want a usage error with the clone hint", err)
	}
}

func TestOutcomeReport(t *testing.T) {
	a := &publish.Archive{Name: "acme.tools", Version: "1.0.0", Path: "dist/acme.tools-1.0.0.tgz"}
	o := &Outcome{Root: "/reg", URL: "https://registry.example", Result: &Result{Status: Staged, Branch: "b",
		Edits: []Edit{{Path: "v2/packs/acme.tools/1.0.0.json", Op: "added"}}, Gate: "npm run validate"}}
	got := o.Report(a, "v2")
	if got.Status != "staged" || got.Staged != "/reg" || got.Registry != "https://registry.example" || got.Spec != "v2" ||
		len(got.Files) != 1 || got.Files[0].Op != "added" || got.Gate != "npm run validate passed: the pull request is ready" {
		t.Errorf("Report = %+v", got)
	}
	o.Result.Gate, o.Result.GateNote = "", "no gate: --no-registry-check"
	if got := o.Report(a, "v2"); got.Gate != "no gate: --no-registry-check" {
		t.Errorf("Gate = %q; want the note", got.Gate)
	}
}
