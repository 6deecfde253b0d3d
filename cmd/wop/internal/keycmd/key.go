// Package keycmd implements `wop key ...`: signing key management.
package keycmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
)

// NewCmd returns the `wop key` group.
func NewCmd(env *cli.Env) *cobra.Command {
	cmd := &cobra.Command{Use: "key", Short: "Manage Ed25519 signing keys", Args: cobra.ArbitraryArgs, RunE: cli.GroupRunE}
	cmd.AddCommand(newGenerateCmd(env))
	return cmd
}

func newGenerateCmd(env *cli.Env) *cobra.Command {
	var keyID, outDir string
	cmd := &cobra.Command{
		Use:   "generate --key-id ID [-o DIR]",
		Short: "Make an Ed25519 key pair for signing packs",
		Long: `Write <ID>.pem (PKCS#8 private key, mode 0600) and <ID>.pub.pem (SPKI public
key) into DIR, and print the base64 public key a registry operator registers
under ID. Existing files are never overwritten.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 { // 'wop key generate acme-1' is the id put where a flag belongs
				return cli.Usagef("'wop key generate' takes no arguments; the key's id is a flag: wop key generate --key-id %s", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if keyID == "" {
				return cli.Usagef("--key-id is required: the id the registry will know this key by")
			}
			if err := pack.CheckSegment("--key-id", keyID); err != nil {
				return cli.Usagef("%v", err)
			}
			dir := env.Abs(outDir)
			if packDir, ok := packAt(dir); ok {
				return cli.WithHint(cli.Usagef("%s is inside the pack %s: a private key there ends up in the archive", outDir, env.Rel(packDir)),
					"write keys outside every pack, e.g. -o ~/.config/wop/keys")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			kp, err := sign.Generate()
			if err != nil {
				return err
			}
			priv, pub := filepath.Join(dir, keyID+".pem"), filepath.Join(dir, keyID+".pub.pem")
			if err := writeNew(priv, kp.PrivatePEM, 0o600); err != nil {
				return err
			}
			if err := writeNew(pub, kp.PublicPEM, 0o644); err != nil {
				os.Remove(priv)
				return err
			}
			fmt.Fprintf(env.ErrOut, "wrote %s (private, 0600) and %s\nregister this public key as %q:\n", priv, pub, keyID)
			fmt.Fprintln(env.Out, kp.PublicB64)
			return nil
		},
	}
	cmd.Flags().StringVar(&keyID, "key-id", "", "the key's registry id, e.g. acme-release-1")
	cmd.Flags().StringVarP(&outDir, "output", "o", ".", "directory for the key files")
	return cmd
}

// writeNew creates path with data, refusing to replace an existing file.
func writeNew(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if errors.Is(err, fs.ErrExist) {
		return cli.Usagef("%s exists; refusing to overwrite a key", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// packAt returns the pack directory (one with pack.json) that dir is, or is
// inside; dir need not exist yet.
func packAt(dir string) (string, bool) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, pack.ManifestName)); err == nil {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}
