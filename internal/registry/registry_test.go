package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/spec"
)

func TestEndpointsPreferCompleteV2(t *testing.T) {
	var d Discovery
	raw := `{"endpoints":{"versionManifest":"/v1/packs/{name}/-/{version}.json","versionTarball":"/v1/packs/{name}/-/{version}.tgz",
	  "v2":{"versionManifest":"/v2/p/{name}/{version}/manifest","versionTarball":"/v2/p/{name}/{version}/archive"}}}`
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		t.Fatal(err)
	}
	e := d.Endpoints()
	if !e.V2 || e.VersionTarball != "/v2/p/{name}/{version}/archive" || e.PublicKey != "/keys/{keyId}.pub" {
		t.Errorf("complete v2 not chosen: %+v", e)
	}
	json.Unmarshal([]byte(`{"endpoints":{"versionManifest":"/m/{name}","v2":{"versionManifest":"/v2/only"}}}`), &d)
	if e := d.Endpoints(); e.V2 || e.VersionManifest != "/m/{name}" || e.VersionTarball != "/v1/packs/{name}/-/{version}.tgz" {
		t.Errorf("incomplete v2 chosen or defaults missing: %+v", e)
	}
}

func TestExpandEscapesSegments(t *testing.T) {
	got := Expand("/v1/packs/{name}/-/{version}.tgz", map[string]string{"name": "a/../b?x", "version": "1.0.0+build"})
	if got != "/v1/packs/a%2F..%2Fb%3Fx/-/1.0.0+build.tgz" {
		t.Errorf("Expand = %s", got)
	}
}

// TestSigningKeyRefusal: a refused namespace names the key's patterns, and
// a pattern that looks like a wildcard but is exact ("vendor.zet*") is
// said to be exact, so the author knows what to ask the operator for.
func TestSigningKeyRefusal(t *testing.T) {
	d := &Discovery{SigningKeys: []SigningKey{
		{KeyID: "z", Status: "active", PermittedNamespaces: []string{"vendor.zet*", "vendor.zeta"}},
		{KeyID: "c", Status: "active", PermittedNamespaces: []string{"core.openwop.agents.*"}},
	}}
	for _, tt := range []struct{ key, name, want string }{
		{"z", "vendor.zeta.helpdesk", `key "z" may sign only vendor.zet*, vendor.zeta, not vendor.zeta.helpdesk ("vendor.zet*": only a pattern ending ".*" is a prefix; any other is an exact name)`},
		{"c", "core.openwop.http", `key "c" may sign only core.openwop.agents.*, not core.openwop.http`},
	} {
		if _, err := d.SigningKey(tt.key, tt.name); err == nil || err.Error() != tt.want {
			t.Errorf("SigningKey(%s, %s) = %v\nwant %s", tt.key, tt.name, err, tt.want)
		}
	}
	if _, err := d.SigningKey("c", "core.openwop.agents.audit-summarizer"); err != nil {
		t.Errorf("a three-label grant: %v", err)
	}
}

// TestCovers is the ecosystem's own behaviour: the registry's
// verify-signatures.mjs turns a pattern ending ".*" into a prefix match
// of any depth and compares every other pattern for equality.
func TestCovers(t *testing.T) {
	for _, tt := range []struct {
		pattern, name string
		want          bool
	}{
		// One label, two, three: every ".*" pattern is a prefix.
		{"community.*", "community.acme.x", true},
		{"community.*", "community.acme.tools.deep", true},
		{"vendor.*", "vendor.acme.tools", true},
		{"vendor.*", "vendor.zeta.helpdesk", true},
		{"core.openwop.*", "core.openwop.http", true},
		{"core.openwop.agents.*", "core.openwop.agents.audit-summarizer", true},
		{"core.openwop.agents.*", "core.openwop.http", false},
		{"core.openwop.agents.*", "core.openwop.agentsx.y", false},
		// The boundary is the dot: a prefix of a label is not covered.
		{"core.openwop.*", "core.openwopx.http", false},
		{"community.*", "communityx.acme.x", false},
		{"vendor.acme.*", "vendor.acmecorp.tools", false},
		// The pattern's own prefix is not a name under it.
		{"vendor.zeta.*", "vendor.zeta", false},
		{"vendor.zeta.*", "vendor.zeta.", false},
		// Without ".*" a pattern is exact.
		{"community.openwop-team.demo", "community.openwop-team.demo", true},
		{"community.openwop-team.demo", "community.openwop-team.demo2", false},
		{"community.acme", "community.acme.x", false},
		{"vendor.zet*", "vendor.zeta.helpdesk", false},
		{"vendor.zet*", "vendor.zet*", true},
		{"*", "vendor.zeta.helpdesk", false},
		{"", "vendor.zeta.helpdesk", false},
	} {
		if got := Covers(tt.pattern, tt.name); got != tt.want {
			t.Errorf("Covers(%q, %q) = %v", tt.pattern, tt.name, got)
		}
	}
}

