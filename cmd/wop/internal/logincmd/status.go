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

// tokenChecker is the one registry call status needs; registry.Client, made
// with the token to check, is the real one.
type tokenChecker interface {
	Discover(ctx context.Context) (*registry.Discovery, error)
	CheckToken(ctx context.Context, d *registry.Discovery) (registry.TokenVerdict, error)
}

var _ tokenChecker = (*registry.Client)(nil)

// currentToken finds the token publish would use without --token-stdin
// (credentials.Find); source says where it came from.
func currentToken(env *cli.Env, reg string) (token registry.Token, source string, err error) {
	token, source, err = credentials.Find(env.Getenv, env.ConfigDir, reg)
	if err != nil {
		return "", "", cli.Usagef("%v", err)
	}
	return token, source, nil
}

func runStatus(ctx context.Context, env *cli.Env, reg string) error {
	redactor := registry.NewRedactor()
	redactor.AddURL(reg)
	shown := redactor.String(strings.TrimSuffix(reg, "/"))
	out := *env
	out.Out, out.ErrOut = redactor.Writer(env.Out), redactor.Writer(env.ErrOut)
	return redactor.Error(status(ctx, &out, shown, reg, newChecker(env, reg, redactor)))
}

// newChecker makes the registry client that checks a token for reg.
func newChecker(env *cli.Env, reg string, redactor *registry.Redactor) func(registry.Token) (tokenChecker, error) {
	return func(token registry.Token) (tokenChecker, error) {
		return registry.New(registry.Options{Registry: reg, Token: token, UserAgent: "wop/" + env.Version,
			Transport: env.HTTPClient().Transport, MaxAttempts: 3, Redactor: redactor})
	}
}

// askRegistry asks the registry whether it takes the checker's token.
func askRegistry(ctx context.Context, c tokenChecker) (registry.TokenVerdict, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return registry.TokenUnchecked, err
	}
	return c.CheckToken(ctx, d)
}

// status reports the token for reg (shown is reg as printed) and asks the
// registry about it through the checker made with it.
func status(ctx context.Context, env *cli.Env, shown, reg string, checker func(registry.Token) (tokenChecker, error)) error {
	token, source, err := currentToken(env, reg)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "registry: %s\n", shown)
	if token == "" {
		fmt.Fprintln(env.Out, "token:    none (no WOP_TOKEN, nothing stored for this registry)")
		return &cli.ExitError{Code: cli.ExitAuth, Err: cli.WithHint(errors.New("no token for "+shown),
			"run 'wop login --registry "+shown+"' with a token from the registry's operators, or set WOP_TOKEN")}
	}
	fmt.Fprintf(env.Out, "token:    %s\n", source)
	c, err := checker(token)
	if err != nil {
		return err
	}
	verdict, err := askRegistry(ctx, c)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitNetwork, Err: err}
	}
	switch verdict {
	case registry.TokenRefused:
		fmt.Fprintln(env.Out, "check:    refused by the registry (401)")
		return &cli.ExitError{Code: cli.ExitAuth, Err: cli.WithHint(fmt.Errorf("%s refuses the token (%s)", shown, source),
			"get a new token and run 'wop login --registry "+shown+"' (or fix WOP_TOKEN)")}
	case registry.TokenAccepted:
		fmt.Fprintln(env.Out, "check:    accepted by the registry")
	default:
		fmt.Fprintln(env.Out, "check:    not checked: the registry has no write API (it takes pull requests)")
	}
	return nil
}
