package packcmd

import (
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/sign"
)

// readVerifyKey reads verify's --key (sign.ReadPublicKeyArg): a key it was
// given that is not a public key is refused here, so verify never goes on
// to say "pass --key".
func readVerifyKey(env *cli.Env, arg string) ([]byte, error) {
	raw, err := sign.ReadPublicKeyArg(arg, env.Abs(arg), maxSmallFile)
	if err != nil {
		return nil, &cli.UsageError{Err: err}
	}
	return raw, nil
}
