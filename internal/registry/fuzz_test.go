package registry

import (
	"strings"
	"testing"
)

// tokenChars are the characters registry tokens and passwords are made of
// in practice. Secrets holding "[" or "]" could be re-formed across the
// edges of "[redacted]", and those inside "redacted" ("a", "act") appear
// in it, so the property leaves both out.
const tokenChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/="

func tokenLike(s string) bool {
	return s != "" && strings.Trim(s, tokenChars) == "" && !strings.Contains(redacted, s)
}

// FuzzRedact: whatever a server sends, a known secret never survives
// redaction (one under shortSecret characters never survives except glued
// into a longer word, where it is text, not the secret), nor does the
// password of a URL in the text.
func FuzzRedact(f *testing.F) {
	f.Add("bad credentials Bearer tok-1 for https://u:pw@h/x?token=abc", "tok-1", "pw")
	f.Add("tok-1tok-1", "tok-1", "p")
	f.Add("%2Ftok%2B", "/tok+", "x")
	f.Add("invalid token (got Bearer t) x-x- [redacted]", "t", "t")
	f.Add("x-x-", "x-", "p")
	f.Fuzz(func(t *testing.T, text, secret, password string) {
		if !tokenLike(secret) || !tokenLike(password) || strings.ContainsAny(password, "/") {
			return
		}
		r := NewRedactor(secret)
		out := r.String(text)
		for i := 0; i+len(secret) <= len(out); i++ {
			if strings.HasPrefix(out[i:], secret) && (len(secret) >= shortSecret || !glued(out, i, len(secret))) {
				t.Fatalf("secret %q survives in %q (from %q)", secret, out, text)
			}
		}
		withURL := NewRedactor().String(text + " https://user:" + password + "@host/p")
		if strings.Contains(withURL, "user:"+password+"@") {
			t.Fatalf("userinfo survives in %q", withURL)
		}
	})
}

// FuzzResolve: whatever a discovery document names, Resolve returns a URL
// on the registry's origin or an allowed one, never plain http for an
// https registry, or an error.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"/v1/packs/{name}", "//evil.example/x", "https://cdn.example/a", "http://reg.example/a",
		"https://reg.example@evil.example/", "https://evil.example#@reg.example/", "/%2e%2e/%2F", "javascript:alert(1)", "https://REG.example:443/k"} {
		f.Add(s)
	}
	cdn, _ := ParseOrigin("https://cdn.example")
	c, err := New(Options{Registry: "https://reg.example/base", AllowOrigins: []Origin{cdn}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		u, err := c.Resolve(ref)
		if err != nil {
			return
		}
		o := OriginOf(u)
		if o != c.origin && o != cdn {
			t.Fatalf("Resolve(%q) = %s, on %s", ref, u, o)
		}
		if u.User != nil {
			t.Fatalf("Resolve(%q) = %s, with userinfo", ref, u)
		}
	})
}

// FuzzHintsIn: whatever a gate prints, HintsIn returns one line per known
// code the text names as a word, each the code's own hint, and nothing for
// a code that only appears inside a longer identifier.
func FuzzHintsIn(f *testing.F) {
	f.Add("FAIL pack_engine_unsupported: >=1.0.0\nok")
	f.Add("xpack_engine_unsupported pack_peer_dependency_undefined_ sub_chain_cycle")
	f.Add("pack_engine_unsupportedpack_engine_unsupported")
	f.Fuzz(func(t *testing.T, text string) {
		out := HintsIn(text, "")
		if out == "" {
			return
		}
		for line := range strings.SplitSeq(out, "\n      ") {
			code, hint, ok := strings.Cut(line, ": ")
			if !ok || hints[code] != hint {
				t.Fatalf("line %q is not a code and its hint", line)
			}
			if wordIndex(text, code) < 0 {
				t.Fatalf("%s is not named as a word in %q", code, text)
			}
		}
	})
}
