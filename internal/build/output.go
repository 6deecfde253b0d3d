package build

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/tarball"
)

// Result names what Write produced.
type Result struct {
	Archive   string // <dir>/<name>-<version>.tgz
	Signature string // <dir>/<name>-<version>.sig ("" when unsigned)
	Manifest  string // <dir>/<name>-<version>.json
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
	err := atomicWrite(res.Archive, func(w io.Writer) error {
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
		if err := atomicWriteBytes(res.Signature, p.Signature); err != nil {
			return nil, err
		}
	}
	if err := atomicWriteBytes(res.Manifest, p.Served); err != nil {
		return nil, err
	}
	sidecar := fmt.Sprintf("%s\n%s\n", res.Integrity.SRI, res.Integrity.Hex)
	if err := atomicWriteBytes(res.Sidecar, []byte(sidecar)); err != nil {
		return nil, err
	}
	return res, nil
}

func atomicWriteBytes(path string, data []byte) error {
	return atomicWrite(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// atomicWrite writes path through fill via a temporary file in the same
// directory and a rename.
func atomicWrite(path string, fill func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
