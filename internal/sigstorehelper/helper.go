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
	"path/filepath"
	"strings"
)

// Name is the helper's executable name.
const Name = "wop-sigstore"

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
	Op string `json:"op"` // "sign-keyless", "sign-key" or "verify"

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
}

// Response is the helper's answer.
type Response struct {
	Bundle   []byte `json:"bundle,omitempty"`
	Signer   string `json:"signer,omitempty"` // who a verified bundle names
	Error    string `json:"error,omitempty"`
	KeyBased bool   `json:"keyBased,omitempty"`
}

// Locate finds the helper: $WOP_SIGSTORE_HELPER, wop-sigstore on PATH, or
// beside the running executable.
func Locate(getenv func(string) string) (string, error) {
	if p := getenv("WOP_SIGSTORE_HELPER"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath(Name); err == nil {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), Name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("the wop-sigstore helper, which does the Sigstore work, is not installed: put it next to wop or on PATH (go install github.com/wop-cli/wop/cmd/wop-sigstore@latest)")
}

// Run sends req to the helper and returns its answer; an answer with an
// error becomes a Go error.
func Run(ctx context.Context, helper string, req Request) (*Response, error) {
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
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	return &resp, nil
}
