package credentials

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/registry"
)

// TokenChecker is the one registry call Status and CheckNew need;
// registry.Client, made with the token to check, is the real one.
type TokenChecker interface {
	Discover(ctx context.Context) (*registry.Discovery, error)
	CheckToken(ctx context.Context, d *registry.Discovery) (registry.TokenVerdict, error)
}

var _ TokenChecker = (*registry.Client)(nil)

// askRegistry asks the registry whether it takes the checker's token.
func askRegistry(ctx context.Context, c TokenChecker) (registry.TokenVerdict, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return registry.TokenUnchecked, err
	}
	return c.CheckToken(ctx, d)
}

// CheckNew asks the registry (shown as shown) about a token login is about
// to store, saying on w what it answered: refused or unchecked, the error
// says it was not stored.
func CheckNew(ctx context.Context, w io.Writer, shown string, c TokenChecker) error {
	const offlineHint = "pass --offline to store it without asking the registry"
	verdict, err := askRegistry(ctx, c)
	if err != nil {
		return &exitcode.Error{Code: exitcode.Network, Err: exitcode.WithHint(fmt.Errorf("could not ask %s about the token, so it was not stored: %w", shown, err), offlineHint)}
	}
	switch verdict {
	case registry.TokenRefused:
		return &exitcode.Error{Code: exitcode.Auth, Err: exitcode.WithHint(fmt.Errorf("%s refuses the token (401); it was not stored", shown),
			"get a new token from the registry's operators; "+offlineHint)}
	case registry.TokenAccepted:
		fmt.Fprintln(w, "the registry accepts the token")
	default:
		fmt.Fprintln(w, "not checked: the registry has no write API (it takes pull requests)")
	}
	return nil
}

// Status reports on w the token publish would use for reg without
// --token-stdin (Find; shown is reg as printed) and asks the registry about
// it through the checker made with it. Its hints name login as invoked
// runs it.
func Status(ctx context.Context, w io.Writer, getenv func(string) string, configDir, shown, reg string, invoked invocation.Name, checker func(registry.Token) (TokenChecker, error)) error {
	token, source, err := Find(getenv, configDir, reg)
	if err != nil {
		return exitcode.Usagef("%v", err)
	}
	fmt.Fprintf(w, "registry: %s\n", shown)
	if token == "" {
		fmt.Fprintln(w, "token:    none (no WOP_TOKEN, nothing stored for this registry)")
		return &exitcode.Error{Code: exitcode.Auth, Err: exitcode.WithHint(errors.New("no token for "+shown),
			"run '"+invoked.Cmd("login --registry "+shown)+"' with a token from the registry's operators, or set WOP_TOKEN")}
	}
	fmt.Fprintf(w, "token:    %s\n", source)
	c, err := checker(token)
	if err != nil {
		return err
	}
	verdict, err := askRegistry(ctx, c)
	if err != nil {
		return &exitcode.Error{Code: exitcode.Network, Err: err}
	}
	switch verdict {
	case registry.TokenRefused:
		fmt.Fprintln(w, "check:    refused by the registry (401)")
		return &exitcode.Error{Code: exitcode.Auth, Err: exitcode.WithHint(fmt.Errorf("%s refuses the token (%s)", shown, source),
			"get a new token and run '"+invoked.Cmd("login --registry "+shown)+"' (or fix WOP_TOKEN)")}
	case registry.TokenAccepted:
		fmt.Fprintln(w, "check:    accepted by the registry")
	default:
		fmt.Fprintln(w, "check:    not checked: the registry has no write API (it takes pull requests)")
	}
	return nil
}