func TestParseErrorShapes(t *testing.T) {
	flat := parseError("PUT", "u", 400, "application/json", []byte(`{"error":"tarball_too_large","message":"big","details":{"max":1}}`))
	nested := parseError("PUT", "u", 400, "application/json", []byte(`{"error":{"code":"invalid_version","message":"bad"}}`))
	html := parseError("PUT", "u", 502, "text/html", []byte(`<html><body>Bad Gateway</body></html>`))
	text := parseError("PUT", "u", 500, "text/plain", []byte("oops"))
	v2 := parseError("PUT", "u", 400, "application/json", []byte(`{"error":"pack_validation_failed","details":{"reason":"nodes[0] has no executor"}}`))
	switch {
	case flat.Code != "tarball_too_large" || flat.Message != "big" || flat.Details["max"] == nil:
		t.Errorf("flat: %+v", flat)
	case nested.Code != "invalid_version" || nested.Message != "bad":
		t.Errorf("nested: %+v", nested)
	case !html.HTML || !strings.Contains(html.Error(), "HTML error page"):
		t.Errorf("html: %+v", html)
	case text.Snippet != "oops":
		t.Errorf("text: %+v", text)
	case !strings.Contains(v2.Hint(), "nodes[0] has no executor"):
		t.Errorf("v2 reason: %q", v2.Hint())
	}
}

// Every 400 code of FORMAT.md §5 tells the author what to change.
func TestEveryErrorCodeHasAHint(t *testing.T) {
	codes := strings.Fields(`invalid_pack_scope invalid_pack_name invalid_version invalid_body tarball_gunzip_failed
		tarball_too_large tarball_manifest_missing tarball_manifest_too_large tarball_manifest_not_json tarball_entry_missing
		tarball_entry_too_large tarball_path_traversal tarball_tar_parse_failed invalid_manifest manifest_name_mismatch
		manifest_version_mismatch pack_integrity_failure unsupported_runtime signature_required pack_signature_invalid
		pack_validation_failed pack_engine_unsupported pack_peer_dependency_undefined`)
	for _, c := range codes {
		if (&StatusError{StatusCode: 400, Code: c}).Hint() == "" {
			t.Errorf("no hint for %s", c)
		}
	}
	for _, s := range []int{401, 403, 409, 413} {
		if (&StatusError{StatusCode: s}).Hint() == "" {
			t.Errorf("no hint for %d", s)
		}
	}
}

// TestV2CodeHints: a loopback registry refusing an upload with each
// v2-only pack code of the v2 error registry (and each code it adds that an
// upload can meet), at the code's registered status, gets the author a
// fix, not the generic pointer to the spec; any other registered code gets
// that pointer, and an unknown code no hint.
func TestV2CodeHints(t *testing.T) {
	codes, err := spec.LoadErrors()
	if err != nil {
		t.Fatal(err)
	}
	upload := []string{"pack_peer_dependency_undefined", "version_conflict", "payload_too_large", "unsupported_media_type",
		"protocol_version_mismatch", "protocol_version_unsupported", "client_version_unsupported"}
	for _, c := range codes {
		if c.V2Only() && (strings.HasPrefix(c.Code, "pack_") || strings.HasPrefix(c.Code, "sub_chain_")) {
			upload = append(upload, c.Code)
		}
	}
	var answer spec.ErrorCode
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(answer.HTTPStatus)
		fmt.Fprintf(w, `{"error":{"code":%q,"message":"refused"}}`, answer.Code)
	}))
	defer srv.Close()
	c, err := New(Options{Registry: srv.URL, Token: "token-for-hints"})
	if err != nil {
		t.Fatal(err)
	}
	publish := func(code string) *StatusError {
		t.Helper()
		answer = codes[code]
		_, err := c.Publish(context.Background(), Endpoints{VersionTarball: "/v2/{name}/{version}", V2: true},
			Upload{Name: "a.b.c", Version: "1.0.0", Open: func() io.Reader { return strings.NewReader("x") }, Size: 1, Integrity: "sha256-x", SigningMethod: "manual"})
		var se *StatusError
		if !errors.As(err, &se) || se.Code != code {
			t.Fatalf("%s: %T %v", code, err, err)
		}
		return se
	}
	for _, code := range upload {
		if _, ok := codes[code]; !ok {
			t.Errorf("%s is not in the v2 error registry", code)
			continue
		}
		if h := publish(code).Hint(); h == "" || strings.Contains(h, "is an OpenWOP error") {
			t.Errorf("%s (HTTP %d): hint %q, want the author's fix", code, codes[code].HTTPStatus, h)
		}
	}
	want := "delegation_chain_cyclic is an OpenWOP error (HTTP 400, since spec 2.0); its meaning and fix: RFC 0170 §B.1"
	if h := publish("delegation_chain_cyclic").Hint(); h != want {
		t.Errorf("fallback hint: %q", h)
	}
	if h := CodeHint("no_such_code"); h != "" {
		t.Errorf("unknown code: %q", h)
	}
}

