package registry

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/spec"
)

// StatusError is a registry's refusal, with its machine-readable code.
type StatusError struct {
	Method, URL string
	StatusCode  int
	Code        string         // the body's error code, e.g. "tarball_too_large"
	Message     string         // the body's message
	Details     map[string]any // the body's details
	HTML        bool           // the body was an HTML page (a proxy's, not the registry's)
	Snippet     string         // start of a non-JSON body
	// Invoked is the command that started wop, for the hints that name
	// one (the client's Options.Invoked).
	Invoked invocation.Name
}

func (e *StatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	switch {
	case e.Code != "":
		fmt.Fprintf(&b, ": %s", e.Code)
		if e.Message != "" {
			fmt.Fprintf(&b, ": %s", e.Message)
		}
	case e.HTML:
		b.WriteString(" (an HTML error page: a proxy or gateway in front of the registry answered, not the registry itself)")
	case e.Snippet != "":
		fmt.Fprintf(&b, ": %q", e.Snippet)
	}
	return b.String()
}

// ErrConflict: the version exists with other bytes.
var ErrConflict = errors.New("version already published with other bytes")

// Is makes errors.Is(err, ErrConflict) true for 409 answers.
func (e *StatusError) Is(target error) bool {
	return target == ErrConflict && e.StatusCode == http.StatusConflict
}

// TokenHint is the next step when a registry needs a token wop does not
// have: the one wording, for a 401 and for publish's check before sending.
// It names login as invoked runs it.
func TokenHint(invoked invocation.Name) string {
	return "set WOP_TOKEN, pass --token-stdin, or run '" + invoked.Cmd("login --registry URL") + "'"
}

// hints tell the author what to change for each error code of FORMAT.md §5.
// Their command lines say wop; whoever prints one knows the command that
// started wop and rewrites them (invocation.Name.Mentions).
var hints = map[string]string{
	"invalid_pack_scope":         "the registry does not accept this namespace; publish under one it lists in supportedNamespaces",
	"invalid_pack_name":          "the pack name is not valid: <scope>.<org>.<name>, lower case",
	"invalid_version":            "the version is not strict SemVer (MAJOR.MINOR.PATCH)",
	"invalid_body":               "the upload was not a raw .tgz body; publish the archive wop built",
	"tarball_gunzip_failed":      "the archive is not valid gzip; rebuild it with wop pack build",
	"tarball_too_large":          "the archive is over the registry's size ceiling; remove what the pack does not need",
	"tarball_manifest_missing":   "the archive has no pack.json at its root; rebuild it with wop pack build",
	"tarball_manifest_too_large": "pack.json is over the registry's ceiling (256 KB by default); move prompt bodies into prompts/*.md",
	"tarball_manifest_not_json":  "pack.json in the archive is not JSON; run wop pack lint",
	"tarball_entry_missing":      "a file the manifest names is not in the archive; run wop pack lint on the source",
	"tarball_entry_too_large":    "an entry is over the per-file ceiling (5 MB by default)",
	"tarball_path_traversal":     "an entry name is unsafe (.., absolute); rebuild with wop pack build",
	"tarball_tar_parse_failed":   "the tar inside the archive is corrupt; rebuild with wop pack build",
	"invalid_manifest":           "pack.json does not validate; run wop pack lint and fix the errors",
	"manifest_name_mismatch":     "pack.json's name differs from the name in the upload URL",
	"manifest_version_mismatch":  "pack.json's version differs from the version in the upload URL",
	"pack_integrity_failure":     "the bytes the registry received do not match the integrity header; the upload was corrupted, retry",
	"unsupported_runtime":        "the registry does not host this runtime.language",
	"signature_required":         "the registry needs a signed pack: build with --key KEY.pem --key-id ID",
	"pack_signature_invalid":     "the signature does not verify with the registry's copy of the key: sign with the key registered for this namespace",
	"pack_validation_failed":     "the registry's validation refused the pack",
	// The v2 registry's submission checks (RFC 0222 §D) and the codes the v2
	// error registry (spec/v2/errors.json) adds that an upload can meet; wop
	// pack lint --spec v2 reports the pack ones before publishing.
	"pack_engine_unsupported":        "engines.openwop does not admit this registry's protocol major: a v2 registry needs \">=x[.y[.z]] <M.0.0\" with M of at least 3 (run wop pack lint --spec v2, or wop pack migrate --to v2)",
	"pack_peer_dependency_undefined": "a peerDependencies key names no capability family of the v2 declaration: name the family and put facets in peerDependenciesMeta (run wop pack lint --spec v2, or wop pack migrate --to v2)",
	"sub_chain_cycle":                "a chain's subChains lead back to itself: a v2 host refuses the cycle; make one chain the leaf",
	"sub_chain_depth_exceeded":       "sub-chains nest deeper than the 8 levels a v2 host runs (maxSubChainDepth): flatten the nesting",
	"version_conflict":               "versions are immutable: bump the version and publish again",
	"payload_too_large":              "the archive is over the registry's upload limit; remove what the pack does not need",
	"unsupported_media_type":         "the registry did not take the upload's Content-Type (wop sends the raw .tgz as application/gzip): a proxy in between may rewrite it, or the registry wants another upload format",
	"protocol_version_mismatch":      "the registry serves another OpenWOP protocol major than the request: publish v1 packs to its v1 tree and v2 packs (wop pack lint --spec v2) to its v2 tree",
	"protocol_version_unsupported":   "the registry does not serve the OpenWOP protocol version wop asked for; check its discovery document's endpoints for the trees it serves",
	"client_version_unsupported":     "the registry needs a newer client: upgrade wop",
}

