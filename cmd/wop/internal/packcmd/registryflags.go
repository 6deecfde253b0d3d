package packcmd

import (
	"io"
	"net/url"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/credentials"
	"github.com/wop-cli/wop/internal/registry"
)

// registryFlags are the flags of commands that talk to a registry.
type registryFlags struct {
	url          string
	allowOrigins []string
}

func (f *registryFlags) addFlags(cmd *cobra.Command, usage string) {
	cmd.Flags().StringVar(&f.url, "registry", "", usage)
	cmd.Flags().StringArrayVar(&f.allowOrigins, "allow-origin", nil, "another origin (https://host[:port]) the registry's discovery document may send wop to; credentials never go there (repeatable)")
}

// validate checks the flags' syntax without printing credentials.
func (f *registryFlags) validate() error {
	if u, err := url.Parse(f.url); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return cli.Usagef("--registry %q: want an http(s) URL", registry.NewRedactor().String(f.url))
	}
	_, err := registry.ParseOrigins(f.allowOrigins)
	return err
}

// redacted runs run with everything it prints, and its error, passed
// through one redactor that knows the registry URL's credentials (run adds
// the token once it has read it).
func (f *registryFlags) redacted(env *cli.Env, run func(*cli.Env, *registry.Redactor) error) error {
	redactor := registry.NewRedactor()
	redactor.AddURL(f.url)
	e := *env
	e.Out, e.ErrOut = redactor.Writer(e.Out), redactor.Writer(e.ErrOut)
	return redactor.Error(run(&e, redactor))
}

// clientOptions say how a command's registry client behaves.
type clientOptions struct {
	token    registry.Token
	attempts int
	trace    io.Writer
	redactor *registry.Redactor
}

// client builds the one registry client for the command.
func (f *registryFlags) client(env *cli.Env, o clientOptions) (*registry.Client, error) {
	allow, err := registry.ParseOrigins(f.allowOrigins)
	if err != nil {
		return nil, err
	}
	c, err := registry.New(registry.Options{
		Registry:     f.url,
		Token:        o.token,
		AllowOrigins: allow,
		UserAgent:    "wop/" + env.Version,
		Transport:    env.HTTPClient().Transport,
		MaxAttempts:  o.attempts,
		Trace:        o.trace,
		Redactor:     o.redactor,
		Invoked:      env.Invoked,
	})
	if err != nil {
		return nil, cli.Usagef("--registry: %v", err)
	}
	return c, nil
}

// readToken finds a registry's token without asking for one: WOP_TOKEN,
// or the file 'wop login' writes ("" if neither has one).
func readToken(env *cli.Env, registryURL string) (registry.Token, error) {
	t, _, err := credentials.Find(env.Getenv, env.ConfigDir, registryURL)
	if err != nil {
		return "", cli.Usagef("%v", err)
	}
	return t, nil
}

// readTokenForReads finds a token for a command that only reads (verify):
// see credentials.FindForReads.
func readTokenForReads(env *cli.Env, registryURL string) (registry.Token, error) {
	t, err := credentials.FindForReads(env.Getenv, env.ConfigDir, registryURL)
	if err != nil {
		return "", cli.Usagef("%v", err)
	}
	return t, nil
}
