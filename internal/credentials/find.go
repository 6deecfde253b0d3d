package credentials

import (
	"net/url"

	"github.com/wop-cli/wop/internal/registry"
)

// Find is the token a publish to registryURL uses when none is given on
// standard input: WOP_TOKEN, else the one 'wop login' stored under
// configDir ("" when neither has one). source says where it came from:
// "WOP_TOKEN" or "stored in PATH".
func Find(getenv func(string) string, configDir, registryURL string) (token registry.Token, source string, err error) {
	if t := getenv("WOP_TOKEN"); t != "" {
		return registry.Token(t), "WOP_TOKEN", nil
	}
	if configDir == "" {
		return "", "", nil
	}
	path := Path(configDir)
	t, err := Token(path, registryURL)
	if err != nil || t == "" {
		return "", "", err
	}
	return t, "stored in " + path, nil
}

// FindForReads is the token for a command that only reads (verify): the
// one stored for registryURL, or WOP_TOKEN when WOP_REGISTRY names the same
// origin. Unlike a publish, a read never sends WOP_TOKEN to whatever
// registry it was pointed at.
func FindForReads(getenv func(string) string, configDir, registryURL string) (registry.Token, error) {
	if configDir != "" {
		t, err := Token(Path(configDir), registryURL)
		if err != nil || t != "" {
			return t, err
		}
	}
	target, err1 := url.Parse(registryURL)
	home, err2 := url.Parse(getenv("WOP_REGISTRY"))
	if err1 == nil && err2 == nil && home.Host != "" && registry.OriginOf(target) == registry.OriginOf(home) {
		return registry.Token(getenv("WOP_TOKEN")), nil
	}
	return "", nil
}
