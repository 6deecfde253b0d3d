package sigstorehelper

import (
	"errors"
	"testing"
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
