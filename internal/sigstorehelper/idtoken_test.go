package sigstorehelper

import (
	"errors"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
)

func TestFindIDTokenOrder(t *testing.T) {
	env := map[string]string{"SIGSTORE_ID_TOKEN": "from-env"}
	getenv := func(k string) string { return env[k] }
	if tok, err := FindIDToken(t.Context(), TokenSource{Flag: "from-flag", Getenv: getenv}); tok != "from-flag" || err != nil {
		t.Errorf("the flag first: %v", err)
	}
	if tok, err := FindIDToken(t.Context(), TokenSource{Getenv: getenv}); tok != "from-env" || err != nil {
		t.Errorf("then SIGSTORE_ID_TOKEN: %v", err)
	}
	env = map[string]string{"ACTIONS_ID_TOKEN_REQUEST_URL": "https://token.example"} // no runtime token
	if _, err := FindIDToken(t.Context(), TokenSource{Getenv: getenv}); !errors.Is(err, ErrNoIDToken) {
		t.Errorf("none: %v", err)
	}
}

// TestExitError: no token is a usage error; Actions refusing one gets the
// permission as a hint.
func TestExitError(t *testing.T) {
	var usage *exitcode.UsageError
	if err := ExitError(ErrNoIDToken); !errors.As(err, &usage) {
		t.Errorf("no token: %v", err)
	}
	var h exitcode.Hinter
	if err := ExitError(&ActionsTokenError{Err: errors.New("403")}); !errors.As(err, &h) || !strings.Contains(h.Hint(), "id-token: write") {
		t.Errorf("actions: %v", err)
	}
}
