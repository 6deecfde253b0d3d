package publish

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/atomicfile"
)

// Staged names the files a stage wrote into a registry checkout.
type Staged struct {
	Dir                      string // registry/<tree>/packs/<name>/-
	Archive, Signature, JSON string
	AlreadyStaged            bool // the same bytes were already there
}

// Stage writes registry/<tree>/packs/<name>/-/<version>.tgz, .sig and .json
// into a checkout of a registry repository, for registries that take new
// versions as pull requests. A version already staged with other bytes is
// refused; the same bytes are left as they are.
func Stage(checkout, tree string, a *Archive) (*Staged, error) {
	if _, err := os.Stat(filepath.Join(checkout, "registry")); err != nil {
		return nil, fmt.Errorf("%s does not look like a registry checkout (no registry/ folder)", checkout)
	}
	if a.Signature == nil {
		return nil, fmt.Errorf("%s@%s is unsigned; a registry pull request needs keys/pack.json.sig", a.Name, a.Version)
	}
	dir := filepath.Join(checkout, "registry", tree, "packs", a.Name, "-")
	s := &Staged{Dir: dir, Archive: filepath.Join(dir, a.Version+".tgz"), Signature: filepath.Join(dir, a.Version+".sig"), JSON: filepath.Join(dir, a.Version+".json")}
	served, err := a.Served()
	if err != nil {
		return nil, err
	}
	tgz, err := os.ReadFile(a.Path)
	if err != nil {
		return nil, err
	}
	same, err := equalFile(s.Archive, tgz)
	if err != nil {
		return nil, err
	}
	if _, statErr := os.Stat(s.Archive); statErr == nil && !same {
		return nil, &ConflictError{Name: a.Name, Version: a.Version, Ours: a.Integrity.SRI, Theirs: "the staged " + filepath.Base(s.Archive)}
	}
	s.AlreadyStaged = same
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(s.Archive, tgz, 0o644); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(s.Signature, a.Signature, 0o644); err != nil {
		return nil, err
	}
	return s, atomicfile.Write(s.JSON, served, 0o644)
}
