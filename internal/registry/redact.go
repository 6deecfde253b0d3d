package registry

import (
	"encoding/base64"
	"errors"
	"io"
	"net/url"
	"regexp"
	"slices"
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
	secrets []string // longest first: at each position the longest match wins
}

// shortSecret is the length under which a secret is redacted only where it
// is not glued into a longer word (see glued): a one-letter token redacted
// everywhere would leave no message readable, and a secret that short
// appears in words by chance, not because it leaked.
const shortSecret = 8

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
	for _, form := range []string{s, url.QueryEscape(s)} {
		if form != "" && !slices.Contains(r.secrets, form) {
			r.secrets = append(r.secrets, form)
		}
	}
	slices.SortStableFunc(r.secrets, func(a, b string) int { return len(b) - len(a) })
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

// String returns s with every secret replaced by [redacted]. What to hide
// is found in the original text, all at once (the secrets, URL userinfo,
// query secrets), and replaced in one pass: a replacement is never
// searched again, so a secret that is part of "[redacted]" cannot mangle
// it.
func (r *Redactor) String(s string) string {
	var spans []span
	if r != nil {
		spans = r.secretSpans(s)
	}
	for _, m := range userinfoRE().FindAllStringSubmatchIndex(s, -1) {
		spans = append(spans, span{m[3], m[1] - 1}) // after "scheme://", before "@"
	}
	for _, m := range querySecretRE().FindAllStringSubmatchIndex(s, -1) {
		spans = append(spans, span{m[3], m[1]}) // after "name=", to the value's end
	}
	return replaceSpans(s, spans)
}

// span is a byte range [start, end) of a text to redact.
type span struct{ start, end int }

// secretSpans finds the known secrets in s, left to right, the longest
// first at each position; a short secret only where it is not glued into
// a word. A match wholly inside a "[redacted]" the text already holds (a
// trace line that printed the token as [redacted]) is left alone, so a
// secret such as "redacted" cannot turn it into "[[[redacted]]]".
func (r *Redactor) secretSpans(s string) []span {
	done := alreadyRedacted(s)
	var out []span
	for i := 0; i < len(s); {
		n := r.matchAt(s, i)
		if n == 0 || slices.ContainsFunc(done, func(d span) bool { return d.start <= i && i+n <= d.end }) {
			i++
			continue
		}
		out = append(out, span{i, i + n})
		i += n
	}
	return out
}

// alreadyRedacted are the spans of s that read "[redacted]".
func alreadyRedacted(s string) []span {
	var out []span
	for at := 0; ; {
		k := strings.Index(s[at:], redacted)
		if k < 0 {
			return out
		}
		out = append(out, span{at + k, at + k + len(redacted)})
		at += k + len(redacted)
	}
}

// matchAt is the length of the longest secret at s[i:], or 0.
func (r *Redactor) matchAt(s string, i int) int {
	for _, secret := range r.secrets {
		if !strings.HasPrefix(s[i:], secret) {
			continue
		}
		if len(secret) < shortSecret && glued(s, i, len(secret)) {
			continue
		}
		return len(secret)
	}
	return 0
}

// glued reports whether s[i:i+n] is part of something longer, text
// rather than the secret: at either end it continues a word ("t" in
// "token", "1" in "42481") or a dotted, hyphenated or underscored name
// ("1" in "127.0.0.1", "t" in "acme.t"); a secret that ends in
// punctuation continues anything but a separator ("/" in "http://", ":"
// in "Content-Type:", "-" in "--token-stdin"). Not glued: "Bearer t",
// "?token=t", "/t/", "t." ending a sentence, a quoted "t".
func glued(s string, i, n int) bool {
	return gluedAt(s, i, i-1, -1) || gluedAt(s, i+n-1, i+n, +1)
}

// gluedAt reports whether the secret's edge byte s[edge] is glued to its
// neighbour s[out], dir being the way out of the secret.
func gluedAt(s string, edge, out, dir int) bool {
	if out < 0 || out >= len(s) {
		return false
	}
	c := s[out]
	if !wordByte(s[edge]) {
		return !separator(c)
	}
	if wordByte(c) {
		return true
	}
	next := out + dir
	return strings.IndexByte(".-_", c) >= 0 && next >= 0 && next < len(s) && wordByte(s[next])
}

// separator reports whether b ends a field of text: space, a quote, a
// bracket or a list separator.
func separator(b byte) bool {
	return strings.IndexByte(" \t\r\n\"'`()[]{},;", b) >= 0
}

// wordByte reports whether b can be part of a word: an ASCII letter or
// digit, or a byte of a multi-byte UTF-8 character.
func wordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// replaceSpans replaces each span of s (merged where they overlap) by
// [redacted].
func replaceSpans(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		if sp.end <= at {
			continue // inside a span already replaced
		}
		if sp.start >= at {
			b.WriteString(s[at:sp.start])
			b.WriteString(redacted)
		}
		at = sp.end
	}
	b.WriteString(s[at:])
	return b.String()
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
