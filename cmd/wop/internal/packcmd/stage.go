package packcmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/stage"
	"github.com/wop-cli/wop/internal/tarball"
)

// stageFlags are publish's flags for a pull-request registry: the version
// is staged into a checkout of its repository instead of uploaded.
type stageFlags struct {
	checkout, tree, branch string
	noGate                 bool
}

func (s *stageFlags) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&s.checkout, "stage", "", "clone of a pull-request registry's repository to stage the version in (offline; --registry not needed)")
	f.StringVar(&s.tree, "tree", "", "registry tree to stage into: v1 or v2 (default: the pack's spec generation, as --spec picks it)")
	f.BoolVar(&s.noGate, "no-registry-check", false, "with --stage: skip the checkout's CI gate")
	f.StringVar(&s.branch, "branch", "", "with --stage: create this branch in the checkout and commit the change (never pushed)")
}

// staged is what staging did, for publish to report.
type staged struct {
	res     *stage.Result
	root    string // the checkout
	url     string // the registry it stands for
	message string // the commit message
}

// stageIn publishes to a pull-request registry (stage.Publish): the
// checkout's discovery document and keys stand in for the registry (no
// network), the version is staged with every derived file, and the
// checkout's own gate judges it. asked is --spec; source the pack's folder
// ("" for an archive); progress (nil: quiet) is told each step.
func (s *stageFlags) stageIn(ctx context.Context, env *cli.Env, a *publish.Archive, gen, asked spec.Tree, source string, progress func(string, ...any)) (*staged, error) {
	tree, err := s.stageTree(gen, asked)
	if err != nil {
		return nil, err
	}
	c, err := s.open(env)
	if err != nil {
		return nil, err
	}
	p := stage.Pack{Archive: a, SourceDir: source}
	// build writes the version manifest beside the archive; a missing or
	// stale one is made again from the archive.
	p.Manifest, _ = safefile.Read(strings.TrimSuffix(a.Path, ".tgz")+".json", safefile.Options{Max: tarball.DefaultLimits.MaxManifest, FollowLinks: true})
	opt := stage.Options{
		Tree: tree, NoGate: s.noGate, Branch: s.branch,
		Message: fmt.Sprintf("Publish %s@%s", a.Name, a.Version),
		Environ: stage.WithoutSecrets(os.Environ()), Progress: progress,
	}
	res, d, err := stage.Publish(ctx, c, p, opt)
	if err != nil {
		return nil, stage.ExitError(err)
	}
	return &staged{res: res, root: c.Root, url: d.URL, message: opt.Message}, nil
}

// nextSteps tells the author what to do after staging: push the branch
// made, or the git steps to make one.
func (s *stageFlags) nextSteps(w io.Writer, st *staged, a *publish.Archive) {
	if st.res.Status != stage.Staged {
		return
	}
	if st.res.Branch != "" {
		fmt.Fprintf(w, "committed on branch %s in %s (not pushed); next:\n  git -C %s push -u origin %s\nthen open a pull request for the branch.\n", st.res.Branch, s.checkout, s.checkout, st.res.Branch)
		return
	}
	fmt.Fprint(w, stage.GitSteps(s.checkout, "publish/"+a.Name+"-"+a.Version, st.message, st.res.Edits))
}

// stageTree is the registry tree to stage into: --tree, or by default the
// archive's spec generation gen (--spec, or its engine range), the tree
// the registry itself would put it in. A --tree that contradicts a forced
// --spec (asked) is a usage error.
func (s *stageFlags) stageTree(gen, asked spec.Tree) (string, error) {
	if s.tree == "" {
		return string(gen), nil
	}
	if asked != spec.Auto && string(asked) != s.tree {
		return "", cli.Usagef("--tree %s contradicts --spec %s: drop one", s.tree, asked)
	}
	return s.tree, nil
}

// open opens --stage's registry checkout.
func (s *stageFlags) open(env *cli.Env) (*stage.Checkout, error) {
	c, err := stage.Open(env.Abs(s.checkout))
	if err != nil {
		return nil, cli.WithHint(cli.Usagef("--stage: %v", err), "pass a clone of the registry's repository: git clone https://github.com/openwop/openwop-registry")
	}
	return c, nil
}

// check refuses a --stage CHECKOUT (and --branch) that cannot take the
// change before the pack is built and the checkout's generators run: a
// folder that is no registry checkout, or, with --branch, no git clone or
// a branch that exists.
func (s *stageFlags) check(ctx context.Context, env *cli.Env) error {
	c, err := s.open(env)
	if err != nil || s.branch == "" {
		return err
	}
	if err := c.CheckBranch(ctx, os.Environ(), s.branch); err != nil {
		return &cli.UsageError{Err: err}
	}
	return nil
}
