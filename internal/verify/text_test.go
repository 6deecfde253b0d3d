package verify

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/build"
)

func TestWriteText(t *testing.T) {
	rep := &Report{Name: "community.acme.x", Version: "1.0.0", SignedBy: `key "acme-1"`,
		Integrity: build.Integrity{SRI: "sha256-abc="},
		Checks:    []Check{{Name: "archive", OK: true, Message: "well formed"}, {Name: "signature", OK: true, Message: "ok"}, {Name: "integrity", Message: "differs"}}}
	var b strings.Builder
	rep.WriteText(&b, "x.tgz")
	want := `x.tgz: community.acme.x@1.0.0  sha256-abc=
  ok   archive          well formed
  ok   signature        pack.json is signed by key "acme-1"
  FAIL integrity        differs
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	(&Report{Name: "n", Version: "1"}).WriteText(&b, "1.json") // a VERSION.json alone: no integrity
	if b.String() != "1.json: n@1\n" {
		t.Errorf("no integrity: %q", b.String())
	}
	// What the user typed already names the pack: it is named once.
	for _, typed := range []string{"community.acme.x@1.0.0", "dist/community.acme.x-1.0.0.tgz", "community.acme.x-1.0.0.json"} {
		b.Reset()
		(&Report{Name: "community.acme.x", Version: "1.0.0", Integrity: build.Integrity{SRI: "sha256-abc="}}).WriteText(&b, typed)
		if want := typed + "  sha256-abc=\n"; b.String() != want {
			t.Errorf("header %q, want %q", b.String(), want)
		}
	}
}
