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
	b.Commit(ctx)
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

// Stage is Write's first half: every file of the set written to a
// temporary name. Publish or Abort the result. When the output folder
// already holds this build (a rebuild of an unchanged pack: see reuse),
// nothing is written and publishing it changes nothing.
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

// output is one file of a build's set.
type output struct {
	suffix string
	data   []byte
	path   *string // the Result field naming it
}

// stage writes every file of the set to a temporary name in set, unless
// dir holds this build already (then st.set stays nil).
func (p *Plan) stage(ctx context.Context, dir string, st *Staged, set *atomicfile.Set) error {
	if p.reuse(ctx, dir, st) {
		return nil
	}
	var sum []byte
	err := set.Add(st.base+".tgz", 0o644, func(w io.Writer) error {
		h := sha256.New()
		if err := p.compressors().Write(io.MultiWriter(ctxWriter{ctx, w}, h), withContext(ctx, p.Files)); err != nil {
			return err
		}
		sum = h.Sum(nil)
		return nil
	})
	if err != nil {
		return err
	}
	outs, err := p.sidecars(dir, st, sum)
	if err != nil {
		return err
	}
	for _, o := range outs {
		if o.data == nil {
			continue
		}
		if err := set.AddBytes(st.base+o.suffix, o.data, 0o644); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	st.set = set
	return nil
}

// sidecars fills st.Result for the archive whose SHA-256 is sum and
// returns the files written beside it (data nil: not part of this set).
func (p *Plan) sidecars(dir string, st *Staged, sum []byte) ([]output, error) {
	res := st.Result
	res.Integrity = IntegrityOf(sum)
	served, err := versionManifest(p.served, res.Integrity.SRI)
	if err != nil {
		return nil, err
	}
	sidecar := fmt.Sprintf("%s\n%s\n", res.Integrity.SRI, res.Integrity.Hex)
	outs := []output{
		{".sig", p.Signature, &res.Signature},
		{".sigstore.json", p.Bundle, &res.Bundle},
		{".json", served, &res.Manifest},
		{".integrity", []byte(sidecar), &res.Sidecar},
	}
	res.Archive = filepath.Join(dir, st.base+".tgz")
	for _, o := range outs {
		if o.data != nil {
			*o.path = filepath.Join(dir, st.base+o.suffix)
		}
	}
	return outs, nil
}

// memArchive bounds the archive in the output folder that Stage reads to
// see whether it is this build's already.
const memArchive = 8 << 20

// reuse says whether dir holds this build already, filling st.Result if
// so: an archive (a regular file of at most memArchive bytes) in wop's gzip
// framing whose bytes are exactly this build's (a tar that differs is
// found by inflating, tarball.Compressors.SameArchive, which is cheaper
// than compressing; an equal tar is then compressed and compared byte for
// byte), and beside it exactly the sidecars this build writes, no other
// file of a set (an old signature beside an unsigned build) present.
// Builds are reproducible, so rebuilding an unchanged pack over its own
// output then writes, syncs and renames nothing, and what the folder holds
// is what a build into an empty folder writes.
func (p *Plan) reuse(ctx context.Context, dir string, st *Staged) bool {
	archive, err := safefile.Read(filepath.Join(dir, st.base+".tgz"), safefile.Options{Max: memArchive})
	if err != nil {
		return false
	}
	if same, err := p.compressors().SameArchive(archive, withContext(ctx, p.Files)); err != nil || !same {
		return false
	}
	// The same tar is not yet the same archive: one compressed by another
	// wop (another Go release) holds other deflate bytes, and a build
	// writes exactly what this wop makes, whatever the folder held. So
	// the tar, known equal, is compressed once more and held to archive
	// byte for byte.
	rest := &sameBytes{want: archive}
	if err := p.compressors().Write(rest, withContext(ctx, p.Files)); err != nil || len(rest.want) != 0 {
		return false
	}
	sum := sha256.Sum256(archive)
	outs, err := p.sidecars(dir, st, sum[:])
	if err != nil {
		return false
	}
	for _, o := range outs {
		path := filepath.Join(dir, st.base+o.suffix)
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
	return ctx.Err() == nil
}

// sameBytes is a writer that holds what is written to want, failing at
// the first byte that differs or runs past it; want is what is left.
type sameBytes struct{ want []byte }

var errNotSame = errors.New("not the same bytes")

func (w *sameBytes) Write(p []byte) (int, error) {
	if len(p) > len(w.want) || !bytes.Equal(p, w.want[:len(p)]) {
		return 0, errNotSame
	}
	w.want = w.want[len(p):]
	return len(p), nil
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
