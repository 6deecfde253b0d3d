package packcmd

import (
	"context"
	"os"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/flagfile"
	"github.com/wop-cli/wop/internal/sigstorehelper"
)

// sigstoreFlags are the Sigstore signing flags shared by build, sign and publish.
type sigstoreFlags struct {
	enabled                     bool
	identityToken               string
	fulcioURL, rekorURL, tsaURL string
	signingConfig               string
}

func (f *sigstoreFlags) addFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.enabled, "sigstore", false, "sign with Sigstore: keyless through Fulcio (an OIDC identity), or with --key (ECDSA P-256 or Ed25519)")
	cmd.Flags().StringVar(&f.identityToken, "identity-token", "", "OIDC identity token for keyless signing (default $SIGSTORE_ID_TOKEN, or GitHub Actions' ambient token)")
	cmd.Flags().StringVar(&f.fulcioURL, "fulcio-url", sigstorehelper.PublicFulcio, "Fulcio certificate authority")
	cmd.Flags().StringVar(&f.rekorURL, "rekor-url", sigstorehelper.PublicRekor, "Rekor transparency log (\"\" to not log)")
	cmd.Flags().StringVar(&f.tsaURL, "tsa-url", sigstorehelper.PublicTSA, "RFC 3161 timestamp authority (\"\" for none)")
	cmd.Flags().StringVar(&f.signingConfig, "signing-config", "", "Sigstore signing_config.json naming the Fulcio, Rekor and TSA to use (instead of the URL flags)")
}

// signer returns the function that makes a bundle over the manifest, with
// the key of --key or keyless, through the wop-sigstore helper.
func (f *sigstoreFlags) signer(ctx context.Context, env *cli.Env, keyPath string, strictKeyMode bool) (func([]byte) ([]byte, error), error) {
	helper, err := sigstorehelper.Locate(env.Getenv, os.Executable)
	if err != nil {
		return nil, err
	}
	req := sigstorehelper.Request{Op: "sign-keyless", FulcioURL: f.fulcioURL, RekorURL: f.rekorURL, TSAURL: f.tsaURL}
	if f.signingConfig != "" {
		req.SigningConfig = env.Abs(f.signingConfig)
	}
	if keyPath != "" {
		if req.KeyPEM, err = flagfile.PrivateKey(env.ErrOut, keyPath, env.Abs(keyPath), strictKeyMode); err != nil {
			return nil, err
		}
		req.Op = "sign-key"
	} else {
		token, err := sigstorehelper.FindIDToken(ctx, sigstorehelper.TokenSource{Flag: f.identityToken, Getenv: env.Getenv,
			UserAgent: "wop/" + env.Version, Transport: env.HTTPClient().Transport})
		if err != nil {
			return nil, sigstorehelper.ExitError(err)
		}
		req.IDToken = string(token)
	}
	return sigstorehelper.Signer(ctx, helper, req), nil
}

// verifyFlags are the Sigstore verification flags of verify.
type verifyFlags struct {
	identity, identityRegexp, issuer, issuerRegexp, trustedRoot string
	insecureIgnoreTlog                                          bool
}

func (f *verifyFlags) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.identity, "certificate-identity", "", "Sigstore: the signer's identity (email or URI) the certificate must name")
	cmd.Flags().StringVar(&f.identityRegexp, "certificate-identity-regexp", "", "Sigstore: a regexp the signer's identity must match")
	cmd.Flags().StringVar(&f.issuer, "certificate-oidc-issuer", "", "Sigstore: the OIDC issuer that vouched for the identity")
	cmd.Flags().StringVar(&f.issuerRegexp, "certificate-oidc-issuer-regexp", "", "Sigstore: a regexp the OIDC issuer must match")
	cmd.Flags().BoolVar(&f.insecureIgnoreTlog, "insecure-ignore-tlog", false, "Sigstore: accept a keyless bundle without a transparency-log entry, on its signed timestamp alone")
	cmd.Flags().StringVar(&f.trustedRoot, "trusted-root", "", "Sigstore trusted_root.json to verify offline (default: the public-good root, fetched and cached)")
}

// request is the helper's verify request the flags make (verify.Flags
// adds --key's PEM).
func (f *verifyFlags) request(env *cli.Env) sigstorehelper.Request {
	req := sigstorehelper.Request{Op: "verify", Subject: f.identity, SubjectRegexp: f.identityRegexp, Issuer: f.issuer, IssuerRegexp: f.issuerRegexp,
		InsecureIgnoreTlog: f.insecureIgnoreTlog}
	if f.trustedRoot != "" {
		req.TrustedRoot = env.Abs(f.trustedRoot)
	}
	return req
}
