package logincmd

import (
	"context"
	"strings"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/credentials"
	"github.com/wop-cli/wop/internal/registry"
)

func runStatus(ctx context.Context, env *cli.Env, reg string) error {
	redactor := registry.NewRedactor()
	redactor.AddURL(reg)
	shown := redactor.String(strings.TrimSuffix(reg, "/"))
	out := *env
	out.Out, out.ErrOut = redactor.Writer(env.Out), redactor.Writer(env.ErrOut)
	return redactor.Error(credentials.Status(ctx, out.Out, env.Getenv, env.ConfigDir, shown, reg, env.Invoked, newChecker(env, reg, redactor)))
}

// newChecker makes the registry client that checks a token for reg.
func newChecker(env *cli.Env, reg string, redactor *registry.Redactor) func(registry.Token) (credentials.TokenChecker, error) {
	return func(token registry.Token) (credentials.TokenChecker, error) {
		return registry.New(registry.Options{Registry: reg, Token: token, UserAgent: "wop/" + env.Version,
			Transport: env.HTTPClient().Transport, MaxAttempts: 3, Redactor: redactor})
	}
}
