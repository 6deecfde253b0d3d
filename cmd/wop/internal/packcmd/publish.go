package packcmd

import (
	"context"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/credentials"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/publishrun"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/suggest"
	"github.com/wop-cli/wop/internal/tarball"
)

type publishOptions struct {
	env        *cli.Env
	reg        registryFlags
	tokenStdin bool
	retries    int
	timeout    time.Duration
	dryRun     bool
	quiet      bool
	verbose    bool
	format     string
	stage      stageFlags
	noLint     bool
	outDir     string
	keys       keyFlags
	target     string
}

func newPublishCmd(env *cli.Env, runF func(context.Context, *publishOptions) error) *cobra.Command {
	o := &publishOptions{env: env}
	o.keys.strictKeyMode = true
	cmd := &cobra.Command{
		Use:   "publish [DIR|TGZ] --registry URL",
		Short: "Publish a pack to a registry, after the checks the registry would make",
		Long:  cli.LongHelp(helpFiles, "publish"),
		Example: `  wop pack publish . --registry https://registry.acme.dev --key acme-1.pem --key-id acme-1
  wop pack publish dist/acme.tools-1.0.0.tgz --registry https://registry.acme.dev --dry-run
  wop pack publish . --key acme-1.pem --key-id acme-1 --stage ~/src/openwop-registry --branch publish/acme.tools-1.0.0`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.target = "."
			if len(args) == 1 {
				o.target = args[0]
			}
			if err := suggest.FlagValue("--format", o.format, "text", "json"); err != nil {
				return err
			}
			if err := o.keys.validate(); err != nil {
				return err
			}
			if o.stage.req.Checkout == "" {
				if o.stage.req.Branch != "" || o.stage.req.NoGate {
					return cli.Usagef("--branch and --no-registry-check go with --stage CHECKOUT")
				}
				var err error
				if o.reg.url, err = registry.URLFromFlag(o.reg.url, env.Getenv); err != nil {
					return err
				}
				if err := o.reg.validate(); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runPublish(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	o.reg.addFlags(cmd, "registry URL (default $WOP_REGISTRY)")
	f.BoolVar(&o.tokenStdin, "token-stdin", false, "read the registry token from standard input")
	f.IntVar(&o.retries, "retries", 4, "retries after the first attempt, on network errors, 429 and 5xx")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "give up after this long")
	f.BoolVar(&o.dryRun, "dry-run", false, "run every check and print what would be sent; send nothing")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress bar, and lint's warnings unprinted (errors still are)")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "show each request (the token redacted)")
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	cli.CompleteValues(cmd, "format", cli.Fixed("text", "json"))
	o.stage.addFlags(cmd)
	f.BoolVar(&o.noLint, "no-lint", false, "skip lint but for what must never be published (placeholders, secrets, unsafe archive entries); the other checks still run")
	f.StringVarP(&o.outDir, "output", "o", "dist", "where a source directory is built")
	o.keys.addFlags(cmd)
	return cmd
}

// runPublish runs the publish with every byte it prints, and its error,
// passed through one redactor that knows the token and the URL's
// credentials.
func runPublish(ctx context.Context, o *publishOptions) error {
	return o.reg.redacted(o.env, func(env *cli.Env, redactor *registry.Redactor) error {
		o.env = env
		return o.request(redactor).Run(ctx)
	})
}

// request is the flags as publishrun.Request, with the steps that need
// the command's keys and credentials.
func (o *publishOptions) request(redactor *registry.Redactor) publishrun.Request {
	r := publishrun.Request{Target: o.target, Env: o.env.Lint(), Abs: o.env.Abs, Now: o.env.Time, Color: o.env.Color,
		Tty: o.env.ErrTerminal, Timeout: o.timeout, Format: o.format, Quiet: o.quiet, Verbose: o.verbose, DryRun: o.dryRun,
		NoLint: o.noLint, OutDir: o.outDir, Spec: o.keys.spec, Registry: o.reg.url, Redactor: redactor}
	if o.stage.req.Checkout != "" {
		st := o.stage.request(o.env)
		r.Stage = &st
	}
	r.Plan = func(ctx context.Context, gate lintrun.Gate) (*build.Plan, error) {
		return prepareBuild(ctx, o.env, o.target, gate, o.quiet, &o.keys)
	}
	r.Load = func(arg string, lim tarball.Limits) (*pack.Pack, error) { return loadPackWith(o.env, arg, lim) }
	r.Gate = func(pk *pack.Pack) error { return gateArchive(o.env, pk, o.keys.allowSecrets) }
	r.Token = o.token
	r.Client = func(token registry.Token, trace io.Writer, origins []string) (*registry.Client, error) {
		o.reg.allowOrigins = append(o.reg.allowOrigins, origins...)
		return o.reg.client(o.env, clientOptions{token: token, attempts: o.retries + 1, redactor: redactor, trace: trace})
	}
	return r
}

// token finds the registry token: --token-stdin, WOP_TOKEN, or wop login's file.
func (o *publishOptions) token() (registry.Token, error) {
	if o.tokenStdin {
		return credentials.StdinToken(o.env.In)
	}
	t, err := readToken(o.env, o.reg.url)
	if err != nil {
		return "", err
	}
	return t, nil
}
