package verify

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

// rebuild builds src with the archive's own signature and compares the
// uncompressed tars: the tar, not the gzip stream, is the reproducible
// object (FORMAT.md §2).
func rebuild(src *pack.Pack, a *tarball.Archive, doc *jsonpos.Doc, tgz []byte, lim tarball.Limits) error {
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
	var rebuilt bytes.Buffer
	if err := tarball.WriteTar(&rebuilt, plan.Files); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return err
	}
	published, err := io.ReadAll(io.LimitReader(zr, 2*lim.MaxTotal))
	if err != nil {
		return err
	}
	if bytes.Equal(rebuilt.Bytes(), published) {
		return nil
	}
	return fmt.Errorf("the source does not rebuild to this archive: %s", entryDiff(plan, a))
}

// entryDiff names the entries that are missing on either side or differ.
func entryDiff(plan *build.Plan, a *tarball.Archive) string {
	ours := map[string][]byte{}
	for _, f := range plan.Files {
		r, err := f.Open()
		if err != nil {
			continue
		}
		ours[f.Name], _ = io.ReadAll(r)
		r.Close()
	}
	var diffs []string
	for _, e := range a.Entries {
		data, ok := ours[e.Name]
		switch {
		case !ok:
			diffs = append(diffs, e.Name+" (only in the archive)")
		case !bytes.Equal(data, e.Data):
			diffs = append(diffs, e.Name+" (differs)")
		}
		delete(ours, e.Name)
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
