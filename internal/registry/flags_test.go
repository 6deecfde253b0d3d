package registry

import (
	"errors"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
)

// TestURLFromFlag: the flag, else $WOP_REGISTRY; none, or not http(s), is
// a usage error that hides the URL's password.
func TestURLFromFlag(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	if u, err := URLFromFlag("https://a.test", env("https://b.test")); u != "https://a.test" || err != nil {
		t.Errorf("flag: %q %v", u, err)
	}
	if u, err := URLFromFlag("", env("https://b.test")); u != "https://b.test" || err != nil {
		t.Errorf("env: %q %v", u, err)
	}
	var usage *exitcode.UsageError
	if _, err := URLFromFlag("", env("")); !errors.As(err, &usage) || !strings.Contains(err.Error(), "--registry URL is required") {
		t.Errorf("none: %v", err)
	}
	if _, err := URLFromFlag("ftp://u:secret@x.test", env("")); !errors.As(err, &usage) || strings.Contains(err.Error(), "secret") {
		t.Errorf("ftp: %v", err)
	}
}

// TestParseOrigins: good origins parse; a bad one names the flag.
func TestParseOrigins(t *testing.T) {
	if o, err := ParseOrigins([]string{"https://cdn.test", "https://x.test:8443"}); err != nil || len(o) != 2 {
		t.Errorf("good: %v %v", o, err)
	}
	var usage *exitcode.UsageError
	if _, err := ParseOrigins([]string{"https://cdn.test/path"}); !errors.As(err, &usage) || !strings.HasPrefix(err.Error(), "--allow-origin: ") {
		t.Errorf("bad: %v", err)
	}
}
