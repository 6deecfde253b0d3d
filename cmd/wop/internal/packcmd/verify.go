package packcmd

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/verify"
)

type verifyOptions struct {
	env             *cli.Env
	key             string
	registry        string
	integrity       string
	versionManifest string
	source          string
	signature       string
	archive         string
	sigstore        verifyFlags
}

func newVerifyCmd(env *cli.Env, runF func(context.Context, *verifyOptions) error) *cobra.Command {
	o := &verifyOptions{env: env}
	cmd := &cobra.Command{
		Use:   "verify ARCHIVE|VERSION.json",
		Short: "Verify a pack archive's structure, integrity and signature",
		Long: `Read the archive strictly (bombs stop at the size ceiling) and verify the
Ed25519 signature over the exact pack.json bytes inside it, with --key or with
the key its signing block names, fetched from --registry (which must list it
as active and permitted for the pack's namespace).

--integrity or --version-manifest (a registry's <version>.json) check that
this is the published archive; --source DIR rebuilds the source with the
archive's own signature and says which entries differ.

Given a registry's <version>.json instead of an archive, verify the detached
signature (--signature, default: the .sig beside it) over that manifest
without the registry's own fields: a manifest edited after signing fails.

Exit status: 0 every check passed; 1 a check failed; 2 unreadable input.`,
		Example: `  wop pack verify acme.pack-1.0.0.tgz --key acme-1.pub.pem
  wop pack verify 1.0.0.tgz --registry https://packs.openwop.dev --version-manifest 1.0.0.json
  wop pack verify 1.0.0.tgz --key team.pub --source packs/acme.pack`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.archive = args[0]
			if o.key != "" && o.registry != "" {
				return cli.Usagef("--key and --registry both name the key; pass one")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runVerify(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.key, "key", "", "public key: an SPKI PEM file, or the key's base64 itself (as a registry lists it)")
	cmd.Flags().StringVar(&o.registry, "registry", "", "registry URL to fetch the signing key from (discovery signingKeys)")
	cmd.Flags().StringVar(&o.integrity, "integrity", "", "expected archive integrity, sha256-<base64> or sha256:<hex>")
	cmd.Flags().StringVar(&o.versionManifest, "version-manifest", "", "a registry <version>.json to compare with the signed manifest")
	cmd.Flags().StringVar(&o.source, "source", "", "source directory to rebuild and compare")
	cmd.Flags().StringVar(&o.signature, "signature", "", "detached signature for a VERSION.json (default: VERSION.sig beside it)")
	o.sigstore.addFlags(cmd)
	return cmd
}

func runVerify(ctx context.Context, o *verifyOptions) error {
	data, err := pack.ReadCapped(o.env.Abs(o.archive), 2*tarball.DefaultLimits.MaxTotal)
	if err != nil {
		return cli.Usagef("%s: %v", o.archive, withoutPath(err))
	}
	opt := verify.Options{Integrity: o.integrity, Limits: tarball.DefaultLimits}
	var sigstoreKey []byte
	if o.key != "" {
		raw, err := readVerifyKey(o.env, o.key)
		if err != nil {
			return err
		}
		// An Ed25519 SPKI key checks the manual scheme; any other public key
		// (or the same key, for an Ed25519ph bundle) checks a Sigstore bundle.
		opt.Key, _ = sign.ParsePublicKey(raw)
		sigstoreKey = raw
	}
	if o.key != "" || o.sigstore.identity != "" || o.sigstore.identityRegexp != "" {
		opt.Sigstore = o.sigstore.verifier(ctx, o.env, sigstoreKey)
	}
	if o.registry != "" {
		opt.ResolveKey = registryKeys(ctx, o.env, o.registry)
	}
	if o.versionManifest != "" {
		if opt.VersionManifest, err = os.ReadFile(o.env.Abs(o.versionManifest)); err != nil {
			return cli.Usagef("--version-manifest: %v", withoutPath(err))
		}
	}
	if o.source != "" {
		if opt.Source, err = loadPack(o.env, o.source); err != nil {
			return err
		}
	}
	var rep *verify.Report
	if strings.HasSuffix(o.archive, ".json") {
		rep, err = verifyServed(o, data, opt)
	} else {
		rep, err = verify.Archive(data, opt)
	}
	if err != nil {
		return cli.Usagef("%s: %v", o.archive, err)
	}
	printReport(o.env.Out, o.archive, rep)
	if !rep.OK() {
		return cli.ErrFindings
	}
	return nil
}

func verifyServed(o *verifyOptions, served []byte, opt verify.Options) (*verify.Report, error) {
	sigPath := o.signature
	if sigPath == "" {
		sigPath = strings.TrimSuffix(o.archive, ".json") + ".sig"
	}
	sig, err := os.ReadFile(o.env.Abs(sigPath))
	if err != nil {
		return nil, fmt.Errorf("signature %s: %v", sigPath, withoutPath(err))
	}
	return verify.ServedManifest(served, sig, opt)
}

func registryKeys(ctx context.Context, env *cli.Env, base string) func(string, string) (ed25519.PublicKey, error) {
	c := &registry.Client{Base: base, HTTP: env.HTTPClient()}
	return func(keyID, name string) (ed25519.PublicKey, error) {
		d, err := c.Discover(ctx)
		if err != nil {
			return nil, err
		}
		return c.Key(ctx, d, keyID, name)
	}
}

func printReport(w io.Writer, archive string, rep *verify.Report) {
	fmt.Fprintf(w, "%s: %s@%s  %s\n", archive, rep.Name, rep.Version, rep.Integrity.SRI)
	for _, c := range rep.Checks {
		status := "ok  "
		if !c.OK {
			status = "FAIL"
		}
		msg := c.Message
		if c.OK && c.Name == "signature" {
			msg = "pack.json is signed by " + rep.SignedBy
		}
		fmt.Fprintf(w, "  %s %-16s %s\n", status, c.Name, msg)
	}
}
