package verify

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

// published is what a rebuild compares with, taken as verify reads the
// archive: the uncompressed tar's digest, and each entry's in archive
// order.
type published struct {
	tar     hash.Hash
	entries []entryDigest
}

type entryDigest struct {
	name string
	sum  [sha256.Size]byte
}

// keep records e's digest and holds what verify holds without a rebuild.
func (p *published) keep(e tarball.Entry) bool {
	p.entries = append(p.entries, entryDigest{e.Name, sha256.Sum256(e.Data)})
	return keep(e)
}

// rebuild builds src with the archive's own signature (a holds the
// signature entry) and compares the uncompressed tars: the tar, not the
// gzip stream, is the reproducible object (FORMAT.md §2). The tars are
// compared by digest, the rebuilt one hashed as it is written: holding both
// (and every entry) made a --source verify of a 50 MB pack peak at 280 MB.
func rebuild(src *pack.Pack, a *tarball.Archive, doc *jsonpos.Doc, pub *published) error {
	s := build.Signing{Spec: sign.SpecV1}
	if block := doc.Root.Get("signing"); block != nil {
		s.KeyID = block.Get("publicKeyRef").String()
		if block.Get("scheme") != nil {
			s.Spec, s.KeyID = sign.SpecV2, block.Get("keyId").String()
		}
		if e, ok := a.Find(sign.SignatureEntry); ok {
			s.Signature = e.Data
		}
	}
	plan, err := build.NewPlan(src, s)
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	rebuilt := sha256.New()
	if err := tarball.WriteTar(rebuilt, plan.Files); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	if bytes.Equal(rebuilt.Sum(nil), pub.tar.Sum(nil)) {
		return nil
	}
	return fmt.Errorf("the source does not rebuild to this archive: %s", entryDiff(plan, pub.entries))
}

// sums are a source file's digest as it is and with CRLF line ends made LF.
type sums struct{ asIs, lf [sha256.Size]byte }

// entryDiff names the entries that are missing on either side or differ.
func entryDiff(plan *build.Plan, published []entryDigest) string {
	ours := map[string]sums{}
	for _, f := range plan.Files {
		r, err := f.Open()
		if err != nil {
			continue
		}
		data, _ := io.ReadAll(r) // a read cut short differs, as its contents would; the plan's files are bounded
		r.Close()
		ours[f.Name] = sums{sha256.Sum256(data), sha256.Sum256(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))}
	}
	var diffs []string
	for _, e := range published {
		sum, ok := ours[e.name]
		switch {
		case !ok:
			diffs = append(diffs, e.name+" (only in the archive)")
		case sum.asIs == e.sum:
		case sum.lf == e.sum:
			// A Windows checkout (core.autocrlf): the same text, other line ends.
			diffs = append(diffs, e.name+" (differs only in line endings: CRLF in the source, LF in the archive)")
		default:
			diffs = append(diffs, e.name+" (differs)")
		}
		delete(ours, e.name)
	}
	for name := range ours {
		diffs = append(diffs, name+" (only in the source)")
	}
	slices.Sort(diffs)
	if len(diffs) == 0 {
		return "same entries and contents, different tar framing (legacy names, order or headers)"
	}
	return strings.Join(diffs, ", ")
}
