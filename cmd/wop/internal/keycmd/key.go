// Package keycmd implements `wop key ...`: signing key management.
package keycmd

import (
	"errors"
	"fmt"

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
				return cli.Usagef("'%s' takes no arguments; the key's id is a flag: %s", env.Invoked.Cmd("key generate"), env.Invoked.Cmd("key generate --key-id "+args[0]))
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
			if packDir, ok := pack.Owner(dir); ok {
				return cli.WithHint(cli.Usagef("%s is inside the pack %s: a private key there ends up in the archive", outDir, env.Rel(packDir)),
					"write keys outside every pack, e.g. -o ~/.config/wop/keys")
			}
			priv, pub, kp, err := sign.WriteKeyPair(dir, keyID)
			if exists := (*sign.ExistsError)(nil); errors.As(err, &exists) {
				return &cli.UsageError{Err: err}
			}
			if err != nil {
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
