package migrate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
)

// InputError is a pack migrate will not edit as it stands: the author's
// to fix (a usage error), named with the file and place.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Result is one pack's manifest migrated.
type Result struct {
	Path          string // pack.json on disk
	shown         string // pack.json as messages name it
	Before, After []byte
	Notes         []Note
}

// Read reads the pack.json of a source folder for migrating. It refuses a
// pack.json that is not a regular file (replacing it would fail half-way,
// after a catalog download, or rewrite a file outside the pack) or over
// the manifest ceiling.
func Read(pk *pack.Pack) (*Result, error) {
	shown := pk.Path(pack.ManifestName)
	path := filepath.Join(pk.Dir, pack.ManifestName)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &InputError{fmt.Errorf("%s is not a regular file (%s); migrate edits the pack's own pack.json: replace it with a copy of what it points to, or migrate the pack it belongs to", shown, safefile.Kind(fi.Mode()))}
	}
	src, err := pk.ReadFile(pack.ManifestName) // within the manifest ceiling, never through a link
	if tl := (*pack.FileTooLargeError)(nil); errors.As(err, &tl) {
		return nil, &InputError{fmt.Errorf("%s is %d bytes, over the %d a registry accepts (manifest-too-large): move prompt bodies into prompts/*.md with systemPromptRef, then migrate", shown, tl.Size, tl.Max)}
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // named by shown, not the absolute path
	}
	if err != nil {
		return nil, &InputError{fmt.Errorf("%s: %v", shown, err)}
	}
	return &Result{Path: path, shown: shown, Before: src}, nil
}

// ToV2 migrates what Read read (the package's ToV2), setting After and
// Notes.
func (r *Result) ToV2(opt Options) error {
	out, notes, err := ToV2(r.Before, opt)
	if se := (*SourceError)(nil); errors.As(err, &se) {
		return &InputError{fmt.Errorf("%s:%v", r.shown, se)} // pack.json:line:col: ...
	}
	if err != nil {
		return &InputError{fmt.Errorf("%s: %v", r.shown, err)}
	}
	r.After, r.Notes = out, notes
	return nil
}

// Locate gives each note's line and column in file: the migrated manifest,
// or the one on disk when nothing is written (a diff).
func (r *Result) Locate(file []byte) ([]jsonpos.Position, error) {
	doc, err := jsonpos.Parse(file)
	if err != nil {
		return nil, fmt.Errorf("migrating %s produced invalid JSON (a bug in wop): %w", r.Path, err)
	}
	at := make([]jsonpos.Position, len(r.Notes))
	for i, n := range r.Notes {
		at[i] = doc.Locate(n.Pointer)
	}
	return at, nil
}
