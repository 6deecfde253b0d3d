package stage

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
)

// Request is `wop pack publish --stage`: a version staged into a checkout
// of a pull-request registry's repository instead of uploaded.
type Request struct {
	Checkout string // --stage as the user gave it, for messages
	Root     string // the checkout's absolute path
	Tree     string // --tree, "" for the archive's spec generation
	Branch   string // --branch, "" to commit nothing
	NoGate   bool   // --no-registry-check
	// Invoked is the command that started wop, for hints that name one.
	Invoked invocation.Name
}

// Outcome is what staging did, for publish to report.
type Outcome struct {
	Result  *Result
	Root    string // the checkout
	URL     string // the registry it stands for
	Message string // the commit message
}

// Run publishes a to the pull-request registry (Publish): the checkout's
// discovery document and keys stand in for the registry (no network), the
// version is staged with every derived file, and the checkout's own gate
// judges it. asked is --spec; source the pack's folder ("" for an
// archive); progress (nil: quiet) is told each step.
func (r Request) Run(ctx context.Context, a *publish.Archive, gen, asked spec.Tree, source string, progress func(string, ...any)) (*Outcome, error) {
	tree, err := r.tree(gen, asked)
	if err != nil {
		return nil, err
	}
	c, err := r.open()
	if err != nil {
		return nil, err
	}
	p := Pack{Archive: a, SourceDir: source}
	// build writes the version manifest beside the archive; a missing or
	// stale one is made again from the archive.
	p.Manifest, _ = safefile.Read(strings.TrimSuffix(a.Path, ".tgz")+".json", safefile.Options{Max: tarball.DefaultLimits.MaxManifest, FollowLinks: true})
	opt := Options{
		Tree: tree, NoGate: r.NoGate, Branch: r.Branch,
		Message: fmt.Sprintf("Publish %s@%s", a.Name, a.Version),
		Environ: WithoutSecrets(os.Environ()), Progress: progress, Invoked: r.Invoked,
	}
	res, d, err := Publish(ctx, c, p, opt)
	if err != nil {
		return nil, ExitError(err)
	}
	return &Outcome{Result: res, Root: c.Root, URL: d.URL, Message: opt.Message}, nil
}

// NextSteps tells the author what to do after staging: push the branch
// made, or the git steps to make one.
func (r Request) NextSteps(w io.Writer, st *Outcome, a *publish.Archive) {
	if st.Result.Status != Staged {
		return
	}
	if st.Result.Branch != "" {
		fmt.Fprintf(w, "committed on branch %s in %s (not pushed); next:\n  git -C %s push -u origin %s\nthen open a pull request for the branch.\n", st.Result.Branch, r.Checkout, r.Checkout, st.Result.Branch)
		return
	}
	fmt.Fprint(w, GitSteps(r.Checkout, "publish/"+a.Name+"-"+a.Version, st.Message, st.Result.Edits))
}

// tree is the registry tree to stage into: --tree, or by default the
// archive's spec generation gen (--spec, or its engine range), the tree
// the registry itself would put it in. A --tree that contradicts a forced
// --spec (asked) is a usage error.
func (r Request) tree(gen, asked spec.Tree) (string, error) {
	if r.Tree == "" {
		return string(gen), nil
	}
	if asked != spec.Auto && string(asked) != r.Tree {
		return "", exitcode.Usagef("--tree %s contradicts --spec %s: drop one", r.Tree, asked)
	}
	return r.Tree, nil
}

// open opens the registry checkout.
func (r Request) open() (*Checkout, error) {
	c, err := Open(r.Root)
	if err != nil {
		return nil, exitcode.WithHint(exitcode.Usagef("--stage: %v", err), "pass a clone of the registry's repository: git clone https://github.com/openwop/openwop-registry")
	}
	return c, nil
}

// Check refuses a checkout (and --branch) that cannot take the change
// before the pack is built and the checkout's generators run: a folder
// that is no registry checkout, or, with --branch, no git clone or a
// branch that exists.
func (r Request) Check(ctx context.Context) error {
	c, err := r.open()
	if err != nil || r.Branch == "" {
		return err
	}
	if err := c.CheckBranch(ctx, os.Environ(), r.Branch); err != nil {
		return &exitcode.UsageError{Err: err}
	}
	return nil
}

// Report is what publish prints for a staged archive a of generation gen.
func (o *Outcome) Report(a *publish.Archive, gen spec.Tree) publish.Result {
	out := publish.Result{Name: a.Name, Version: a.Version, Integrity: a.Integrity.SRI, Registry: o.URL, Archive: a.Path,
		Status: string(o.Result.Status), Staged: o.Root, Branch: o.Result.Branch, Spec: string(gen)}
	for _, e := range o.Result.Edits {
		out.Files = append(out.Files, publish.StagedFile{Path: e.Path, Op: e.Op})
	}
	out.Gate = o.Result.GateNote
	if o.Result.Gate != "" {
		out.Gate = o.Result.Gate + " passed: the pull request is ready"
	}
	return out
}
