// Package logincmd implements `wop login`: store a registry token.
package logincmd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
	cmd := &cobra.Command{
		Use:   "login --registry URL",
		Short: "Store a registry token for wop pack publish",
		Long: `Read a registry token from standard input (without echo on a terminal) and
store it for URL in the user's config directory (wop/credentials.json, mode
0600). wop refuses to read that file if other users can.`,
		Example: `  wop login --registry https://registry.acme.dev
  echo "$TOKEN" | wop login --registry https://registry.acme.dev`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if reg == "" {
				return cli.Usagef("--registry URL is required")
			}
			if env.ConfigDir == "" {
				return errors.New("no user config directory to store the token in")
			}
			token, err := readToken(env)
			if err != nil {
				return err
			}
			path := credentials.Path(env.ConfigDir)
			if err := credentials.Save(path, reg, token); err != nil {
				return err
			}
			fmt.Fprintf(env.ErrOut, "stored the token for %s in %s\n", reg, path)
			return nil
		},
	}
	cmd.Flags().StringVar(&reg, "registry", "", "registry URL")
	return cmd
}

func readToken(env *cli.Env) (registry.Token, error) {
	if f, ok := env.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(env.ErrOut, "token: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(env.ErrOut)
		if err != nil {
			return "", err
		}
		return nonEmpty(string(b))
	}
	line, err := bufio.NewReader(env.In).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return nonEmpty(line)
}

func nonEmpty(s string) (registry.Token, error) {
	if s = strings.TrimSpace(s); s == "" {
		return "", cli.Usagef("no token on standard input")
	}
	return registry.Token(s), nil
}
