// Package credentials stores registry tokens for `wop login` in a file only
// its owner can read, and refuses to use one that others can.
package credentials

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
)

// maxSize bounds the credentials file: a few tokens, never megabytes (a
// device or a runaway file there must not balloon wop).
const maxSize = 1 << 20

// File is the credentials file: registry URL -> token.
type File struct {
	Registries map[string]entry `json:"registries"`
}

type entry struct {
	Token string `json:"token"`
}

// Path is the credentials file under the user's config directory.
func Path(configDir string) string { return filepath.Join(configDir, "wop", "credentials.json") }

// ErrTooOpen means group or others can read the file.
var ErrTooOpen = errors.New("is readable by other users")

func key(registryURL string) string { return strings.TrimSuffix(registryURL, "/") }

// Token returns the stored token for a registry ("" if none).
func Token(path, registryURL string) (registry.Token, error) {
	f, err := load(path)
	if err != nil || f == nil {
		return "", err
	}
	return registry.Token(f.Registries[key(registryURL)].Token), nil
}

func load(path string) (*File, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s %w (mode %o); run 'chmod 600 %s'", path, ErrTooOpen, info.Mode().Perm(), path)
	}
	raw, err := safefile.Read(path, safefile.Options{Max: maxSize, FollowLinks: true})
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: not a wop credentials file: %w", path, err)
	}
	return &f, nil
}

// Save stores token for a registry, creating the file with mode 0600. A
// registry wop would never send it to (http across a network: see
// registry.SafeForCredentials) is refused before anything is written.
func Save(path, registryURL string, token registry.Token) error {
	if u, err := url.Parse(registryURL); err != nil || !registry.SafeForCredentials(u) {
		return fmt.Errorf("registry URL %s: wop sends tokens only over https, or over http to this machine (localhost, 127.0.0.1, ::1); log in with the registry's https URL", registry.NewRedactor().String(registryURL))
	}
	f, err := load(path)
	if err != nil {
		return err
	}
	if f == nil {
		f = &File{}
	}
	if f.Registries == nil {
		f.Registries = map[string]entry{}
	}
	f.Registries[key(registryURL)] = entry{Token: string(token)}
	raw, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, append(raw, '\n'), 0o600)
}

// Remove deletes the stored token for a registry. removed is false when
// there was none. The file is rewritten atomically, still mode 0600.
func Remove(path, registryURL string) (removed bool, err error) {
	f, err := load(path)
	if err != nil || f == nil {
		return false, err
	}
	if _, ok := f.Registries[key(registryURL)]; !ok {
		return false, nil
	}
	delete(f.Registries, key(registryURL))
	raw, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return false, err
	}
	return true, atomicfile.Write(path, append(raw, '\n'), 0o600)
}
