package breaking

import (
	"bytes"
	"testing"

	"github.com/wop-cli/wop/internal/report"
)

// TestWriteVerdict: the line under breaking's text report.
func TestWriteVerdict(t *testing.T) {
	r := &Result{OldVersion: "1.0.0", NewVersion: "1.0.1", Needed: Major, Made: Patch, Accepted: 2}
	var b bytes.Buffer
	r.WriteVerdict(&b, &report.Incomplete{Message: "incomplete: x"})
	want := "1.0.0 -> 1.0.1: the changes need a major bump, the version makes a patch bump (2 accepted in .wop.yaml)\nincomplete: x\n"
	if b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
	b.Reset()
	(&Result{OldVersion: "1.0.0", NewVersion: "1.0.0"}).WriteVerdict(&b, nil)
	if want := "1.0.0 -> 1.0.0: the changes need no bump, the version makes no bump\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
