// Package publishrun is `wop pack publish` once its flags are read: build a
// source directory (or take an archive), hash it, gate it, then upload it to
// a registry or stage it in a registry checkout, and say what happened.
package publishrun

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/stage"
	"github.com/wop-cli/wop/internal/tarball"
)

// progressThreshold is the size from which an upload shows a progress bar.
const progressThreshold = 4 << 20

// Request is one publish, in plain values: what the command's flags say
// and the few steps that need the command's own state (keys, credentials).
type Request struct {
	Target  string // the DIR or TGZ argument, as given
	Env     *lintrun.Env
	Abs     func(string) string
	Now     func() time.Time // the clock a build's stale-scratch cleanup reads
	Color   bool
	Tty     bool // ErrOut is a terminal: a progress bar may be drawn
	Timeout time.Duration
	Format  string // text or json
	Quiet   bool   // no progress bar or stage progress, and lint's errors alone
	Verbose bool
	DryRun  bool
	NoLint  bool
	OutDir  string // --output, where a source directory is built
	Spec    string // --spec, parsed once the archive is ready (as before)
	// Stage, when set, stages the archive in a registry checkout instead
	// of uploading it (Root resolved).
	Stage *stage.Request
	// Registry is the URL to upload to.
	Registry string
	// Redactor keeps the registry's credentials out of what is printed;
	// it learns the token once it is read.
	Redactor *registry.Redactor
	// Plan loads, lints (through gate) and plans a source directory's build.
	Plan func(ctx context.Context, gate lintrun.Gate) (*build.Plan, error)
	// Load reads a pack (an archive here) with a usage error naming it.
	Load func(arg string, lim tarball.Limits) (*pack.Pack, error)
	// Gate applies the secrets gate to the archive about to be published.
	Gate func(*pack.Pack) error
	// Token finds the registry token.
	Token func() (registry.Token, error)
	// Client builds the registry client: with the token, a trace writer
	// for --verbose (nil otherwise) and the configuration's extra origins.
	Client func(token registry.Token, trace io.Writer, origins []string) (*registry.Client, error)
	// AfterHash, when set, runs once the archive is opened and hashed:
	// tests swap the file there to show no later step reads the new one.
	AfterHash func()
}

// run is one Request's state while it runs.
type run struct {
	Request
	tree    spec.Tree      // Spec parsed
	pending *build.Pending // a source build not yet moved into --output
}

