package logincmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/credentials"
	"github.com/wop-cli/wop/internal/registry"
)

// NewLogoutCmd returns `wop logout`.
func NewLogoutCmd(env *cli.Env) *cobra.Command {
	var reg string
	cmd := &cobra.Command{
		Use:     "logout [--registry URL]",
		Short:   "Forget the token 'wop login' stored for a registry",
		Long:    cli.LongHelp(helpFiles, "logout"),
		Example: `  wop logout --registry https://registry.acme.dev`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			url, err := logoutRegistry(env, reg)
			if err != nil || url == "" {
				return err
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
	cmd.Flags().StringVar(&reg, "registry", "", "registry URL (default $WOP_REGISTRY, or the one registry a token is stored for)")
	return cmd
}

// logoutRegistry is the registry to log out of: --registry or
// $WOP_REGISTRY as for every command, else the only one a token is stored
// for. "" (and no error) when nothing is stored at all.
func logoutRegistry(env *cli.Env, flag string) (string, error) {
	var url string
	if flag != "" || env.Getenv("WOP_REGISTRY") != "" {
		var err error
		if url, err = registry.URLFromFlag(flag, env.Getenv); err != nil {
			return "", err
		}
	}
	if env.ConfigDir == "" {
		return "", errors.New("no user config directory")
	}
	if url != "" {
		return url, nil
	}
	stored, err := credentials.Registries(credentials.Path(env.ConfigDir))
	if err != nil {
		return "", cli.Usagef("%v", err)
	}
	switch len(stored) {
	case 0:
		fmt.Fprintln(env.ErrOut, "no token stored for any registry")
		return "", nil
	case 1:
		return stored[0], nil
	}
	shown := make([]string, len(stored))
	for i, s := range stored {
		shown[i] = registry.NewRedactor().String(s)
	}
	return "", cli.Usagef("--registry URL is required: tokens are stored for %s", strings.Join(shown, ", "))
}
