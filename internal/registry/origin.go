package registry

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Origin is a URL's scheme, host and port (RFC 6454), the unit credentials
// are bound to: https://h, http://h and https://h:8443 are three origins.
type Origin struct {
	Scheme, Host, Port string
}

// OriginOf returns u's origin, with the scheme's default port made explicit
// and the host lower-cased, so that equal origins compare equal.
func OriginOf(u *url.URL) Origin {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return Origin{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Hostname()), Port: port}
}

// ParseOrigin reads "https://host[:port]", as given to --allow-origin: a
// scheme and a host, nothing else.
func ParseOrigin(s string) (Origin, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" {
		return Origin{}, fmt.Errorf("origin %q: want scheme://host[:port], e.g. https://cdn.example.com", s)
	}
	return OriginOf(u), nil
}

func (o Origin) String() string {
	host := o.Host
	if strings.Contains(host, ":") { // IPv6 literal
		host = "[" + host + "]"
	}
	if (o.Scheme == "https" && o.Port == "443") || (o.Scheme == "http" && o.Port == "80") {
		return o.Scheme + "://" + host
	}
	return o.Scheme + "://" + net.JoinHostPort(o.Host, o.Port)
}

// OriginError refuses a URL the registry named that is not on its origin
// (and not allow-listed), or that would downgrade https to http.
type OriginError struct {
	URL      string // redacted
	Registry Origin
	Reason   string
}

func (e *OriginError) Error() string {
	return fmt.Sprintf("the registry names %s: %s", e.URL, e.Reason)
}

// Hint says how to accept the origin if it is legitimate.
func (e *OriginError) Hint() string {
	return "if the registry really serves this from another origin, allow it by name with --allow-origin ORIGIN; the token is never sent there"
}
