package packcmd

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/credentials"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/suggest"
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
	pending    *build.Pending // a source build not yet moved into --output
	// afterHash, when set, runs once the archive is opened and hashed:
	// tests swap the file there to show no later step reads the new one.
	afterHash func()
}

// progressThreshold is the size from which an upload shows a progress bar.
const progressThreshold = 4 << 20

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
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress bar")
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
		return o.run(ctx, redactor)
	})
}

func (o *publishOptions) run(ctx context.Context, redactor *registry.Redactor) error {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if o.stage.req.Checkout != "" {
		if err := o.stage.request(o.env).Check(ctx); err != nil {
			return err
		}
	}
	archivePath, linted, err := o.archive(ctx)
	if err != nil {
		return err
	}
	if o.pending != nil {
		defer o.pending.Discard()
	}
	tree, err := o.keys.tree()
	if err != nil {
		return err
	}
	opt := lintrun.LintOptions(o.env.Lint(), false)
	opt.Spec = tree
	settings, err := lintrun.SettingsFor(o.env.Lint(), "", archivePath, opt, lintrun.NewSettingsMemo(), nil)
	if err != nil {
		return err
	}
	a, err := o.open(archivePath, settings, linted)
	if err != nil {
		return err
	}
	defer a.Close()
	gen, err := a.Generation(tree)
	if err != nil {
		return cli.Usagef("%s: %v", o.target, err)
	}
	if o.stage.req.Checkout != "" {
		return o.stageIn(ctx, a, gen, tree)
	}
	o.reg.allowOrigins = append(o.reg.allowOrigins, settings.AllowOrigins...)
	return o.upload(ctx, redactor, a, gen)
}

// open reads and hashes the archive to publish, then applies the secrets
// gate and lint's (lintrun.GuardRules alone with --no-lint) to the archive
// that was hashed, unless the build that made it just linted it.
func (o *publishOptions) open(archivePath string, settings *lintrun.Settings, linted bool) (*publish.Archive, error) {
	a, err := publish.ReadArchive(archivePath, settings.Limits)
	if err != nil {
		return nil, cli.Usagef("%s: %v", o.target, err)
	}
	if o.afterHash != nil {
		o.afterHash()
	}
	pk, err := loadPackWith(o.env, archivePath, settings.Limits)
	if err == nil && pk.ArchiveID() != a.ID { // both gates check the archive that was hashed
		err = cli.Usagef("%s: %v", o.target, safefile.ErrChanged)
	}
	if err == nil {
		err = gateArchive(o.env, pk, o.keys.allowSecrets)
	}
	if err == nil && !linted {
		err = lintrun.GateFor(o.noLint, true).Check(o.env.ErrOut, o.env.Color, pk, settings.Opt)
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// upload publishes the checked archive to the registry (publish.Run) and
// says what happened.
func (o *publishOptions) upload(ctx context.Context, redactor *registry.Redactor, a *publish.Archive, gen spec.Tree) error {
	// A broken credentials setup fails before any traffic; the token also
	// goes with the GETs (a private registry may authenticate reads).
	token, err := o.token()
	if err != nil {
		return err
	}
	redactor.Add(string(token))
	copts := clientOptions{token: token, attempts: o.retries + 1, redactor: redactor}
	if o.verbose {
		copts.trace = o.env.ErrOut
	}
	client, err := o.reg.client(o.env, copts)
	if err != nil {
		return err
	}
	req := publish.Request{Client: client, Archive: a, DryRun: o.dryRun}
	if u, _ := url.Parse(o.reg.url); token != "" || u.User != nil {
		req.HasCredentials = true
	}
	if !o.quiet && o.env.ErrTerminal && a.Size > progressThreshold {
		req.Body = o.progress
	}
	out, err := publish.Run(ctx, req)
	if err != nil {
		return publish.ExitError(ctx, err, func(c *publish.ConflictError) error { return o.conflict(c, out.Put) })
	}
	if out.Status == "dry-run" {
		fmt.Fprintf(o.env.ErrOut, "would PUT %s: %d bytes (%s), %s\n", out.Put, a.Size, a.Integrity.SRI, a.SigningWords())
	}
	return o.report(publish.Result{Status: out.Status, Name: a.Name, Version: a.Version, Integrity: a.Integrity.SRI, Registry: out.Registry, Archive: a.Path, Spec: string(gen)})
}

// stageIn stages the checked archive into --stage's checkout and says
// what it did.
func (o *publishOptions) stageIn(ctx context.Context, a *publish.Archive, gen, asked spec.Tree) error {
	var progress func(string, ...any)
	if !o.quiet {
		progress = func(format string, args ...any) { fmt.Fprintf(o.env.ErrOut, format+"\n", args...) }
	}
	st, err := o.stage.request(o.env).Run(ctx, a, gen, asked, o.sourceDir(), progress)
	if err != nil {
		return err
	}
	if err := o.report(st.Report(a, gen)); err != nil {
		return err
	}
	if o.format == "text" {
		o.stage.request(o.env).NextSteps(o.env.ErrOut, st, a)
	}
	return nil
}

// sourceDir is the pack's source folder when publishing from one, "" for
// an archive.
func (o *publishOptions) sourceDir() string {
	dir := o.env.Abs(o.target)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return ""
	}
	return dir
}

// archive returns the .tgz to publish, building a source directory first;
// linted says the build already ran the lint gate.
func (o *publishOptions) archive(ctx context.Context) (path string, linted bool, err error) {
	info, err := os.Stat(o.env.Abs(o.target))
	if err != nil {
		return "", false, cli.Usagef("%s: %v", o.target, lintrun.WithoutPath(err))
	}
	if !info.IsDir() {
		return o.env.Abs(o.target), false, nil
	}
	plan, err := prepareBuild(ctx, o.env, o.target, lintrun.GateFor(o.noLint, true), &o.keys)
	if err != nil {
		return "", false, err
	}
	if o.pending, err = build.WritePending(ctx, plan, o.env.Abs(o.outDir), o.env.Time()); err != nil {
		return "", false, err
	}
	return o.pending.Result.Archive, true, nil
}

func (o *publishOptions) report(r publish.Result) error {
	if o.pending != nil { // success: the build replaces what --output held
		kept, err := o.pending.Keep()
		if err != nil {
			return err
		}
		r.Archive = kept
		fmt.Fprintf(o.env.ErrOut, "built %s\n", kept)
	}
	if o.format == "json" {
		return r.WriteJSON(o.env.Out)
	}
	r.WriteText(o.env.Out)
	return nil
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

func (o *publishOptions) progress(r io.Reader, size int64) io.Reader {
	bar := progressbar.DefaultBytes(size, "uploading")
	progressbar.OptionSetWriter(o.env.ErrOut)(bar)
	reader := progressbar.NewReader(r, bar)
	return &reader
}

// conflict gives a version conflict the hint that fits what the user has.
func (o *publishOptions) conflict(err *publish.ConflictError, tarballURL string) error {
	c := publish.Conflict{Target: o.target, TarballURL: tarballURL}
	if o.pending != nil {
		c.Built, c.Local = true, o.pending.FinalPath()
		c.LocalShown = lintrun.DisplayRel(o.env.Lint(), c.Local)
	}
	return c.Hint(err)
}
