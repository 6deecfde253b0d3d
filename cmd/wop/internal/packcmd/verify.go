package packcmd

import (
	"cmp"
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/verify"
)

type verifyOptions struct {
	env             *cli.Env
	key             string
	reg             registryFlags
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
		Use:   "verify ARCHIVE|VERSION.json|NAME@VERSION",
		Short: "Verify a pack archive's structure, integrity and signature",
		Long:  cli.LongHelp(helpFiles, "verify"),
		Example: `  wop pack verify acme.pack-1.0.0.tgz --key acme-1.pub.pem
  wop pack verify 1.0.0.tgz --registry https://packs.openwop.dev --version-manifest 1.0.0.json
  wop pack verify 1.0.0.tgz --key team.pub --source packs/acme.pack
  wop pack verify core.openwop.http@1.0.0 --registry https://packs.openwop.dev`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.archive = args[0]
			if o.key != "" && o.reg.url != "" {
				return cli.Usagef("--key and --registry both name the key; pass one")
			}
			if o.reg.url != "" {
				if err := o.reg.validate(); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runVerify(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.key, "key", "", "public key: an SPKI PEM file, or the key's base64 itself (as a registry lists it)")
	o.reg.addFlags(cmd, "registry URL to fetch the signing key (and, for NAME@VERSION, the archive) from")
	cmd.Flags().StringVar(&o.integrity, "integrity", "", "expected archive integrity, sha256-<base64> or sha256:<hex>")
	cmd.Flags().StringVar(&o.versionManifest, "version-manifest", "", "a registry <version>.json to compare with the signed manifest")
	cmd.Flags().StringVar(&o.source, "source", "", "source directory to rebuild and compare")
	cmd.Flags().StringVar(&o.signature, "signature", "", "detached signature for a VERSION.json (default: VERSION.sig beside it)")
	o.sigstore.addFlags(cmd)
	return cmd
}

// runVerify runs the verification with everything it prints, and its
// error, passed through one redactor.
func runVerify(ctx context.Context, o *verifyOptions) error {
	return o.reg.redacted(o.env, func(env *cli.Env, redactor *registry.Redactor) error {
		o.env = env
		return o.run(ctx, redactor)
	})
}

func (o *verifyOptions) run(ctx context.Context, redactor *registry.Redactor) error {
	opt := verify.Options{Integrity: o.integrity, Limits: tarball.DefaultLimits}
	var reg *release.Registry
	if o.reg.url != "" {
		var err error
		if reg, err = o.registryKeys(ctx, redactor); err != nil {
			return err
		}
		opt.ResolveKey = reg.Key
	}
	in, err := release.OpenVerifyInput(ctx, reg, o.archive, o.env.Abs(o.archive), &opt)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := ctx.Err(); err != nil { // Ctrl-C while fetching
		return err
	}
	flags := verify.Flags{Key: o.key, VersionManifest: o.versionManifest, Source: o.source,
		Sigstore: o.sigstore.request(o.env), Abs: o.env.Abs, Getenv: o.env.Getenv}
	if err := flags.Read(ctx, &opt); err != nil {
		return err
	}
	var rep *verify.Report
	if strings.HasSuffix(o.archive, ".json") {
		sigPath := cmp.Or(o.signature, strings.TrimSuffix(o.archive, ".json")+".sig")
		rep, err = release.VerifyServed(in, sigPath, o.env.Abs(sigPath), opt)
	} else {
		rep, err = verify.Archive(in, opt)
	}
	if err := ctx.Err(); err != nil { // Ctrl-C while reading
		return err
	}
	if err != nil {
		return cli.Usagef("%s: %v", o.archive, err)
	}
	rep.WriteText(o.env.Out, o.archive)
	if !rep.OK() {
		return cli.ErrFindings
	}
	return nil
}

// registryKeys opens --registry for verify: with the token 'wop login'
// stored for it (a read never sends WOP_TOKEN elsewhere).
func (o *verifyOptions) registryKeys(ctx context.Context, redactor *registry.Redactor) (*release.Registry, error) {
	token, err := readTokenForReads(o.env, o.reg.url)
	if err != nil {
		return nil, err
	}
	c, err := o.reg.client(o.env, clientOptions{token: token, attempts: 3, redactor: redactor})
	if err != nil {
		return nil, err
	}
	return release.NewRegistry(ctx, c), nil
}
