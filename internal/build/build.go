// Package build turns a pack source directory into the archive a registry
// accepts: the reference builder's file set plus every file a ref names, the
// canonical (optionally signed) pack.json, deterministic tar and gzip, and
// the sidecar files, all written atomically.
package build

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

// Signing says how the manifest is signed. With neither Key nor Signature
// the pack is built unsigned.
type Signing struct {
	Spec      sign.Spec
	Key       *sign.PrivateKey // sign with this key
	KeyID     string           // with Signature: the key id to name in the block
	Signature []byte           // embed this detached signature instead of signing
	// Sigstore, when set, signs the canonical manifest and returns a
	// Sigstore bundle (JSON); the signing block becomes method "sigstore".
	Sigstore func(manifest []byte) ([]byte, error)
}

// Plan is everything a build writes, computed before any byte hits disk.
type Plan struct {
	Name, Version string
	Manifest      []byte // canonical pack.json, as it goes in the archive
	Signature     []byte // raw 64 bytes, nil when unsigned or Sigstore-signed
	Bundle        []byte // Sigstore bundle JSON, nil unless Sigstore-signed
	Files         []tarball.File
	served        *jsonpos.Value // the signed manifest: the version manifest adds integrity to it
	// Compressors, when set, lends deflate state shared with other builds
	// (a many-pack build); nil uses fresh state. The bytes are the same.
	Compressors *tarball.Compressors
	// hook, when set, sees every change Write makes to the output folder
	// (tests look at the folder between any two steps).
	hook func(name string)
}

// Entry is one archive entry, for listings.
type Entry struct {
	Name string
	Size int64
}

// replaced are source files the build writes itself.
var replaced = map[string]bool{pack.ManifestName: true, sign.SignatureEntry: true, sign.SigstoreEntry: true}

// Source is a pack read for building: its manifest parsed (once) and the
// files the archive takes from the pack chosen. Plan signs it.
type Source struct {
	Name, Version string
	root          *jsonpos.Value
	files         []tarball.File // without the entries the build writes itself
	pack          *pack.Pack
}

// NewSource parses a pack's manifest and plans its file set: a source
// directory, or an archive being re-signed.
func NewSource(pk *pack.Pack) (*Source, error) {
	src, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return nil, err
	}
	doc, err := canon.Parse(src)
	var bad *jsonpos.Error
	if errors.As(err, &bad) { // build --no-lint and sign: no lint said where
		at := jsonpos.PositionOf(src, bad.Offset)
		return nil, fmt.Errorf("pack.json:%d:%d: invalid JSON: %s", at.Line, at.Column, bad.Msg)
	}
	if err != nil {
		return nil, fmt.Errorf("pack.json: %w", err)
	}
	root := doc.Root
	s := &Source{Name: root.Get("name").String(), Version: root.Get("version").String(), root: root, pack: pk}
	if s.Name == "" || s.Version == "" {
		return nil, errors.New("pack.json: name and version are required to name the archive")
	}
	if err := pack.CheckNameVersion(s.Name, s.Version); err != nil {
		return nil, err
	}
	if s.files, err = fileSet(pk, root); err != nil {
		return nil, err
	}
	return s, nil
}

// CheckSecrets refuses the source if a file the archive would hold, the
// unsigned canonical manifest included, is a secret (see Plan.CheckSecrets),
// or if the pack folder holds one the archive leaves out: a key or .env
// file in a pack folder ends up in a commit, a copy or a later archive.
func (s *Source) CheckSecrets(allowed []string) error {
	manifest, err := sign.Manifest(s.root, nil) // Plan sets the signing block again
	if err != nil {
		return err
	}
	// Pack files are read through the pack (pack.Pack.Keep: the archive
	// then bundles the bytes checked here without reading them again).
	read := func(f tarball.File) ([]byte, error) {
		if f.Name == pack.ManifestName {
			return manifest, nil
		}
		return s.pack.ReadFile(f.Name)
	}
	found, err := secretsIn(append(slices.Clone(s.files), memFile(pack.ManifestName, manifest)), allowed, read)
	if err != nil {
		return err
	}
	left, err := s.leftOutSecrets(allowed)
	if err != nil {
		return err
	}
	if found = append(found, left...); len(found) > 0 {
		return &SecretsError{Secrets: found}
	}
	return nil
}

