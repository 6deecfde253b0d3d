package build

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/tarball"
)

// Result names what Write produced.
type Result struct {
	Archive   string // <dir>/<name>-<version>.tgz
	Signature string // <dir>/<name>-<version>.sig ("" when unsigned)
	Bundle    string // <dir>/<name>-<version>.sigstore.json ("" unless Sigstore-signed)
	Manifest  string // <dir>/<name>-<version>.json: the version manifest, integrity included
	Sidecar   string // <dir>/<name>-<version>.integrity
	Integrity Integrity
}

// Write writes the archive and its sidecar files into dir. Every file goes
// to a temporary name first and is renamed into place only when complete,
// so an interrupted build never leaves a truncated archive behind.
func (p *Plan) Write(dir string) (*Result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	base := filepath.Join(dir, p.BaseName())
	res := &Result{Archive: base + ".tgz", Manifest: base + ".json", Sidecar: base + ".integrity"}
	var sum []byte
	err := atomicfile.WriteFrom(res.Archive, 0o644, func(w io.Writer) error {
		h := sha256.New()
		if err := tarball.Write(io.MultiWriter(w, h), p.Files); err != nil {
			return err
		}
		sum = h.Sum(nil)
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Integrity = IntegrityOf(sum)
	if p.Signature != nil {
		res.Signature = base + ".sig"
		if err := atomicfile.Write(res.Signature, p.Signature, 0o644); err != nil {
			return nil, err
		}
	}
	if p.Bundle != nil {
		res.Bundle = base + ".sigstore.json"
		if err := atomicfile.Write(res.Bundle, p.Bundle, 0o644); err != nil {
			return nil, err
		}
	}
	served, err := VersionManifest(p.Served, res.Integrity.SRI)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(res.Manifest, served, 0o644); err != nil {
		return nil, err
	}
	sidecar := fmt.Sprintf("%s\n%s\n", res.Integrity.SRI, res.Integrity.Hex)
	if err := atomicfile.Write(res.Sidecar, []byte(sidecar), 0o644); err != nil {
		return nil, err
	}
	return res, nil
}
