package credentials

import (
	"strings"
	"testing"
)

// TestReadToken: login takes the first line, trimmed, and refuses an
// empty one or one with spaces or control characters.
func TestReadToken(t *testing.T) {
	if tok, err := ReadToken(strings.NewReader("  abc.DEF-123~+/=\nnext\n")); tok != "abc.DEF-123~+/=" || err != nil {
		t.Errorf("good: %q %v", tok, err)
	}
	for in, want := range map[string]string{
		"\n":        "no token on standard input",
		"two words": "holds a space, control or non-ASCII character",
		"tab\there": "holds a space, control or non-ASCII character",
		"caf\u00e9": "holds a space, control or non-ASCII character",
	} {
		if _, err := ReadToken(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// TestStdinToken: publish --token-stdin takes the first line, trimmed;
// nothing there is a usage error naming the flag.
func TestStdinToken(t *testing.T) {
	if tok, err := StdinToken(strings.NewReader("tok\n")); tok != "tok" || err != nil {
		t.Errorf("good: %q %v", tok, err)
	}
	if _, err := StdinToken(strings.NewReader("")); err == nil || err.Error() != "--token-stdin: standard input was empty" {
		t.Errorf("empty: %v", err)
	}
}
