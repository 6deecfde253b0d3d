package packcmd

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/flagfile"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/spec"
)

// keyFlags are the signing flags shared by build, sign and publish.
type keyFlags struct {
	key, keyID, spec, signature string
	unsigned                    bool
	sigstore                    sigstoreFlags
	configKeyID                 string // keyId from the pack's .wop.yaml, set by the command
	// strictKeyMode refuses a private key others can read (publish, as ssh
	// does); otherwise it is a warning.
	strictKeyMode bool
	// keyPEM is the --key file, read once by preload for every pack a
	// command builds (nil until then, and with --sigstore).
	keyPEM []byte
	// parsedKey is keyPEM parsed by preload (nil if it does not parse:
	// signing then says why, per pack); each pack copies it under its own
	// key id rather than parsing the PEM again.
	parsedKey *sign.PrivateKey
	// allowSecrets names files the secrets gate lets through: the one,
	// deliberate, per-file override (the commands that sign are the ones
	// that build, so the flag lives with the signing flags).
	allowSecrets []string
}

func (k *keyFlags) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&k.key, "key", "", "Ed25519 private key, PKCS#8 PEM (openssl genpkey -algorithm ed25519)")
	cmd.Flags().StringVar(&k.keyID, "key-id", "", "the registry's id of the signing key (signing.keyId in v2, publicKeyRef in v1); default $WOP_KEY_ID, keyId in .wop.yaml, or --key's file name without .pem")
	cmd.Flags().StringVar(&k.spec, "spec", "auto", "spec tree: auto (v2 when engines.openwop admits protocol 2, as the registry decides), v1 or v2; sets the signing block and the lint rules")
	cmd.Flags().StringVar(&k.signature, "signature", "", "embed this existing 64-byte detached signature instead of signing (rebuild a published version)")
	cmd.Flags().BoolVar(&k.unsigned, "unsigned", false, "build without a signature (registries refuse unsigned non-private packs)")
	cmd.Flags().StringArrayVar(&k.allowSecrets, "allow-secret", nil, "bundle this file (pack-relative path) although it looks like a secret; repeat per file")
	_ = cmd.MarkFlagFilename("key", "pem")
	cli.CompleteValues(cmd, "spec", cli.Fixed("auto", "v1", "v2"))
	cmd.MarkFlagsMutuallyExclusive("key", "signature", "unsigned")
	k.sigstore.addFlags(cmd)
	cmd.MarkFlagsMutuallyExclusive("sigstore", "signature")
	cmd.MarkFlagsMutuallyExclusive("sigstore", "unsigned")
}

// validate checks what the flags alone decide, before any file is read.
func (k *keyFlags) validate() error {
	if _, err := k.tree(); err != nil {
		return err
	}
	return nil // the key id may come from WOP_KEY_ID or .wop.yaml: signing checks it
}

// noSigner says no flag chose how to sign, or not to.
func (k *keyFlags) noSigner() bool {
	return k.key == "" && k.signature == "" && !k.sigstore.enabled && !k.unsigned
}

// tree is the --spec value as a spec tree: it picks the lint rules and the
// signing block.
func (k *keyFlags) tree() (spec.Tree, error) {
	t, err := spec.ParseTree(k.spec)
	if err != nil {
		return "", cli.Usagef("%v", err)
	}
	return t, nil
}

// signing resolves the flags (checked by validate) into build.Signing
// (build.KeyChoice.Signing, or the Sigstore signer). name is the pack name.
func (k *keyFlags) signing(ctx context.Context, env *cli.Env, name string) (build.Signing, error) {
	c := build.KeyChoice{Key: k.key, KeyID: k.keyID, Signature: k.signature, Spec: sign.Spec(k.spec), Unsigned: k.unsigned,
		EnvKeyID: env.Getenv("WOP_KEY_ID"), ConfigKeyID: k.configKeyID, Parsed: k.parsedKey, Invoked: env.Invoked,
		ReadKey: func() ([]byte, error) { return k.privateKeyPEM(env) },
		ReadSignature: func() ([]byte, error) {
			return flagfile.Read("--signature", k.signature, env.Abs(k.signature), flagfile.MaxSmall)
		}}
	if !k.sigstore.enabled {
		return c.Signing(name)
	}
	s := build.Signing{Spec: c.Spec, KeyID: c.ResolveKeyID()}
	var err error
	s.Sigstore, err = k.sigstore.signer(ctx, env, k.key, k.strictKeyMode)
	return s, err
}

// preload reads the --key file once, before any pack is built: a build of
// many packs reads it (and warns about its mode) once, and an unreadable key
// fails the command before any pack is linted.
func (k *keyFlags) preload(env *cli.Env) error {
	if k.key == "" || k.sigstore.enabled || k.keyPEM != nil {
		return nil
	}
	data, err := k.privateKeyPEM(env)
	if err != nil {
		return err
	}
	k.keyPEM = data
	k.parsedKey, _ = sign.ParsePrivateKey(data, "")
	return nil
}

// privateKeyPEM is the --key file: as preload read it, or read now.
func (k *keyFlags) privateKeyPEM(env *cli.Env) ([]byte, error) {
	if k.keyPEM != nil {
		return k.keyPEM, nil
	}
	return flagfile.PrivateKey(env.ErrOut, k.key, env.Abs(k.key), k.strictKeyMode)
}

// refuseSigstoreV2 refuses --sigstore for a pack whose tree is v2 before
// the signer is set up: otherwise a missing wop-sigstore helper or
// identity token was reported first (and in GitHub Actions an OIDC token
// was requested) for a signature the v2 tree refuses anyway.
func (k *keyFlags) refuseSigstoreV2(src *build.Source) error {
	if k.sigstore.enabled && src.SignSpec(sign.Spec(k.spec)) == sign.SpecV2 {
		return build.ErrSigstoreV2
	}
	return nil
}
