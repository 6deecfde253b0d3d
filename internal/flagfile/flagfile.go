// Package flagfile reads the small files a command's flags name (keys,
// signatures, version manifests) safely, with errors that name the flag.
package flagfile

import (
	"fmt"
	"io"
	"runtime"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/sign"
)

// MaxSmall bounds the small files a flag names: keys, signatures,
// version manifests. Any real one is a few KB.
const MaxSmall = 1 << 20

// Read reads a file a flag names through safefile: it may be a link (the
// user chose it), but never a FIFO or device, and never larger than max.
// abs is path made absolute; errors are usage errors naming the flag.
func Read(flag, path, abs string, max int64) ([]byte, error) {
	data, err := safefile.Read(abs, safefile.Options{Max: max, FollowLinks: true})
	if err != nil {
		return nil, exitcode.Usagef("%s %s: %v", flag, path, lintrun.WithoutPath(err))
	}
	return data, nil
}

// maxKeyFile bounds a private key file; a PEM Ed25519 key is 119 bytes.
const maxKeyFile = 64 << 10

// PrivateKey reads the --key file (path as typed, abs made absolute). A key
// that group or others can read may already be someone else's: a warning
// on warn, or refused when strict (publish), as ssh refuses such keys.
func PrivateKey(warn io.Writer, path, abs string, strict bool) ([]byte, error) {
	f, err := safefile.Open(abs, safefile.Options{Max: maxKeyFile, FollowLinks: true})
	if err != nil {
		return nil, exitcode.Usagef("--key %s: %v", path, lintrun.WithoutPath(err))
	}
	defer f.Close()
	if perm := f.Info.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		msg := fmt.Sprintf("--key %s is readable by others (mode %04o)", path, perm)
		if strict {
			return nil, exitcode.WithHint(exitcode.Usagef("%s; refusing to publish with a key that may be compromised", msg), "chmod 600 "+path+", and rotate the key if others could read it")
		}
		fmt.Fprintf(warn, "wop: warning: %s; chmod 600 it\n", msg)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, exitcode.Usagef("--key %s: %v", path, lintrun.WithoutPath(err))
	}
	return data, nil
}

// PublicKey reads verify's --key (sign.ReadPublicKeyArg; abs is arg made
// absolute): a key it was given that is not a public key is refused here,
// so verify never goes on to say "pass --key".
func PublicKey(arg, abs string) ([]byte, error) {
	raw, err := sign.ReadPublicKeyArg(arg, abs, MaxSmall)
	if err != nil {
		return nil, &exitcode.UsageError{Err: err}
	}
	return raw, nil
}
