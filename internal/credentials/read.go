package credentials

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/registry"
)

// ReadToken reads the token wop login stores from the first line of r
// (standard input), checked by CheckToken.
func ReadToken(r io.Reader) (registry.Token, error) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return CheckToken(line)
}

// CheckToken trims s and refuses what cannot be a token. A token is one
// printable word (RFC 6750's token68); anything else is a paste gone
// wrong, and would break the Authorization header later.
func CheckToken(s string) (registry.Token, error) {
	if s = strings.TrimSpace(s); s == "" {
		return "", exitcode.Usagef("no token on standard input")
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f || r > '~' }) {
		return "", exitcode.Usagef("the token on standard input holds a space, control or non-ASCII character; paste only the token")
	}
	return registry.Token(s), nil
}

// StdinToken is publish --token-stdin's token: the first line of r,
// trimmed.
func StdinToken(r io.Reader) (registry.Token, error) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if line = strings.TrimSpace(line); line == "" {
		return "", exitcode.Usagef("--token-stdin: standard input was empty")
	}
	return registry.Token(line), nil
}
