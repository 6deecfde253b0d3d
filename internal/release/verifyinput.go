package release

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/flagfile"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/verify"
)

// OpenVerifyInput opens what `wop pack verify` checks, arg as the user gave
// it (abs is its absolute path): a file, read as it is verified (so a large
// archive is never held whole), or for NAME@VERSION the archive reg serves,
// whose version manifest then becomes the one compared (a --version-manifest
// read after this replaces it). reg is nil without --registry.
func OpenVerifyInput(ctx context.Context, reg *Registry, arg, abs string, opt *verify.Options) (io.ReadCloser, error) {
	name, version, remote := strings.Cut(arg, "@")
	if _, statErr := os.Stat(abs); !remote || statErr == nil {
		f, err := safefile.Open(abs, safefile.Options{Max: 2 * tarball.DefaultLimits.MaxTotal, FollowLinks: true})
		if err != nil {
			return nil, exitcode.Usagef("%s: %v", arg, lintrun.WithoutPath(err))
		}
		return f, nil
	}
	if reg == nil {
		return nil, exitcode.Usagef("%s: no such file; to verify a published version, pass --registry URL", arg)
	}
	data, manifest, err := reg.Fetch(ctx, name, version)
	if err != nil {
		return nil, registry.ExitError(ctx, err)
	}
	opt.Want = arg
	opt.VersionManifest = manifest
	return io.NopCloser(bytes.NewReader(data)), nil
}

// VerifyServed checks a registry's VERSION.json read from in against its
// detached signature at sigPath (absolute: sigAbs).
func VerifyServed(in io.Reader, sigPath, sigAbs string, opt verify.Options) (*verify.Report, error) {
	served, err := io.ReadAll(in)
	if err != nil {
		return nil, lintrun.WithoutPath(err)
	}
	sig, err := safefile.Read(sigAbs, safefile.Options{Max: flagfile.MaxSmall, FollowLinks: true})
	if err != nil {
		return nil, fmt.Errorf("signature %s: %v", sigPath, lintrun.WithoutPath(err))
	}
	return verify.ServedManifest(served, sig, opt)
}