// SignSpec is the signing spec spec resolves to for this pack (auto picks
// v2 when the engine range admits protocol 2).
func (s *Source) SignSpec(spec sign.Spec) sign.Spec { return spec.For(s.root) }

// NewPlan computes the archive for a pack: a source directory, or an archive
// being re-signed.
func NewPlan(pk *pack.Pack, s Signing) (*Plan, error) {
	src, err := NewSource(pk)
	if err != nil {
		return nil, err
	}
	return src.Plan(s)
}

// Plan signs the source and computes the archive. It modifies the source's
// manifest: call it once.
func (src *Source) Plan(s Signing) (*Plan, error) {
	p := &Plan{Name: src.Name, Version: src.Version}
	if err := p.sign(src.root, s); err != nil {
		return nil, err
	}
	p.served = src.root
	p.Files = append(slices.Clone(src.files), memFile(pack.ManifestName, p.Manifest))
	if p.Signature != nil {
		p.Files = append(p.Files, memFile(sign.SignatureEntry, p.Signature))
	}
	if p.Bundle != nil {
		p.Files = append(p.Files, memFile(sign.SigstoreEntry, p.Bundle))
	}
	if max := src.pack.Limits().Entries(); len(p.Files) > max {
		// Every reader, wop's lint and verify included, refuses it.
		signatures := ""
		if own := len(src.files) + 1; own <= max { // the signature entries tip it over
			signatures = fmt.Sprintf(" (the pack's %d and %d signature entries)", own, len(p.Files)-own)
		}
		return nil, fmt.Errorf("the archive would hold %d files%s: %w", len(p.Files), signatures, &tarball.TooManyEntriesError{Max: max})
	}
	slices.SortFunc(p.Files, func(a, b tarball.File) int { return strings.Compare(a.Name, b.Name) })
	return p, nil
}

// ErrSigstoreV2 refuses a Sigstore signature on a pack for the v2 tree:
// v2 keeps one signing scheme, and its block has no place for a bundle.
var ErrSigstoreV2 = errors.New("a Sigstore signature has no v2 signing block: the v2 tree keeps one scheme, " +
	"{\"keyId\",\"scheme\":\"ed25519-canonical-json\"} (RFC 0177 §C.3); sign with --key KEY.pem --key-id ID, " +
	"or force the v1 tree with --spec v1")

func (p *Plan) sign(root *jsonpos.Value, s Signing) error {
	if s.Sigstore != nil {
		// The tree is chosen as for a key: --spec, or under auto the engine range.
		if s.Spec.For(root) == sign.SpecV2 {
			return ErrSigstoreV2
		}
		var err error
		block := jsonpos.StringObject("method", "sigstore", "signatureRef", sign.SigstoreEntry)
		if p.Manifest, err = sign.Manifest(root, block); err != nil {
			return err
		}
		p.Bundle, err = s.Sigstore(p.Manifest)
		return err
	}
	keyID := s.KeyID
	if s.Key != nil {
		keyID = s.Key.KeyID
	}
	if s.Key == nil && s.Signature == nil {
		var err error
		p.Manifest, err = sign.Manifest(root, nil)
		return err
	}
	if keyID == "" {
		return errors.New("a key id is required to sign (--key-id)")
	}
	s.Spec = s.Spec.For(root)
	if s.Spec == sign.SpecV2 {
		if err := sign.CheckV2(root); err != nil {
			return err
		}
	}
	block, err := sign.Block(s.Spec, keyID)
	if err != nil {
		return err
	}
	if p.Manifest, err = sign.Manifest(root, block); err != nil {
		return err
	}
	if s.Key != nil {
		p.Signature = s.Key.Sign(p.Manifest)
		return nil
	}
	if len(s.Signature) != 64 {
		return fmt.Errorf("--signature file is %d bytes; it must be the raw 64-byte Ed25519 signature (<name>-<version>.sig)", len(s.Signature))
	}
	p.Signature = s.Signature
	return nil
}

