package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/safefile"
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

// outputSuffixes are every file a build writes beside <name>-<version>,
// archive first: all of them are one set, replaced together.
var outputSuffixes = []string{".tgz", ".sig", ".sigstore.json", ".json", ".integrity"}

// Write writes the archive and its sidecar files into dir as one set
// (atomicfile.Set): each to a temporary name, synced together, and
// published only when all are complete, so an interrupted or failed build
// leaves the previous build's files or this one's, never a mix. Cancelling ctx stops
// the write and removes the temporary files.
func (p *Plan) Write(ctx context.Context, dir string) (*Result, error) {
	st, err := p.Stage(ctx, dir)
	if err != nil {
		return nil, err
	}
	var b atomicfile.Batch
	st.Publish(&b, func(e error) { err = e })
	b.Commit()
	if err != nil {
		return nil, err
	}
	return st.Result, nil
}

// Staged is a build written to temporary names in its output folder, not
// yet published: a many-pack build stages every pack, then publishes them
// in one atomicfile.Batch (one sync wave, one folder sync per step, for all
// of them).
type Staged struct {
	// Result is what the build wrote, true once it is published.
	Result *Result
	set    *atomicfile.Set // nil when the folder holds this very set already
	base   string
}

// memArchive bounds the compressed archive Stage holds in memory to compare
// with the one in the output folder; a larger one streams to its temporary
// file (and is always written).
const memArchive = 8 << 20

// Stage is Write's first half: every file of the set written to a
// temporary name. Publish or Abort the result. When the output folder
// already holds exactly this set (a rebuild of an unchanged pack: builds
// are reproducible), nothing is written and publishing it changes nothing.
func (p *Plan) Stage(ctx context.Context, dir string) (*Staged, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	st := &Staged{Result: &Result{}, base: p.BaseName()}
	set := atomicfile.NewSet(dir)
	set.Hook = p.hook
	if err := p.stage(ctx, dir, st, set); err != nil {
		set.Abort()
		return nil, err
	}
	return st, nil
}

// Publish queues the staged set in b, replacing a previous build of the
// same name and version (OldSet); done gets the outcome when b commits.
func (s *Staged) Publish(b *atomicfile.Batch, done func(error)) {
	if s.set == nil {
		done(nil)
		return
	}
	b.Add(s.set, OldSet(s.base), done)
}

// Abort removes the staged files.
func (s *Staged) Abort() {
	if s.set != nil {
		s.set.Abort()
	}
}

// BaseName is "<name>-<version>", the stem of every file staged.
func (s *Staged) BaseName() string { return s.base }

// output is one file of a build's set.
type output struct {
	suffix string
	data   []byte
	path   *string // the Result field naming it
}

// stage writes every file of the set to a temporary name in set, unless
// dir holds the same set already (then st.set stays nil).
func (p *Plan) stage(ctx context.Context, dir string, st *Staged, set *atomicfile.Set) error {
	res := st.Result
	archive, sum, err := p.render(ctx, set, st.base+".tgz")
	if err != nil {
		return err
	}
	res.Integrity = IntegrityOf(sum)
	served, err := versionManifest(p.served, res.Integrity.SRI)
	if err != nil {
		return err
	}
	sidecar := fmt.Sprintf("%s\n%s\n", res.Integrity.SRI, res.Integrity.Hex)
	outs := []output{
		{".tgz", archive, &res.Archive},
		{".sig", p.Signature, &res.Signature},
		{".sigstore.json", p.Bundle, &res.Bundle},
		{".json", served, &res.Manifest},
		{".integrity", []byte(sidecar), &res.Sidecar},
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	same := archive != nil && unchanged(dir, st.base, outs)
	for _, o := range outs {
		if o.data == nil {
			continue
		}
		if !same {
			if err := set.AddBytes(st.base+o.suffix, o.data, 0o644); err != nil {
				return err
			}
		}
		*o.path = filepath.Join(dir, st.base+o.suffix)
	}
	res.Archive = filepath.Join(dir, st.base+".tgz")
	if !same {
		st.set = set
	}
	return nil
}

// render compresses the archive into memory and returns it with its
// SHA-256, or, past memArchive, streams it into set as name and returns
// only the sum.
func (p *Plan) render(ctx context.Context, set *atomicfile.Set, name string) (archive, sum []byte, err error) {
	fill := func(w io.Writer) error {
		h := sha256.New()
		if err := p.compressors().Write(io.MultiWriter(ctxWriter{ctx, w}, h), withContext(ctx, p.Files)); err != nil {
			return err
		}
		sum = h.Sum(nil)
		return nil
	}
	if p.tarSize() > memArchive {
		return nil, sum, set.Add(name, 0o644, fill)
	}
	var buf bytes.Buffer
	if err := fill(&buf); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), sum, nil
}

// tarSize bounds the compressed archive: the tar it deflates.
func (p *Plan) tarSize() int64 {
	var n int64
	for _, f := range p.Files {
		n += 512 + f.Size
	}
	return n
}

// unchanged says whether dir holds exactly outs as base's set: each file
// present a regular file with the same bytes, and no other file of a set
// (an old signature beside an unsigned build) present.
func unchanged(dir, base string, outs []output) bool {
	for _, o := range outs {
		path := filepath.Join(dir, base+o.suffix)
		if o.data == nil {
			if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
				return false
			}
			continue
		}
		got, err := safefile.Read(path, safefile.Options{Max: int64(len(o.data))})
		if err != nil || !bytes.Equal(got, o.data) {
			return false
		}
	}
	return true
}

// withContext makes every file's reads fail once ctx is cancelled, so a
// cancelled build stops reading sources at once.
func withContext(ctx context.Context, files []tarball.File) []tarball.File {
	out := make([]tarball.File, len(files))
	for i, f := range files {
		open := f.Open
		f.Open = func() (io.ReadCloser, error) {
			r, err := open()
			if err != nil {
				return nil, err
			}
			return ctxReader{ctx, r}, nil
		}
		out[i] = f
	}
	return out
}

type ctxReader struct {
	ctx context.Context
	io.ReadCloser
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.ReadCloser.Read(b)
}

// OldSet names the files of a previous build of base (<name>-<version>)
// in the order a new set must remove them: sidecars first, the archive
// last, so that while they go a reader may see the old archive alone, never
// an old signature beside a new archive.
func OldSet(base string) []string {
	old := make([]string, 0, len(outputSuffixes))
	for i := len(outputSuffixes) - 1; i >= 0; i-- {
		old = append(old, base+outputSuffixes[i])
	}
	return old
}

// ctxWriter fails once ctx is cancelled, so Ctrl-C stops a long archive
// write between two chunks.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(b)
}
