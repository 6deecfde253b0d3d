package bump

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/releasecheck"
	"github.com/wop-cli/wop/internal/tarball"
)

// Request is one `wop pack bump` run.
type Request struct {
	Lint     *lintrun.Env
	Out      io.Writer // one line per note on an edit
	Step     string    // major, minor, patch, auto or X.Y.Z
	Path     string    // the pack source directory as the user named it
	Against  string    // the previous release, "" for none
	Config   string
	DryRun   bool
	Previous releasecheck.PreviousFunc
}

// Run sets the version of the pack at r.Path by r.Step, and every place
// that embeds it, printing each edit's notes; with DryRun it writes nothing.
func Run(ctx context.Context, r Request) error {
	dir := r.Lint.Abs(r.Path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return exitcode.Usagef("%s: bump edits a pack source directory, not an archive", r.Path)
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		return exitcode.Usagef("%s: %v", r.Path, lintrun.WithoutPath(err))
	}
	pk.Display = pack.DisplayName(r.Path)
	cfg, err := lintrun.PackConfig(r.Lint, r.Config, dir)
	if err != nil {
		return err
	}
	current, err := pk.ManifestString("version")
	if err != nil {
		return exitcode.Usagef("%s: %v", r.Path, err)
	}
	var res *breaking.Result
	if r.Against != "" {
		if res, err = releasecheck.CompareWith(ctx, r.Previous, r.Against, dir, pk, cfg); err != nil {
			return err
		}
	}
	next, err := Next(r.Step, current, res)
	if err != nil {
		return exitcode.Usagef("%v", err)
	}
	opt := Options{SchemaBase: cmp.Or(cfg.SchemaBase, lint.DefaultSchemaBase)}
	if res != nil {
		opt.Stale = res.Stale
	}
	edits, err := Plan(pk, next, opt)
	if err != nil {
		return exitcode.Usagef("%s: %v", r.Path, err)
	}
	for _, e := range edits {
		for _, n := range e.Notes {
			fmt.Fprintf(r.Out, "%s: %s\n", pk.Path(e.Name), n)
		}
	}
	if r.DryRun || len(edits) == 0 {
		return nil
	}
	return Write(dir, edits)
}
