package registry

import (
	"net/url"

	"github.com/wop-cli/wop/internal/exitcode"
)

// URLFromFlag is the registry a command talks to: the --registry flag,
// else $WOP_REGISTRY, checked to be an http(s) URL. Every command that
// takes --registry resolves it here, so they agree; the error never prints
// the URL's credentials.
func URLFromFlag(flag string, getenv func(string) string) (string, error) {
	reg := flag
	if reg == "" {
		reg = getenv("WOP_REGISTRY")
	}
	if reg == "" {
		return "", exitcode.Usagef("--registry URL is required (or set WOP_REGISTRY)")
	}
	if u, err := url.Parse(reg); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", exitcode.Usagef("--registry %q: want an http(s) URL", NewRedactor().String(reg))
	}
	return reg, nil
}

// ParseOrigins parses --allow-origin values (https://host[:port]); an
// error is a usage error naming the flag.
func ParseOrigins(values []string) ([]Origin, error) {
	var out []Origin
	for _, s := range values {
		origin, err := ParseOrigin(s)
		if err != nil {
			return nil, exitcode.Usagef("--allow-origin: %v", err)
		}
		out = append(out, origin)
	}
	return out, nil
}
