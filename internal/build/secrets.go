package build

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// Secret is a file a build refuses to bundle, and why.
type Secret struct{ Name, Kind string }

// SecretsError lists the secrets (and unsafe paths) that stopped a build or
// publish. It is a gate of build and publish themselves: --no-lint does not
// skip it. Links and special files are refused earlier, when the file set
// is planned.
type SecretsError struct{ Secrets []Secret }

func (e *SecretsError) Error() string {
	lines := make([]string, len(e.Secrets))
	for i, s := range e.Secrets {
		lines[i] = fmt.Sprintf("  %s: %s", s.Name, s.Kind)
	}
	return "refusing to bundle secrets (--no-lint does not skip this check):\n" + strings.Join(lines, "\n")
}

// Hint says how to go on; it never suggests skipping the check.
func (e *SecretsError) Hint() string {
	return "remove them from the pack (keep keys outside it) and rotate any key that was exposed; a file that only looks like a secret (a documented test key) can be allowed by name with --allow-secret " + e.Secrets[0].Name
}

// CheckSecrets reads every file the archive would hold and refuses the
// plan if one is a secret (pack.SecretKind), unless allowed names it.
func (p *Plan) CheckSecrets(allowed []string) error {
	return checkSecrets(p.Files, allowed, func(f tarball.File) ([]byte, error) { return readAll(f.Open, f.Size) })
}

// checkSecrets checks files, reading each with read.
func checkSecrets(files []tarball.File, allowed []string, read func(tarball.File) ([]byte, error)) error {
	var found []Secret
	for _, f := range files {
		if slices.Contains(allowed, f.Name) {
			continue
		}
		kind := pack.SecretKind(f.Name, nil)
		if strings.ContainsAny(f.Name, `\:`) {
			kind = "an unsafe path (a backslash or colon: other tools read it as a folder or drive)"
		}
		if kind == "" {
			data, err := read(f)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			kind = pack.SecretKind(f.Name, data)
		}
		if kind != "" {
			found = append(found, Secret{f.Name, kind})
		}
	}
	if len(found) > 0 {
		return &SecretsError{Secrets: found}
	}
	return nil
}

func readAll(open func() (io.ReadCloser, error), size int64) ([]byte, error) {
	r, err := open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, size))
}
