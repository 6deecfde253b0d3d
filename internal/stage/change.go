package stage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
)

// change is what staging a version adds to a checkout before the registry's
// generators run: files by slash path from the root, and the folder whose
// old contents go first (the previous version's source).
type change struct {
	files   map[string][]byte
	replace string
}

// changeFor lays out a version as the registry keeps it: the source under
// packs/<name>/ and the archive, its raw signature and the version manifest
// (integrity included) under registry/<tree>/packs/<name>/-/. The source is
// the archive's file set as the author keeps it: read from the source
// folder when there is one (its pack.json unsigned, any stale signature
// file left as it is, since the registry's builder replaces it); from an
// archive alone, its files with pack.json unsigned and indented.
func changeFor(tree string, p Pack) (*change, error) {
	a := p.Archive
	entries, err := a.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.Path, err)
	}
	src := "packs/" + a.Name
	c := &change{files: map[string][]byte{}, replace: src}
	names := []string{pack.ManifestName, sign.SignatureEntry, sign.SigstoreEntry}
	for _, e := range entries.Entries {
		if !slices.Contains(names, e.Name) {
			names = append(names, e.Name)
			c.files[path.Join(src, e.Name)] = e.Data
		}
	}
	if p.SourceDir != "" {
		for _, name := range names {
			data, err := os.ReadFile(filepath.Join(p.SourceDir, filepath.FromSlash(name)))
			switch {
			case err == nil:
				c.files[path.Join(src, name)] = data
			case errors.Is(err, fs.ErrNotExist) && name != pack.ManifestName:
			default:
				return nil, fmt.Errorf("the pack's source: %w", err)
			}
		}
	} else {
		source, err := unsignedManifest(a.Manifest)
		if err != nil {
			return nil, err
		}
		c.files[path.Join(src, pack.ManifestName)] = source
	}

	tgz, err := a.Bytes()
	if err != nil {
		return nil, err
	}
	manifest, err := versionManifest(p)
	if err != nil {
		return nil, err
	}
	dir := path.Join("registry", tree, "packs", a.Name, "-")
	c.files[path.Join(dir, a.Version+".tgz")] = tgz
	c.files[path.Join(dir, a.Version+".sig")] = a.Signature
	c.files[path.Join(dir, a.Version+".json")] = manifest
	return c, nil
}

// unsignedManifest is the signed pack.json without its signing block,
// indented: the source form for an archive staged without its source.
func unsignedManifest(signed []byte) ([]byte, error) {
	doc, err := canon.Parse(signed)
	if err != nil {
		return nil, fmt.Errorf("pack.json: %w", err)
	}
	doc.Root.Delete("signing")
	return canon.Indent(doc.Root)
}

// versionManifest is the build's <name>-<version>.json when it describes
// this archive (same integrity, same signed manifest), so staging keeps the
// author's member order; otherwise it is made from the archive's manifest.
func versionManifest(p Pack) ([]byte, error) {
	a := p.Archive
	if p.Manifest != nil {
		doc, err := canon.Parse(p.Manifest)
		if err == nil && doc.Root.Get("integrity").String() == a.Integrity.SRI {
			doc.Root.Delete("integrity")
			if signed, err := canon.Marshal(doc.Root); err == nil && bytes.Equal(signed, a.Manifest) {
				return p.Manifest, nil
			}
		}
	}
	served, err := a.Served()
	if err != nil {
		return nil, err
	}
	return build.VersionManifest(served, a.Integrity.SRI)
}
