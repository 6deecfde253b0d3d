package packcmd

import (
	"fmt"
	"github.com/wop-cli/wop/internal/lintrun"
	"io"
	"runtime"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/safefile"
)

// maxSmallFile bounds the small files a flag names: keys, signatures,
// version manifests. Any real one is a few KB.
const maxSmallFile = 1 << 20

// readUserFile reads a file a flag names through safefile: it may be a link
// (the user chose it), but never a FIFO or device, and never larger than
// max. Errors are usage errors naming the flag.
func readUserFile(env *cli.Env, flag, path string, max int64) ([]byte, error) {
	data, err := safefile.Read(env.Abs(path), safefile.Options{Max: max, FollowLinks: true})
	if err != nil {
		return nil, cli.Usagef("%s %s: %v", flag, path, lintrun.WithoutPath(err))
	}
	return data, nil
}

// maxKeyFile bounds a private key file; a PEM Ed25519 key is 119 bytes.
const maxKeyFile = 64 << 10

// readPrivateKey reads the --key file. A key that group or others can read
// may already be someone else's: a warning, or refused when strict
// (publish), as ssh refuses such keys.
func readPrivateKey(env *cli.Env, path string, strict bool) ([]byte, error) {
	f, err := safefile.Open(env.Abs(path), safefile.Options{Max: maxKeyFile, FollowLinks: true})
	if err != nil {
		return nil, cli.Usagef("--key %s: %v", path, lintrun.WithoutPath(err))
	}
	defer f.Close()
	if perm := f.Info.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		msg := fmt.Sprintf("--key %s is readable by others (mode %04o)", path, perm)
		if strict {
			return nil, cli.WithHint(cli.Usagef("%s; refusing to publish with a key that may be compromised", msg), "chmod 600 "+path+", and rotate the key if others could read it")
		}
		fmt.Fprintf(env.ErrOut, "wop: warning: %s; chmod 600 it\n", msg)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, cli.Usagef("--key %s: %v", path, lintrun.WithoutPath(err))
	}
	return data, nil
}
