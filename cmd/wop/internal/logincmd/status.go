package logincmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/credentials"
	"github.com/wop-cli/wop/internal/registry"
)

// tokenChecker is the one registry call status needs; registry.Client is
// the real one.
type tokenChecker interface {
	Discover(ctx context.Context) (*registry.Discovery, error)
	CheckToken(ctx context.Context, d *registry.Discovery, token registry.Token) (registry.TokenVerdict, error)
}

var _ tokenChecker = (*registry.Client)(nil)

// currentToken finds the token publish would use without --token-stdin:
// WOP_TOKEN, else the stored one. source says where it came from.
func currentToken(env *cli.Env, reg string) (token registry.Token, source string, err error) {
	if t := env.Getenv("WOP_TOKEN"); t != "" {
		return registry.Token(t), "WOP_TOKEN", nil
	}
	if env.ConfigDir == "" {
		return "", "", nil
	}
	path := credentials.Path(env.ConfigDir)
	t, err := credentials.Token(path, reg)
	if err != nil {
		return "", "", cli.Usagef("%v", err)
	}
	if t == "" {
		return "", "", nil
	}
	return t, "stored in " + path, nil
}

func runStatus(ctx context.Context, env *cli.Env, reg string) error {
	client := &registry.Client{Base: strings.TrimSuffix(reg, "/"), HTTP: env.HTTPClient()}
	return status(ctx, env, reg, client)
}

func status(ctx context.Context, env *cli.Env, reg string, c tokenChecker) error {
	token, source, err := currentToken(env, reg)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "registry: %s\n", reg)
	if token == "" {
		fmt.Fprintln(env.Out, "token:    none (no WOP_TOKEN, nothing stored for this registry)")
		return &cli.ExitError{Code: cli.ExitAuth, Err: cli.WithHint(errors.New("no token for "+reg),
			"run 'wop login --registry "+reg+"' with a token from the registry's operators, or set WOP_TOKEN")}
	}
	fmt.Fprintf(env.Out, "token:    %s\n", source)
	d, err := c.Discover(ctx)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitNetwork, Err: err}
	}
	verdict, err := c.CheckToken(ctx, d, token)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitNetwork, Err: err}
	}
	switch verdict {
	case registry.TokenRefused:
		fmt.Fprintln(env.Out, "check:    refused by the registry (401)")
		return &cli.ExitError{Code: cli.ExitAuth, Err: cli.WithHint(fmt.Errorf("%s refuses the token (%s)", reg, source),
			"get a new token and run 'wop login --registry "+reg+"' (or fix WOP_TOKEN)")}
	case registry.TokenAccepted:
		fmt.Fprintln(env.Out, "check:    accepted by the registry")
	default:
		fmt.Fprintln(env.Out, "check:    not checked: the registry has no write API (it takes pull requests)")
	}
	return nil
}
