package credentials

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/registry"
)

type fakeChecker struct {
	verdict registry.TokenVerdict
	err     error
}

func (f fakeChecker) Discover(context.Context) (*registry.Discovery, error) {
	return &registry.Discovery{}, f.err
}

func (f fakeChecker) CheckToken(context.Context, *registry.Discovery) (registry.TokenVerdict, error) {
	return f.verdict, nil
}

func code(err error) int {
	var xe *exitcode.Error
	if errors.As(err, &xe) {
		return xe.Code
	}
	if err != nil {
		return exitcode.Findings
	}
	return exitcode.OK
}

// TestCheckNew: accepted is stored (no error), refused exits Auth, a
// registry that cannot be asked exits Network.
func TestCheckNew(t *testing.T) {
	for _, tt := range []struct {
		c    fakeChecker
		want int
		says string
	}{
		{fakeChecker{verdict: registry.TokenAccepted}, exitcode.OK, "the registry accepts the token\n"},
		{fakeChecker{verdict: registry.TokenRefused}, exitcode.Auth, ""},
		{fakeChecker{err: errors.New("down")}, exitcode.Network, ""},
	} {
		var w bytes.Buffer
		if err := CheckNew(context.Background(), &w, "r", tt.c); code(err) != tt.want || w.String() != tt.says {
			t.Errorf("%+v: %v, %q", tt.c, err, w.String())
		}
	}
}

// TestStatus: no token exits Auth after saying so; a refused one too.
func TestStatus(t *testing.T) {
	getenv := func(k string) string {
		if k == "WOP_TOKEN" {
			return "tok"
		}
		return ""
	}
	none := func(string) string { return "" }
	checker := func(v registry.TokenVerdict) func(registry.Token) (TokenChecker, error) {
		return func(registry.Token) (TokenChecker, error) { return fakeChecker{verdict: v}, nil }
	}
	var w bytes.Buffer
	if err := Status(context.Background(), &w, none, t.TempDir(), "r", "https://r.test", "", checker(registry.TokenAccepted)); code(err) != exitcode.Auth || !bytes.Contains(w.Bytes(), []byte("token:    none")) {
		t.Errorf("no token: %v, %q", err, w.String())
	}
	w.Reset()
	if err := Status(context.Background(), &w, getenv, t.TempDir(), "r", "https://r.test", "", checker(registry.TokenAccepted)); err != nil || !bytes.Contains(w.Bytes(), []byte("check:    accepted by the registry")) {
		t.Errorf("accepted: %v, %q", err, w.String())
	}
	if err := Status(context.Background(), &w, getenv, t.TempDir(), "r", "https://r.test", "", checker(registry.TokenRefused)); code(err) != exitcode.Auth {
		t.Errorf("refused: %v", err)
	}
	// The hints name login as the user runs wop.
	for _, invoked := range []invocation.Name{"", "npx wop"} {
		want := "run '" + invoked.String() + " login --registry r'"
		for _, env := range []func(string) string{none, getenv} {
			err := Status(context.Background(), io.Discard, env, t.TempDir(), "r", "https://r.test", invoked, checker(registry.TokenRefused))
			var h interface{ Hint() string }
			if !errors.As(err, &h) || !strings.Contains(h.Hint(), want) {
				t.Errorf("%q: %v, want a hint with %q", invoked, err, want)
			}
		}
	}
}