// Run publishes.
func (r Request) Run(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	o := &run{Request: r}
	if o.Stage != nil {
		if err := o.Stage.Check(ctx); err != nil {
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
	if o.tree, err = spec.ParseTree(o.Spec); err != nil {
		return exitcode.Usagef("%v", err)
	}
	opt := lintrun.LintOptions(o.Env, false)
	opt.Spec = o.tree
	settings, err := lintrun.SettingsFor(o.Env, "", archivePath, opt, lintrun.NewSettingsMemo(), nil)
	if err != nil {
		return err
	}
	a, err := o.open(archivePath, settings, linted)
	if err != nil {
		return err
	}
	defer a.Close()
	gen, err := a.Generation(o.tree)
	if err != nil {
		return exitcode.Usagef("%s: %v", o.Target, err)
	}
	if o.Stage != nil {
		return o.stageIn(ctx, a, gen)
	}
	return o.upload(ctx, a, gen, settings.AllowOrigins)
}

// open reads and hashes the archive to publish, then applies the secrets
// gate and lint's (the enforced rules alone with --no-lint) to the archive
// that was hashed, unless the build that made it just linted it.
func (o *run) open(archivePath string, settings *lintrun.Settings, linted bool) (*publish.Archive, error) {
	a, err := publish.ReadArchive(archivePath, settings.Limits)
	if err != nil {
		return nil, exitcode.Usagef("%s: %v", o.Target, err)
	}
	if o.AfterHash != nil {
		o.AfterHash()
	}
	pk, err := o.Load(archivePath, settings.Limits)
	if err == nil && pk.ArchiveID() != a.ID { // both gates check the archive that was hashed
		err = exitcode.Usagef("%s: %v", o.Target, safefile.ErrChanged)
	}
	if err == nil {
		err = o.Gate(pk)
	}
	if err == nil && !linted {
		err = lintrun.GateFor(o.NoLint, true).Check(o.Env, pk, settings, lintrun.Show{Color: o.Color, Quiet: o.Quiet})
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// upload publishes the checked archive to the registry (publish.Run) and
// says what happened.
func (o *run) upload(ctx context.Context, a *publish.Archive, gen spec.Tree, origins []string) error {
	// A broken credentials setup fails before any traffic; the token also
	// goes with the GETs (a private registry may authenticate reads).
	token, err := o.Token()
	if err != nil {
		return err
	}
	o.Redactor.Add(string(token))
	var trace io.Writer
	if o.Verbose {
		trace = o.Env.ErrOut
	}
	client, err := o.Client(token, trace, origins)
	if err != nil {
		return err
	}
	req := publish.Request{Client: client, Archive: a, DryRun: o.DryRun}
	if u, _ := url.Parse(o.Registry); token != "" || u.User != nil {
		req.HasCredentials = true
	}
	if !o.Quiet && o.Tty && a.Size > progressThreshold {
		req.Body = o.progress
	}
	out, err := publish.Run(ctx, req)
	if err != nil {
		return publish.ExitError(ctx, err, o.Env.Invoked, func(c *publish.ConflictError) error { return o.conflict(c, out.Put) })
	}
	if out.Status == "dry-run" {
		fmt.Fprintf(o.Env.ErrOut, "would PUT %s: %d bytes (%s), %s\n", out.Put, a.Size, a.Integrity.SRI, a.SigningWords())
	}
	res := publish.Result{Status: out.Status, Name: a.Name, Version: a.Version, Integrity: a.Integrity.SRI, Registry: out.Registry, Archive: a.Path, Spec: string(gen)}
	if out.Theirs != a.Integrity.SRI {
		res.RegistryIntegrity = out.Theirs
	}
	return o.report(res)
}

// stageIn stages the checked archive into --stage's checkout and says
// what it did.
func (o *run) stageIn(ctx context.Context, a *publish.Archive, gen spec.Tree) error {
	var progress func(string, ...any)
	if !o.Quiet {
		progress = func(format string, args ...any) { fmt.Fprintf(o.Env.ErrOut, format+"\n", args...) }
	}
	st, err := o.Stage.Run(ctx, a, gen, o.tree, o.sourceDir(), progress)
	if err != nil {
		return err
	}
	if err := o.report(st.Report(a, gen)); err != nil {
		return err
	}
	if o.Format == "text" {
		o.Stage.NextSteps(o.Env.ErrOut, st, a)
	}
	return nil
}

// sourceDir is the pack's source folder when publishing from one, "" for
// an archive.
func (o *run) sourceDir() string {
	dir := o.Abs(o.Target)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return ""
	}
	return dir
}

// archive returns the .tgz to publish, building a source directory first;
// linted says the build already ran the lint gate.
func (o *run) archive(ctx context.Context) (path string, linted bool, err error) {
	info, err := os.Stat(o.Abs(o.Target))
	if err != nil {
		return "", false, exitcode.Usagef("%s: %v", o.Target, lintrun.WithoutPath(err))
	}
	if !info.IsDir() {
		return o.Abs(o.Target), false, nil
	}
	plan, err := o.Plan(ctx, lintrun.GateFor(o.NoLint, true))
	if err != nil {
		return "", false, err
	}
	if o.pending, err = build.WritePending(ctx, plan, o.Abs(o.OutDir), o.Now()); err != nil {
		return "", false, err
	}
	return o.pending.Result.Archive, true, nil
}

func (o *run) report(r publish.Result) error {
	if o.pending != nil { // success: the build replaces what --output held
		kept, err := o.pending.Keep()
		if err != nil {
			return err
		}
		r.Archive = kept
		fmt.Fprintf(o.Env.ErrOut, "built %s\n", kept)
	}
	if o.Format == "json" {
		return r.WriteJSON(o.Env.Out)
	}
	r.WriteText(o.Env.Out)
	return nil
}

func (o *run) progress(r io.Reader, size int64) io.Reader {
	bar := progressbar.DefaultBytes(size, "uploading")
	progressbar.OptionSetWriter(o.Env.ErrOut)(bar)
	reader := progressbar.NewReader(r, bar)
	return &reader
}

// conflict gives a version conflict the hint that fits what the user has.
func (o *run) conflict(err *publish.ConflictError, tarballURL string) error {
	c := publish.Conflict{Target: o.Target, TarballURL: tarballURL, Invoked: o.Env.Invoked}
	if o.pending != nil {
		c.Built, c.Local = true, o.pending.FinalPath()
		c.LocalShown = lintrun.DisplayRel(o.Env, c.Local)
	}
	return c.Hint(err)
}
