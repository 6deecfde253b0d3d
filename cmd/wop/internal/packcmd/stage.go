package packcmd

import (
	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/stage"
)

// stageFlags are publish's flags for a pull-request registry: the version
// is staged into a checkout of its repository instead of uploaded.
type stageFlags struct{ req stage.Request }

func (s *stageFlags) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&s.req.Checkout, "stage", "", "clone of a pull-request registry's repository to stage the version in (offline; --registry not needed)")
	f.StringVar(&s.req.Tree, "tree", "", "registry tree to stage into: v1 or v2 (default: the pack's spec generation, as --spec picks it)")
	f.BoolVar(&s.req.NoGate, "no-registry-check", false, "with --stage: skip the checkout's CI gate")
	f.StringVar(&s.req.Branch, "branch", "", "with --stage: create this branch in the checkout and commit the change (never pushed)")
}

// request is the flags as stage.Request, the checkout resolved against
// env's working directory.
func (s *stageFlags) request(env *cli.Env) stage.Request {
	r := s.req
	r.Root, r.Invoked = env.Abs(r.Checkout), env.Invoked
	return r
}
