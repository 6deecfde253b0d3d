// Package agfimport imports an AgentFormat agent into a pack folder: the
// file is linted first, merged into the pack's manifest (agf.Import),
// written as one set (agf.WriteImport), and the pack linted afterwards.
package agfimport

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
)

// InputError is a file that cannot be read as given: the caller's to fix.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// LintError is an AgentFormat file with lint errors: nothing is imported.
type LintError struct {
	File   string
	Diags  []diag.Diagnostic // every finding, for the caller to print
	Errors int
}

func (e *LintError) Error() string {
	return fmt.Sprintf("%s has %d lint errors; fix them before importing", e.File, e.Errors)
}

// Request is one import.
type Request struct {
	File    string // the AgentFormat file, as given
	PackDir string // the pack folder, as given
	// Abs makes a path as given absolute.
	Abs    func(string) string
	Source agf.Source // reads AgentFormat files (and what they name) as given
	Import agf.ImportOptions
}

// Result is what an import did, or (with agf.ErrApprovalLoss) would do.
type Result struct {
	Imported *agf.Imported
	// Losses are what OpenWOP cannot express, one warning each.
	Losses []diag.Diagnostic
}

// Import lints the file, merges it into the pack's pack.json and writes
// the files as one set. Losses are reported even when they stop the import
// (agf.ErrApprovalLoss, wrapped).
func Import(r Request) (*Result, error) {
	src, err := readCapped(r.Abs(r.File))
	if err != nil {
		return nil, &InputError{fmt.Errorf("%s: %v", r.File, err)}
	}
	ds, err := lint.AgentFormat([]string{filepath.ToSlash(filepath.Clean(r.File))}, r.Source, lint.AgentFormatOptions{})
	if err != nil {
		return nil, &InputError{err}
	}
	if c := diag.Count(ds); c.Errors > 0 {
		return nil, &LintError{File: r.File, Diags: ds, Errors: c.Errors}
	}
	dir := r.Abs(r.PackDir)
	manifest, err := safefile.Read(filepath.Join(dir, pack.ManifestName), safefile.Options{Max: tarball.DefaultLimits.MaxEntry})
	if err != nil {
		return nil, &InputError{fmt.Errorf("--pack %s: %v", r.PackDir, err)}
	}
	im, err := agf.Import(src, manifest, r.Import)
	var me *agf.ManifestError
	if errors.As(err, &me) { // name the user's pack.json, not the AgentFormat file
		return nil, fmt.Errorf("%s:%d:%d: %s", filepath.Join(r.PackDir, pack.ManifestName), me.Pos.Line, me.Pos.Column, me.Msg)
	}
	res := &Result{Imported: im}
	if im != nil && len(im.Losses) > 0 {
		res.Losses = agf.LossReport(r.File, im.Losses)
	}
	if err != nil {
		return res, fmt.Errorf("%s: %w", r.File, err)
	}
	return res, agf.WriteImport(dir, im)
}

// LintPack lints the pack folder dir (display: as given) after an import:
// its warnings and errors.
func LintPack(dir, display string) ([]diag.Diagnostic, error) {
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		return nil, err
	}
	pk.Display = pack.DisplayName(display)
	ds, err := lint.Run(pk, lint.Options{})
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ds, func(d diag.Diagnostic) bool { return d.Severity < diag.Warning }), nil
}
