package verify

import (
	"context"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/flagfile"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/sigstorehelper"
	"github.com/wop-cli/wop/internal/tarball"
)

// Flags are what wop pack verify's flags name, before the files are read.
type Flags struct {
	Key             string // --key: an SPKI PEM file, or the key's base64
	VersionManifest string // --version-manifest
	Source          string // --source
	// Sigstore is the helper's verify request the Sigstore flags make
	// (the trusted root resolved); it applies with --key or an identity.
	Sigstore sigstorehelper.Request
	Abs      func(string) string
	Getenv   func(string) string
}

// Read reads what the flags name into opt: the key (--key, or a Sigstore
// identity), the version manifest, the source to rebuild.
func (f Flags) Read(ctx context.Context, opt *Options) error {
	var sigstoreKey []byte
	if f.Key != "" {
		raw, err := flagfile.PublicKey(f.Key, f.Abs(f.Key))
		if err != nil {
			return err
		}
		// An Ed25519 SPKI key checks the manual scheme; any other public key
		// (or the same key, for an Ed25519ph bundle) checks a Sigstore bundle.
		opt.Key, _ = sign.ParsePublicKey(raw)
		opt.KeyName = "--key " + f.Key
		sigstoreKey = raw
	}
	if f.Key != "" || f.Sigstore.Subject != "" || f.Sigstore.SubjectRegexp != "" {
		req := f.Sigstore
		req.PublicKeyPEM = sigstoreKey
		opt.Sigstore = sigstorehelper.Verifier(ctx, f.Getenv, req)
	}
	var err error
	if f.VersionManifest != "" {
		if opt.VersionManifest, err = flagfile.Read("--version-manifest", f.VersionManifest, f.Abs(f.VersionManifest), flagfile.MaxSmall); err != nil {
			return err
		}
	}
	if f.Source != "" {
		if opt.Source, err = pack.Load(f.Abs(f.Source), tarball.DefaultLimits); err != nil {
			return exitcode.Usagef("%s: %v", f.Source, lintrun.WithoutPath(err))
		}
		opt.Source.Display = pack.DisplayName(f.Source)
	}
	return nil
}
