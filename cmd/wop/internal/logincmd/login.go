// Package logincmd implements `wop login` (store a registry token, or with
// --status say which token would be used and whether the registry takes it)
// and `wop logout` (forget it).
package logincmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/credentials"
	"github.com/wop-cli/wop/internal/registry"
	"golang.org/x/term"
)

// NewCmd returns `wop login`.
func NewCmd(env *cli.Env) *cobra.Command {
	var reg string
	var status, offline bool
	cmd := &cobra.Command{
		Use:   "login [--registry URL] [--status] [--offline]",
		Short: "Store a registry token for wop pack publish, or check the one in use",
		Long:  cli.LongHelp(helpFiles, "login"),
		Example: `  wop login --registry https://registry.acme.dev
  echo "$TOKEN" | wop login --registry https://registry.acme.dev
  WOP_REGISTRY=https://registry.acme.dev wop login --status`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			url, err := registry.URLFromFlag(reg, env.Getenv)
			if err != nil {
				return err
			}
			if status {
				return runStatus(cmd.Context(), env, url)
			}
			return runLogin(cmd.Context(), env, url, offline)
		},
	}
	cmd.Flags().StringVar(&reg, "registry", "", "registry URL (default $WOP_REGISTRY)")
	cmd.Flags().BoolVar(&status, "status", false, "show which token publish would use and whether the registry accepts it")
	cmd.Flags().BoolVar(&offline, "offline", false, "store the token without asking the registry whether it accepts it")
	cmd.MarkFlagsMutuallyExclusive("status", "offline")
	return cmd
}

// runLogin reads a token, has the registry check it (unless offline), and
// stores it; a refused token, or one that could not be checked, is not
// stored.
func runLogin(ctx context.Context, env *cli.Env, reg string, offline bool) error {
	if env.ConfigDir == "" {
		return errors.New("no user config directory to store the token in")
	}
	token, err := readToken(env)
	if err != nil {
		return err
	}
	redactor := registry.NewRedactor()
	redactor.AddURL(reg)
	redactor.Add(string(token))
	shown := redactor.String(strings.TrimSuffix(reg, "/"))
	if !offline {
		c, err := newChecker(env, reg, redactor)(token)
		if err != nil {
			return err
		}
		if err := credentials.CheckNew(ctx, env.ErrOut, shown, c); err != nil {
			return redactor.Error(err)
		}
	}
	path := credentials.Path(env.ConfigDir)
	if err := credentials.Save(path, reg, token); err != nil {
		return err
	}
	fmt.Fprintf(env.ErrOut, "stored the token for %s in %s\n", shown, path)
	return nil
}

// readToken reads the token to store: typed without echo at a terminal,
// else the first line of standard input (credentials.ReadToken).
func readToken(env *cli.Env) (registry.Token, error) {
	if f, ok := env.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(env.ErrOut, "token: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(env.ErrOut)
		if err != nil {
			return "", err
		}
		return credentials.CheckToken(string(b))
	}
	return credentials.ReadToken(env.In)
}