func TestBackoff(t *testing.T) {
	for n := 1; n < 20; n++ {
		if d := DefaultBackoff(n, 0); d <= 0 || d > 10*time.Second {
			t.Errorf("attempt %d: %s", n, d)
		}
	}
	if d := DefaultBackoff(1, 3*time.Second); d < 3*time.Second {
		t.Errorf("Retry-After not honoured: %s", d)
	}
	if d := DefaultBackoff(1, time.Hour); d > time.Minute {
		t.Errorf("Retry-After not capped: %s", d)
	}
}

func TestTokenNeverFormats(t *testing.T) {
	tok := Token("secret-value")
	for _, s := range []string{fmt.Sprint(tok), fmt.Sprintf("%v %s %+v %#v", tok, tok, tok, tok)} {
		if strings.Contains(s, "secret") {
			t.Errorf("token printed: %s", s)
		}
	}
}

// TestPutHeadersAndV2 checks what goes on the wire: a raw streamed body and
// the headers, with the v2 integrity header name.
func TestPutHeadersAndV2(t *testing.T) {
	var got *http.Request
	var body int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		body, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	c, err := New(Options{Registry: srv.URL, Token: "t", UserAgent: "wop/test"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Publish(context.Background(), Endpoints{VersionTarball: "/v2/{name}/{version}", V2: true},
		Upload{Name: "a.b.c", Version: "1.0.0", Open: func() io.Reader { return strings.NewReader("0123456789") }, Size: 10, Integrity: "sha256-x", SigningMethod: "manual"})
	if err != nil || out != Published {
		t.Fatal(out, err)
	}
	if got.URL.Path != "/v2/a.b.c/1.0.0" || got.Header.Get("OpenWOP-Pack-Sha256") != "sha256-x" || got.Header.Get("Content-Type") != "application/gzip" ||
		got.Header.Get("Authorization") != "Bearer t" || got.Header.Get("X-Pack-Signing-Method") != "manual" || got.ContentLength != 10 || body != 10 ||
		got.Header.Get("User-Agent") != "wop/test" {
		t.Errorf("request %s %v len %d body %d", got.URL, got.Header, got.ContentLength, body)
	}
}

func TestHintsIn(t *testing.T) {
	for text, want := range map[string]string{
		"FAIL pack_peer_dependency_undefined (host.x)\nFAIL pack_engine_unsupported": "pack_peer_dependency_undefined: a peerDependencies key" +
			"|pack_engine_unsupported: engines.openwop",
		"not_a_pack_engine_unsupported_code": "",
		"pack_engine_unsupported_v3":         "",
		"nothing here":                       "",
	} {
		got := HintsIn(text, "")
		parts := strings.Split(got, "\n      ")
		wants := strings.Split(want, "|")
		if want == "" {
			if got != "" {
				t.Errorf("HintsIn(%q) = %q, want none", text, got)
			}
			continue
		}
		if len(parts) != len(wants) {
			t.Errorf("HintsIn(%q) = %q", text, got)
			continue
		}
		for i := range wants {
			if !strings.HasPrefix(parts[i], wants[i]) {
				t.Errorf("HintsIn(%q) line %d = %q, want %q...", text, i, parts[i], wants[i])
			}
		}
	}
}
