// Package sigstorehelper runs Sigstore operations in the wop-sigstore helper
// binary. sigstore-go and its dependencies (gRPC, protobuf, the Rekor and TUF
// clients) cost several milliseconds of package initialisation, and wop pays
// them only when it signs or verifies with Sigstore, not on every lint.
// Requests and answers are JSON over the helper's stdin and stdout, so
// tokens and keys never appear on a command line.
package sigstorehelper

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/wop-cli/wop/internal/helperbin"
)

// Name is the helper's executable name.
const Name = "wop-sigstore"

// Protocol is the version of the request and answer shapes below. A helper
// answers with the version it speaks; wop refuses any other, so a stale
// helper is never used silently. Bump it with any change of meaning (a new
// field a helper must honour, such as InsecureIgnoreTlog).
const Protocol = 2

// installHint is how to get a helper that matches this wop.
const installHint = "go install github.com/wop-cli/wop/cmd/wop-sigstore@latest (or reinstall wop, which ships it)"

// Public-good Sigstore instances, the defaults.
const (
	PublicFulcio = "https://fulcio.sigstore.dev"
	PublicRekor  = "https://rekor.sigstore.dev"
	PublicTSA    = "https://timestamp.sigstore.dev/api/v1/timestamp"
)

// IDToken is an OIDC identity token; it prints as [redacted] in every verb.
type IDToken string

func (IDToken) String() string   { return "[redacted]" }
func (IDToken) GoString() string { return "[redacted]" }

// Request is one operation for the helper.
type Request struct {
	Protocol int    `json:"protocol"` // set by Run
	Op       string `json:"op"`       // "sign-keyless", "sign-key" or "verify"

	Data []byte `json:"data"` // the manifest bytes

	// signing
	IDToken   string `json:"idToken,omitempty"`
	KeyPEM    []byte `json:"keyPem,omitempty"`
	FulcioURL string `json:"fulcioUrl,omitempty"`
	RekorURL  string `json:"rekorUrl,omitempty"`
	TSAURL    string `json:"tsaUrl,omitempty"`
	// SigningConfig, when set, is a signing_config.json whose services
	// replace the URLs above.
	SigningConfig string `json:"signingConfig,omitempty"`

	// verification
	Bundle        []byte `json:"bundle,omitempty"`
	TrustedRoot   string `json:"trustedRoot,omitempty"`
	PublicKeyPEM  []byte `json:"publicKeyPem,omitempty"`
	Subject       string `json:"subject,omitempty"`
	SubjectRegexp string `json:"subjectRegexp,omitempty"`
	Issuer        string `json:"issuer,omitempty"`
	IssuerRegexp  string `json:"issuerRegexp,omitempty"`
	// InsecureIgnoreTlog accepts a keyless bundle without a transparency-log
	// entry (a signed timestamp is still required).
	InsecureIgnoreTlog bool `json:"insecureIgnoreTlog,omitempty"`
}

// Response is the helper's answer.
type Response struct {
	Protocol int    `json:"protocol"` // the helper's; 0 from helpers older than the field
	Bundle   []byte `json:"bundle,omitempty"`
	Signer   string `json:"signer,omitempty"` // who a verified bundle names
	Error    string `json:"error,omitempty"`
	KeyBased bool   `json:"keyBased,omitempty"`
}

// Locate finds the helper: $WOP_SIGSTORE_HELPER, else the one installed
// beside the running wop (executable is os.Executable), else wop-sigstore
// on PATH. The copy beside wop comes first: it was installed with this wop,
// while one on PATH may be from any other release.
func Locate(getenv func(string) string, executable func() (string, error)) (string, error) {
	if p, ok := helperbin.Locate(Name, "WOP_SIGSTORE_HELPER", getenv, executable); ok {
		return p, nil
	}
	return "", errors.New("the wop-sigstore helper, which does the Sigstore work, is not installed: put it next to wop or on PATH (" + installHint + ")")
}

// ProtocolError: the helper speaks another protocol version than wop.
type ProtocolError struct {
	Helper    string
	Got, Want int
}

func (e *ProtocolError) Error() string {
	got := fmt.Sprintf("protocol %d", e.Got)
	if e.Got == 0 {
		got = "an older protocol"
	}
	return fmt.Sprintf("the Sigstore helper %s speaks %s, this wop needs protocol %d; its answer was not used: update it with %s", e.Helper, got, e.Want, installHint)
}

// Run sends req to the helper and returns its answer; an answer with an
// error becomes a Go error.
func Run(ctx context.Context, helper string, req Request) (*Response, error) {
	req.Protocol = Protocol
	in, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, helper)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var resp Response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		if runErr != nil {
			return nil, fmt.Errorf("%s: %v: %s", Name, runErr, strings.TrimSpace(stderr.String()))
		}
		return nil, fmt.Errorf("%s: unreadable answer: %w", Name, err)
	}
	if resp.Protocol != Protocol {
		return nil, &ProtocolError{Helper: helper, Got: resp.Protocol, Want: Protocol}
	}
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	return &resp, nil
}

// Signer returns the function that makes a bundle over a manifest with
// req (Op sign-key or sign-keyless, everything but Data set), run by the
// helper at path helper.
func Signer(ctx context.Context, helper string, req Request) func([]byte) ([]byte, error) {
	return func(m []byte) ([]byte, error) {
		req.Data = m
		resp, err := Run(ctx, helper, req)
		if err != nil {
			return nil, fmt.Errorf("sigstore: %w", err)
		}
		return resp.Bundle, nil
	}
}

// Verifier returns the check of a bundle over a manifest with req (Op
// verify, everything but Bundle and Data set): the helper is located only
// when a bundle is checked, and the signer's identity returned.
func Verifier(ctx context.Context, getenv func(string) string, req Request) func(bundle, manifest []byte) (string, error) {
	return func(bundle, manifest []byte) (string, error) {
		helper, err := Locate(getenv, os.Executable)
		if err != nil {
			return "", err
		}
		req.Bundle, req.Data = bundle, manifest
		resp, err := Run(ctx, helper, req)
		if err != nil {
			return "", err
		}
		return resp.Signer, nil
	}
}
