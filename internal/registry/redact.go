package registry

import (
	"encoding/base64"
	"errors"
	"io"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// redacted replaces every secret in text meant for people.
const redacted = "[redacted]"

// userinfoRE finds the user:password@ part of URLs in any text.
var userinfoRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#\s@"'<>]+@`)
})

// querySecretRE finds query values whose parameter names say they are
// secrets (token, access_token, X-Amz-Signature, api_key, password...).
var querySecretRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)([?&][^=&\s#"'<>]*(?:token|key|sig|secret|pass|auth|cred|session|code)[^=&\s#"'<>]*=)[^&\s#"'<>]+`)
})

// Redactor removes secrets from every message built from server answers,
// URLs and errors: the known secrets (the token, the password of URL
// userinfo, in their plain, URL-escaped and Basic forms), any URL userinfo,
// and query values named like secrets. It is the one place redaction
// happens; a nil Redactor still removes userinfo and query secrets.
type Redactor struct {
	secrets []string
}

// NewRedactor knows the given secrets; empty ones are ignored.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.add(s)
	}
	return r
}

// Add teaches the redactor one more secret, e.g. a token read late.
func (r *Redactor) Add(s string) { r.add(s) }

// AddURL teaches the redactor the credentials in a URL's userinfo.
func (r *Redactor) AddURL(raw string) {
	if u, err := url.Parse(raw); err == nil {
		r.addUserinfo(u.User)
	}
}

func (r *Redactor) add(s string) {
	if s == "" {
		return
	}
	r.secrets = append(r.secrets, s)
	if esc := url.QueryEscape(s); esc != s {
		r.secrets = append(r.secrets, esc)
	}
}

// addUserinfo learns the credentials of a URL's userinfo: the password
// (raw and escaped) and the Basic header value they make.
func (r *Redactor) addUserinfo(u *url.Userinfo) {
	if u == nil {
		return
	}
	pw, _ := u.Password()
	r.add(pw)
	r.add(base64.StdEncoding.EncodeToString([]byte(u.Username() + ":" + pw)))
}

// String returns s with every secret replaced by [redacted].
func (r *Redactor) String(s string) string {
	if r != nil {
		for _, secret := range r.secrets {
			s = strings.ReplaceAll(s, secret, redacted)
		}
	}
	s = userinfoRE().ReplaceAllString(s, "${1}"+redacted+"@")
	return querySecretRE().ReplaceAllString(s, "${1}"+redacted)
}

// URL redacts a URL for display.
func (r *Redactor) URL(u *url.URL) string {
	c := *u
	c.User = nil
	return r.String(c.String())
}

// Error wraps err so that its message and hint are redacted, keeping the
// chain for errors.Is and errors.As. A nil err stays nil.
func (r *Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	if re, ok := err.(*redactedError); ok && re.r == r {
		return err
	}
	return &redactedError{err: err, r: r}
}

type redactedError struct {
	err error
	r   *Redactor
}

func (e *redactedError) Error() string { return e.r.String(e.err.Error()) }
func (e *redactedError) Unwrap() error { return e.err }

// Hint is the wrapped error's hint, redacted.
func (e *redactedError) Hint() string {
	var h interface{ Hint() string }
	if errors.As(e.err, &h) {
		return e.r.String(h.Hint())
	}
	return ""
}

// Writer redacts every Write to w. Each message must arrive in one Write
// (fmt.Fprintf does that), so a secret is never split across two.
func (r *Redactor) Writer(w io.Writer) io.Writer {
	return &redactingWriter{w: w, r: r}
}

type redactingWriter struct {
	w io.Writer
	r *Redactor
}

func (rw *redactingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(rw.w, rw.r.String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
