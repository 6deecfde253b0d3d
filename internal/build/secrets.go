package build

import (
	"fmt"
	"io"
	"path"
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

// leftOutSniff is how much of a file the archive leaves out is read to
// look for a private key: key files are small and start with the block.
const leftOutSniff = 1 << 20

// quietlyLeftOut are files a pack folder holds for tools, not for the
// archive: naming them on every build would be noise.
var quietlyLeftOut = map[string]bool{".wop.yaml": true, ".gitignore": true, ".gitattributes": true}

// LeftOut lists the files of a source folder the archive does not take (the
// reference builder's set and the manifest's refs decide), but for the
// tools' own files (quietlyLeftOut) and the entries the build writes
// itself. An archive being re-signed leaves nothing out.
func (s *Source) LeftOut() []string {
	if s.pack.Archive != nil {
		return nil
	}
	taken := map[string]bool{}
	for _, f := range s.files {
		taken[f.Name] = true
	}
	var out []string
	for _, f := range s.pack.Files {
		if !taken[f.Name] && !replaced[f.Name] && !quietlyLeftOut[f.Name] {
			out = append(out, f.Name)
		}
	}
	return out
}

// maxLeftOutNamed is how many left-out files LeftOutNote names.
const maxLeftOutNamed = 10

// LeftOutNote is the one line a build prints about the files it leaves
// out, "" when there are none, so an author never learns it from a
// missing file after publishing.
func (s *Source) LeftOutNote() string {
	names := slices.DeleteFunc(s.LeftOut(), s.isBuildOutput)
	if len(names) == 0 {
		return ""
	}
	list := strings.Join(names[:min(len(names), maxLeftOutNamed)], ", ")
	if len(names) > maxLeftOutNamed {
		list += fmt.Sprintf(" and %d more", len(names)-maxLeftOutNamed)
	}
	return "left out of the archive: " + list + " (an archive holds pack.json, README.md, LICENSE, index.mjs, " +
		"schemas/*.json, keys/*.pem|*.sig, prompts/*.md|*.txt and the files the manifest names)"
}

// isBuildOutput reports whether name is a file a build of this pack
// writes (<name>-<version>.tgz and its sidecars, any version): publish
// builds into dist/ inside the pack folder by default, so without this
// every later build would name its own earlier outputs as left out.
func (s *Source) isBuildOutput(name string) bool {
	rest, ok := strings.CutPrefix(path.Base(name), s.Name+"-")
	if !ok {
		return false
	}
	for _, suffix := range outputSuffixes {
		if version, ok := strings.CutSuffix(rest, suffix); ok && version != "" && version[0] >= '0' && version[0] <= '9' {
			return true
		}
	}
	return false
}

// leftOutSecrets finds the secrets among the files the archive leaves out:
// by name, or by a private key block in the file's first leftOutSniff
// bytes (links, special files and files over the per-file ceiling are
// judged by name only).
func (s *Source) leftOutSecrets(allowed []string) ([]Secret, error) {
	var found []Secret
	for _, name := range s.LeftOut() {
		if slices.Contains(allowed, name) {
			continue
		}
		kind := pack.SecretKind(name, nil)
		// A file over the per-file ceiling is judged by name: it can be no
		// key file, and reading it would refuse the build.
		if f, _ := s.pack.Lookup(name); kind == "" && f.Mode.IsRegular() && f.Size <= s.pack.Limits().MaxEntry {
			data, err := readAll(func() (io.ReadCloser, error) { return s.pack.Open(name) }, min(f.Size, leftOutSniff))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			kind = pack.SecretKind(name, data)
		}
		if kind != "" {
			found = append(found, Secret{name, kind + " in the pack folder (not bundled, but it must not be there: move it out of the pack folder)"})
		}
	}
	return found, nil
}

// CheckSecrets reads every file the archive would hold and refuses the
// plan if one is a secret (pack.SecretKind), unless allowed names it.
func (p *Plan) CheckSecrets(allowed []string) error {
	return checkSecrets(p.Files, allowed, func(f tarball.File) ([]byte, error) { return readAll(f.Open, f.Size) })
}

// checkSecrets checks files, reading each with read.
func checkSecrets(files []tarball.File, allowed []string, read func(tarball.File) ([]byte, error)) error {
	found, err := secretsIn(files, allowed, read)
	if err != nil {
		return err
	}
	if len(found) > 0 {
		return &SecretsError{Secrets: found}
	}
	return nil
}

// secretsIn lists the secrets among files, reading each with read.
func secretsIn(files []tarball.File, allowed []string, read func(tarball.File) ([]byte, error)) ([]Secret, error) {
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
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			kind = pack.SecretKind(f.Name, data)
		}
		if kind != "" {
			found = append(found, Secret{f.Name, kind})
		}
	}
	return found, nil
}

func readAll(open func() (io.ReadCloser, error), size int64) ([]byte, error) {
	r, err := open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, size))
}