// fileSet is the reference builder's set plus every ref target; a ref that
// names something that cannot be bundled is an error, not a silent drop.
func fileSet(pk *pack.Pack, root *jsonpos.Value) ([]tarball.File, error) {
	want := map[string]bool{}
	for _, f := range pk.Files {
		// Re-signing an archive keeps every entry it has.
		if (pk.Archive != nil || pack.InDefaultSet(f.Name)) && !replaced[f.Name] {
			want[f.Name] = true
		}
	}
	var problems []string
	for _, r := range pack.Refs(root) {
		target := r.Path()
		f, ok := pk.Lookup(target)
		switch {
		case replaced[target]:
		case !ok:
			problems = append(problems, fmt.Sprintf("%s %q: no such file in the pack", r.Field, r.Target))
		case !f.Mode.IsRegular():
			problems = append(problems, fmt.Sprintf("%s %q: not a regular file", r.Field, r.Target))
		default:
			want[target] = true
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("cannot bundle what the manifest names:\n  %s", strings.Join(problems, "\n  "))
	}
	var files []tarball.File
	for name := range want {
		f, _ := pk.Lookup(name)
		if !f.Mode.IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file (links, devices and FIFOs cannot be bundled)", name)
		}
		files = append(files, diskFile(pk, f))
	}
	return files, nil
}

// diskFile streams a source file from disk, or from memory for a pack read
// from an archive (re-signing one).
func diskFile(pk *pack.Pack, f pack.File) tarball.File {
	if pk.Archive != nil {
		return tarball.File{Name: f.Name, Size: f.Size, Open: func() (io.ReadCloser, error) {
			data, err := pk.ReadFile(f.Name)
			return io.NopCloser(bytes.NewReader(data)), err
		}}
	}
	// pk.Open refuses a file replaced (by a link, a FIFO, another file)
	// since the pack was listed: the archive holds what lint checked.
	return tarball.File{Name: f.Name, Size: f.Size, Open: func() (io.ReadCloser, error) {
		return pk.Open(f.Name)
	}}
}

func memFile(name string, data []byte) tarball.File {
	return tarball.File{Name: name, Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}}
}

// Entries lists the archive's entries in order.
func (p *Plan) Entries() []Entry {
	out := make([]Entry, len(p.Files))
	for i, f := range p.Files {
		out[i] = Entry{f.Name, f.Size}
	}
	return out
}

// BaseName is "<name>-<version>", the stem of every output file.
func (p *Plan) BaseName() string { return p.Name + "-" + p.Version }

// Integrity is an archive's SHA-256 in the two forms registries use.
type Integrity struct {
	SRI string // sha256-<base64>
	Hex string // sha256:<hex>
}

// IntegrityOf formats a SHA-256 sum.
func IntegrityOf(sum []byte) Integrity {
	return Integrity{SRI: "sha256-" + base64.StdEncoding.EncodeToString(sum), Hex: "sha256:" + hex.EncodeToString(sum)}
}

// Hash streams the archive through SHA-256 without writing it anywhere.
func (p *Plan) Hash() (Integrity, error) {
	h := sha256.New()
	if err := p.compressors().Write(h, p.Files); err != nil {
		return Integrity{}, err
	}
	return IntegrityOf(h.Sum(nil)), nil
}

func (p *Plan) compressors() *tarball.Compressors {
	if p.Compressors == nil {
		return new(tarball.Compressors)
	}
	return p.Compressors
}
