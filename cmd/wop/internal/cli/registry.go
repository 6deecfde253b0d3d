package cli

import (
	"net/url"

	"github.com/wop-cli/wop/internal/registry"
)

// RegistryURL is the registry a command talks to: the --registry flag, else
// $WOP_REGISTRY, checked to be an http(s) URL. Every command that takes
// --registry resolves it here, so they agree.
func RegistryURL(env *Env, flag string) (string, error) {
	reg := flag
	if reg == "" {
		reg = env.Getenv("WOP_REGISTRY")
	}
	if reg == "" {
		return "", Usagef("--registry URL is required (or set WOP_REGISTRY)")
	}
	if u, err := url.Parse(reg); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", Usagef("--registry %q: want an http(s) URL", registry.NewRedactor().String(reg))
	}
	return reg, nil
}
