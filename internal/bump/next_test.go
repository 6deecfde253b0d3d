package bump

import (
	"testing"

	"github.com/wop-cli/wop/internal/breaking"
)

func TestNext(t *testing.T) {
	tests := []struct {
		step, current string
		res           *breaking.Result
		want, err     string
	}{
		{step: "minor", current: "1.2.3", want: "1.3.0"},
		{step: "major", current: "1.2.3", want: "2.0.0"},
		{step: "patch", current: "0.1.0", want: "0.1.1"},
		{step: "patch", current: "x", err: `pack.json version "x" is not SemVer: give the new version as X.Y.Z`},
		{step: "auto", res: &breaking.Result{OldVersion: "1.0.0", Needed: breaking.None}, want: "1.0.1"},
		{step: "auto", res: &breaking.Result{OldVersion: "1.0.0", Needed: breaking.Major}, want: "2.0.0"},
		{step: "2.0.0", current: "1.0.0", want: "2.0.0"},
		{step: "1.0.0", current: "1.0.0", err: "1.0.0 is not above the current version 1.0.0"},
		{step: "huge", current: "1.0.0", err: `"huge": want major, minor, patch, auto or a version X.Y.Z`},
	}
	for _, tt := range tests {
		got, err := Next(tt.step, tt.current, tt.res)
		if msg := errString(err); got != tt.want || msg != tt.err {
			t.Errorf("Next(%q, %q) = %q, %q; want %q, %q", tt.step, tt.current, got, msg, tt.want, tt.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
