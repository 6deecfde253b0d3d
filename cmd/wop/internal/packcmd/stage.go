package packcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/stage"
	"github.com/wop-cli/wop/internal/tarball"
)

// stageIn publishes to a pull-request registry: the checkout's discovery
// document and keys stand in for the registry (no network), the version is
// staged with every derived file, and the checkout's own gate judges it.
func (o *publishOptions) stageIn(ctx context.Context, a *publish.Archive, gen spec.Tree) error {
	tree, err := o.stageTree(gen)
	if err != nil {
		return err
	}
	c, d, err := o.stageChecks(ctx, a, tree)
	if err != nil {
		return err
	}
	p := stage.Pack{Archive: a, SourceDir: o.sourceDir()}
	// build writes the version manifest beside the archive; a missing or
	// stale one is made again from the archive.
	p.Manifest, _ = safefile.Read(strings.TrimSuffix(a.Path, ".tgz")+".json", safefile.Options{Max: tarball.DefaultLimits.MaxManifest, FollowLinks: true})
	opt := stage.Options{
		Tree: tree, NoGate: o.noGate, Branch: o.branch,
		Message: fmt.Sprintf("Publish %s@%s", a.Name, a.Version),
		Environ: withoutSecrets(os.Environ()),
	}
	if !o.quiet {
		opt.Progress = func(format string, args ...any) { fmt.Fprintf(o.env.ErrOut, format+"\n", args...) }
	}
	res, err := stage.Stage(ctx, c, p, opt)
	switch {
	case errors.Is(err, registry.ErrConflict):
		return &cli.ExitError{Code: cli.ExitConflict, Err: err}
	case err != nil:
		return err
	}
	out := result{Name: a.Name, Version: a.Version, Integrity: a.Integrity.SRI, Registry: d.URL, Archive: a.Path,
		Status: string(res.Status), Staged: c.Root, Branch: res.Branch, Spec: string(gen)}
	for _, e := range res.Edits {
		out.Files = append(out.Files, stagedFile{Path: e.Path, Op: e.Op})
	}
	out.Gate = res.GateNote
	if res.Gate != "" {
		out.Gate = res.Gate + " passed: the pull request is ready"
	}
	if err := o.report(out); err != nil {
		return err
	}
	return o.nextSteps(res, a, opt.Message)
}

// stageChecks opens the checkout and makes the checks a registry would
// before anything is staged: the tree, the key (as the checkout lists it)
// and the publish gates.
func (o *publishOptions) stageChecks(ctx context.Context, a *publish.Archive, tree string) (*stage.Checkout, *registry.Discovery, error) {
	c, err := o.openCheckout()
	if err != nil {
		return nil, nil, err
	}
	d, err := c.Discover(ctx)
	if errors.Is(err, registry.ErrUnreadable) {
		return nil, nil, &cli.UsageError{Err: err}
	}
	if err != nil {
		return nil, nil, err
	}
	if err := stage.CheckTree(tree, a); err != nil {
		return nil, nil, cli.Usagef("%v", err)
	}
	if err := c.CheckKey(d, a.KeyID(), a.Name); err != nil {
		var oe *registry.OriginError
		if errors.As(err, &oe) {
			return nil, nil, cli.WithHint(err, "a checkout stands in for the registry's own origin only; the key's publicKeyUrl must be a path or a URL on it")
		}
		return nil, nil, cli.WithHint(err, "add the registry's copy of the public key to the checkout, or sign with a key the checkout lists")
	}
	if err := publish.Gates(ctx, c.Client(d), d, a); err != nil {
		return nil, nil, err
	}
	return c, d, nil
}

// nextSteps says, after a text-format staging, what the author does next:
// push the branch made, or the git steps to make one.
func (o *publishOptions) nextSteps(res *stage.Result, a *publish.Archive, message string) error {
	if o.format != "text" || res.Status != stage.Staged {
		return nil
	}
	if res.Branch != "" {
		fmt.Fprintf(o.env.ErrOut, "committed on branch %s in %s (not pushed); next:\n  git -C %s push -u origin %s\nthen open a pull request for the branch.\n", res.Branch, o.stage, o.stage, res.Branch)
		return nil
	}
	fmt.Fprint(o.env.ErrOut, stage.GitSteps(o.stage, "publish/"+a.Name+"-"+a.Version, message, res.Edits))
	return nil
}

// stageTree is the registry tree to stage into: --tree, or by default the
// archive's spec generation gen (--spec, or its engine range), the tree
// the registry itself would put it in. A --tree that contradicts a forced
// --spec is a usage error.
func (o *publishOptions) stageTree(gen spec.Tree) (string, error) {
	if o.tree == "" {
		return string(gen), nil
	}
	if asked, _ := o.keys.tree(); asked != spec.Auto && string(asked) != o.tree {
		return "", cli.Usagef("--tree %s contradicts --spec %s: drop one", o.tree, asked)
	}
	return o.tree, nil
}

// openCheckout opens --stage's registry checkout.
func (o *publishOptions) openCheckout() (*stage.Checkout, error) {
	c, err := stage.Open(o.env.Abs(o.stage))
	if err != nil {
		return nil, cli.WithHint(cli.Usagef("--stage: %v", err), "pass a clone of the registry's repository: git clone https://github.com/openwop/openwop-registry")
	}
	return c, nil
}

// checkStage refuses a --stage CHECKOUT (and --branch) that cannot take the
// change before the pack is built and the checkout's generators run: a
// folder that is no registry checkout, or, with --branch, no git clone or
// a branch that exists.
func (o *publishOptions) checkStage(ctx context.Context) error {
	c, err := o.openCheckout()
	if err != nil || o.branch == "" {
		return err
	}
	if err := c.CheckBranch(ctx, os.Environ(), o.branch); err != nil {
		return &cli.UsageError{Err: err}
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

// stageSecrets are the credentials wop reads from the environment. Staging
// needs none of them (it reads a checkout, sends nothing), and the
// generators and gate it runs are the checkout's code, whose output wop
// shows when they fail: a gate that prints its environment must not print
// the registry token.
var stageSecrets = []string{"WOP_TOKEN", "SIGSTORE_ID_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"}

// withoutSecrets returns environ without stageSecrets.
func withoutSecrets(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(stageSecrets, name) {
			out = append(out, kv)
		}
	}
	return out
}