// CodeHint returns the next step for a registry error code: the author's
// fix where wop knows one, else, for a code of the v2 error registry, where
// the spec defines it. "" for a code neither knows.
func CodeHint(code string) string {
	if h, ok := hints[code]; ok {
		return h
	}
	codes, err := spec.LoadErrors()
	if err != nil {
		return ""
	}
	c, ok := codes[code]
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s is an OpenWOP error (HTTP %d, since spec %s); its meaning and fix: %s", c.Code, c.HTTPStatus, c.Since, c.Source)
}

// HintsIn returns the fixes for the registry error codes text names as
// words (a pull-request registry's gate prints the code it refuses with),
// one line each, in the order of the codes' first mention, their command
// lines as invoked runs wop; "" when it names none wop has a fix for.
func HintsIn(text string, invoked invocation.Name) string {
	type mention struct {
		at   int
		hint string
	}
	var found []mention
	for code, hint := range hints {
		if at := wordIndex(text, code); at >= 0 {
			found = append(found, mention{at, code + ": " + invoked.Mentions(hint)})
		}
	}
	slices.SortFunc(found, func(a, b mention) int { return cmp.Compare(a.at, b.at) })
	lines := make([]string, len(found))
	for i, m := range found {
		lines[i] = m.hint
	}
	return strings.Join(lines, "\n      ") // under the text after "hint: "
}

// wordIndex is the index of the first mention of code in text that is not
// part of a longer identifier, or -1.
func wordIndex(text, code string) int {
	isWord := func(b byte) bool {
		return b == '_' || b == '-' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
	}
	for from := 0; ; {
		i := strings.Index(text[from:], code)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(code)
		if (i == 0 || !isWord(text[i-1])) && (end == len(text) || !isWord(text[end])) {
			return i
		}
		from = i + 1
	}
}

// Hint returns the next step for the author.
func (e *StatusError) Hint() string {
	switch e.StatusCode {
	case http.StatusUnauthorized:
		return "the token is missing or not accepted: " + TokenHint(e.Invoked)
	case http.StatusForbidden:
		return "the token is valid but has no rights on this namespace; ask the registry operator to grant it"
	case http.StatusConflict:
		return "versions are immutable: bump the version and publish again"
	case http.StatusRequestEntityTooLarge:
		return "the archive is over the registry's upload limit; private registries may raise it"
	}
	if e.StatusCode < 300 {
		return "a registry answers an upload with 201 (published) or 200 (already there); this answer does not say the version was published: check with '" + e.Invoked.Cmd("pack verify NAME@VERSION --registry URL") + "' before publishing again"
	}
	if e.Code == "pack_validation_failed" {
		if r, ok := e.Details["reason"].(string); ok {
			return "the registry refused the pack: " + r
		}
	}
	return e.Invoked.Mentions(CodeHint(e.Code))
}

// parseError builds a StatusError from a response body in either shape:
// {"error":"code","message":..,"details":..} or {"error":{"code":..,"message":..}}.
func parseError(method, url string, status int, contentType string, body []byte) *StatusError {
	e := &StatusError{Method: method, URL: url, StatusCode: status}
	var flat struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Details map[string]any  `json:"details"`
	}
	if json.Unmarshal(body, &flat) == nil && flat.Error != nil {
		var code string
		var nested struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		}
		switch {
		case json.Unmarshal(flat.Error, &code) == nil:
			e.Code, e.Message, e.Details = code, flat.Message, flat.Details
		case json.Unmarshal(flat.Error, &nested) == nil:
			e.Code, e.Message, e.Details = nested.Code, nested.Message, nested.Details
		}
		return e
	}
	trimmed := strings.TrimSpace(string(body))
	lower := strings.ToLower(trimmed)
	if strings.Contains(contentType, "text/html") || strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html") {
		e.HTML = true
		return e
	}
	if len(trimmed) > 200 {
		trimmed = trimmed[:200] + "…"
	}
	e.Snippet = trimmed
	return e
}
