package packcmd

import (
	"context"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/lintrun"
)

func newSignCmd(env *cli.Env, runF func(context.Context, *buildOptions) error) *cobra.Command {
	o := &buildOptions{env: env}
	cmd := &cobra.Command{
		Use:   "sign DIR|TGZ",
		Short: "Build and sign a pack, or re-sign a built archive",
		Long:  cli.LongHelp(helpFiles, "sign"),
		Example: `  wop pack sign . --key team.pem --key-id openwop-team-1 -o dist
  wop pack sign dist/acme.pack-1.0.0.tgz --key team.pem --key-id acme-1 --spec v2`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.keys.key == "" && o.keys.signature == "" && !o.keys.sigstore.enabled {
				return cli.Usagef("sign needs --key, --signature with --key-id, or --sigstore")
			}
			if err := o.keys.validate(); err != nil {
				return err
			}
			o.dirs = args
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runSign(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVarP(&o.outDir, "output", "o", "", "directory for the signed archive (default: beside the input)")
	cmd.Flags().BoolVar(&o.noLint, "no-lint", false, "sign even if lint finds errors")
	o.keys.addFlags(cmd)
	return cmd
}

// runSign builds and signs a source folder (as build does), or re-signs an
// archive: its pack.json and signature rewritten, its other entries kept.
func runSign(ctx context.Context, o *buildOptions) error {
	env, arg := o.env, o.dirs[0]
	pk, err := loadPack(env, arg)
	if err != nil {
		return err
	}
	if pk.Archive == nil {
		return runBuild(ctx, o)
	}
	if o.outDir == "" {
		o.outDir = filepath.Dir(env.Abs(arg))
	}
	settings, err := lintrun.SettingsFor(env.Lint(), "", env.Abs(arg), lintrun.LintOptions(env.Lint(), false), lintrun.NewSettingsMemo(), nil)
	if err != nil {
		return err
	}
	o.keys.configKeyID = settings.KeyID
	plan, err := planFor(ctx, env, pk, &o.keys)
	if err != nil {
		return err
	}
	res, err := plan.Write(ctx, env.Abs(o.outDir))
	if err != nil {
		return err
	}
	res.WriteText(env.Out, env.Rel)
	return nil
}
