package packcmd

import (
	"crypto/x509"
	"encoding/base64"
	"errors"
	"io/fs"
	"strings"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/sign"
)

// readVerifyKey reads verify's --key: a public key file (SPKI PEM, or a
// file holding its base64), or, when no such file exists, the base64 of
// the key itself as registries list it. A private key, or anything that is
// not a public key, is refused here with the parse error: verify must not
// go on to say "pass --key" about a key it was given.
func readVerifyKey(env *cli.Env, arg string) ([]byte, error) {
	raw, err := safefile.Read(env.Abs(arg), safefile.Options{Max: maxSmallFile, FollowLinks: true})
	if errors.Is(err, fs.ErrNotExist) {
		if der, decErr := base64.StdEncoding.DecodeString(strings.TrimSpace(arg)); decErr == nil && len(der) > 0 {
			raw, err = []byte(arg), nil
			if _, perr := x509.ParsePKIXPublicKey(der); perr != nil {
				return nil, cli.Usagef("--key: no file %s, and as base64 it is not a public key: %v", arg, perr)
			}
		}
	}
	if err != nil {
		return nil, cli.Usagef("--key: %v (want a public key file, or the key's base64)", withoutPath(err))
	}
	if err := sign.CheckPublicKey(raw); err != nil {
		return nil, cli.Usagef("--key %s: %v", arg, err)
	}
	return raw, nil
}
