package logincmd

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/credentials"
	"github.com/wop-cli/wop/internal/registry"
)

// NewLogoutCmd returns `wop logout`.
func NewLogoutCmd(env *cli.Env) *cobra.Command {
	var reg string
	cmd := &cobra.Command{
		Use:   "logout [--registry URL]",
		Short: "Forget the token 'wop login' stored for a registry",
		Long: `Remove the registry's token from the credentials file 'wop login' writes.
The registry is --registry, or $WOP_REGISTRY. A token in WOP_TOKEN is not
wop's to forget: unset it. Nothing stored is not an error.`,
		Example: `  wop logout --registry https://registry.acme.dev`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			url, err := cli.RegistryURL(env, reg)
			if err != nil {
				return err
			}
			if env.ConfigDir == "" {
				return fmt.Errorf("no user config directory")
			}
			path := credentials.Path(env.ConfigDir)
			removed, err := credentials.Remove(path, url)
			if err != nil {
				return cli.Usagef("%v", err)
			}
			if removed {
				fmt.Fprintf(env.ErrOut, "removed the token for %s from %s\n", registry.NewRedactor().String(url), path)
			} else {
				fmt.Fprintf(env.ErrOut, "no token stored for %s\n", registry.NewRedactor().String(url))
			}
			if env.Getenv("WOP_TOKEN") != "" {
				fmt.Fprintln(env.ErrOut, "note: WOP_TOKEN is still set and publish will use it")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&reg, "registry", "", "registry URL (default $WOP_REGISTRY)")
	return cmd
}
