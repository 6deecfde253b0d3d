// Package stage publishes to a pull-request registry: it stages a version
// into a clone of the registry's repository as the change a contributor
// would open a pull request with, and runs the registry's own CI gate on it.
//
// What wop writes itself is what the registry's builder takes as input: the
// pack's source under packs/<name>/, and the archive, raw signature and
// version manifest (integrity included) under registry/<tree>/packs/<name>/-/.
// Every derived file (pack and registry indexes, schema mirrors, SBOMs, the
// landing page) is written by the checkout's own generators, as the
// registry's staging script does: they are the definition of those bytes,
// change with the registry, and include a large HTML template that is the
// registry's, not wop's. The work happens in a copy of the checkout; only
// when generators and gate pass is the difference moved in, file by file,
// with a rollback if a write fails. A failure at any step leaves the
// checkout as it was.
package stage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/scratch"
	"github.com/wop-cli/wop/internal/tarball"
)

// Pack is the version to stage.
type Pack struct {
	Archive *publish.Archive
	// SourceDir is the pack's source folder, whose files (as the author
	// keeps them) go under packs/<name>/; "" stages from the archive alone.
	SourceDir string
	// Manifest is the version manifest build wrote beside the archive; it
	// is used when it matches the archive, nil derives one.
	Manifest []byte
}

// Options configure a stage.
type Options struct {
	Tree    string   // "v1" or "v2"
	NoGate  bool     // skip the checkout's CI gate
	Branch  string   // create this branch and commit on it ("" leaves committing to the caller)
	Message string   // the commit message
	Environ []string // the environment generators, gate and git run with
	// Progress, when set, is told each step as it starts.
	Progress func(format string, args ...any)
	// Invoked is the command that started wop: the fixes a failed gate's
	// error codes get name it.
	Invoked invocation.Name
}

// Status says what a stage did.
type Status string

// The outcomes of a stage.
const (
	Staged        Status = "staged"
	AlreadyStaged Status = "already-staged" // the same content is there: nothing to do
)

// Result reports a stage.
type Result struct {
	Status   Status
	Edits    []Edit // the files the change touches, sorted
	Gate     string // the gate that passed ("" when skipped or absent)
	GateNote string // why no gate ran
	Branch   string // the branch committed on, with Options.Branch
}

// Stage stages p into the checkout c: the existing-version check, then the
// change built in a copy of the checkout with the checkout's generators,
// then its gate, and only then the files moved in (and committed, with
// Options.Branch).
func Stage(ctx context.Context, c *Checkout, p Pack, o Options) (*Result, error) {
	if o.Progress == nil {
		o.Progress = func(string, ...any) {}
	}
	a := p.Archive
	// Name and version become paths in the checkout (packs/<name>/,
	// <version>.tgz): never "..", never a slash.
	if err := pack.CheckNameVersion(a.Name, a.Version); err != nil {
		return nil, err
	}
	if err := CheckTree(o.Tree, a); err != nil {
		return nil, err
	}
	if a.Signature == nil {
		return nil, fmt.Errorf("%s@%s is unsigned; a registry pull request needs keys/pack.json.sig", a.Name, a.Version)
	}
	existing, err := c.existing(o.Tree, a, o.Invoked)
	if err != nil || existing == publish.Different {
		return nil, err
	}
	if existing == publish.Identical {
		return &Result{Status: AlreadyStaged}, nil
	}
	ch, err := changeFor(o.Tree, p)
	if err != nil {
		return nil, err
	}
	// A copy left by a killed wop is removed first (it is unlocked).
	scratch.Sweep("wop-stage-")
	tmp, err := scratch.Dir("wop-stage-")
	if err != nil {
		return nil, err
	}
	defer tmp.Remove()
	work := tmp.Path
	res := &Result{Status: Staged}
	if res.Edits, err = stageTree(ctx, c, work, ch, o); err != nil {
		return nil, err
	}
	if err := check(ctx, work, o, res); err != nil {
		return nil, err
	}
	done, err := apply(c.Root, res.Edits, realOps)
	if err != nil {
		return nil, err
	}
	if o.Branch != "" {
		if err := commitOnBranch(ctx, c.Root, o.Environ, o.Branch, o.Message, res.Edits); err != nil {
			return nil, errors.Join(err, done.rollback())
		}
		res.Branch = o.Branch
	}
	return res, nil
}

// stageTree makes the staged tree in work: a copy of the checkout, the change,
// and the generators' output. It returns what differs from the checkout,
// taken before the gate runs so nothing the gate leaves behind is staged.
func stageTree(ctx context.Context, c *Checkout, work string, ch *change, o Options) ([]Edit, error) {
	if err := copyTree(ctx, c.Root, work); err != nil {
		return nil, fmt.Errorf("copying the checkout: %w", err)
	}
	if _, err := os.Stat(c.path("node_modules")); err == nil {
		if err := os.Symlink(c.path("node_modules"), filepath.Join(work, "node_modules")); err != nil {
			return nil, err
		}
	}
	if err := writeChange(work, ch); err != nil {
		return nil, fmt.Errorf("writing the change: %w", err)
	}
	gens, err := generators(work, o.Tree)
	if err != nil {
		return nil, err
	}
	for _, g := range gens {
		o.Progress("running %s", g.Label)
		if err := run(ctx, work, o.Environ, o.Invoked, g); err != nil {
			return nil, err
		}
	}
	return diff(c.Root, work)
}

// check runs the checkout's gate on the staged tree in work.
func check(ctx context.Context, work string, o Options, res *Result) error {
	if o.NoGate {
		res.GateNote = "skipped (--no-registry-check)"
		return nil
	}
	g, ok, err := gate(work)
	if err != nil {
		return err
	}
	if !ok {
		res.GateNote = "the checkout has no gate (package.json scripts.check or scripts/registry-check.sh); its CI will judge the pull request"
		return nil
	}
	o.Progress("running %s", g.Label)
	if err := run(ctx, work, o.Environ, o.Invoked, g); err != nil {
		return err
	}
	res.Gate = g.Label
	return nil
}

// CheckTree refuses an archive whose signing block belongs to another tree:
// the v2 tree takes {"keyId", "scheme"} only, and the registry's v2 verifier
// rejects a v1 block with pack_signature_invalid after the merge; the v1
// tree's verifier knows only the v1 block.
func CheckTree(tree string, a *publish.Archive) error {
	switch tree {
	case "v1":
		if a.Signing != nil && (a.Signing.Get("keyId") != nil || a.Signing.Get("scheme") != nil) {
			return fmt.Errorf("%s@%s is signed with a v2 signing block (keyId/scheme); the v1 tree needs {\"method\",\"publicKeyRef\",\"signatureRef\"}: "+
				"rebuild it with --spec v1, or stage into --tree v2", a.Name, a.Version)
		}
	case "v2":
		if a.Signing != nil && (a.Signing.Get("method") != nil || a.Signing.Get("publicKeyRef") != nil) {
			return fmt.Errorf("%s@%s is signed with a v1 signing block (method/publicKeyRef); the v2 tree needs {\"keyId\",\"scheme\"}: "+
				"rebuild it with --spec v2, or stage into --tree v1", a.Name, a.Version)
		}
	default:
		return fmt.Errorf("--tree %q: want v1 or v2", tree)
	}
	return nil
}

// existing says whether the checkout already holds this version: the same
// tar stream (whatever its gzip bytes) is Identical; another is Different,
// returned as a *publish.ConflictError. Without an archive in the checkout
// (some clones keep only manifests) the recorded integrity decides.
func (c *Checkout) existing(tree string, a *publish.Archive, invoked invocation.Name) (publish.Existing, error) {
	dir := c.path(VersionDir(tree, a.Name))
	conflict := &publish.ConflictError{Name: a.Name, Version: a.Version, Ours: a.Integrity.SRI, Invoked: invoked}
	for _, ext := range []string{".tgz", ".json"} {
		if err := regularOrAbsent(filepath.Join(dir, a.Version+ext)); err != nil {
			return publish.Absent, err
		}
	}
	if f, err := safefile.Open(filepath.Join(dir, a.Version+".tgz"), safefile.Options{Max: 2 * tarball.DefaultLimits.MaxTotal}); err == nil {
		defer f.Close()
		same, err := a.SameTar(f)
		if err != nil || same {
			return publish.Identical, err
		}
		conflict.Theirs = "the checkout's " + filepath.Join(VersionDir(tree, a.Name), a.Version+".tgz")
		return publish.Different, conflict
	}
	raw, err := safefile.Read(filepath.Join(dir, a.Version+".json"), safefile.Options{Max: tarball.DefaultLimits.MaxManifest})
	if errors.Is(err, os.ErrNotExist) {
		return publish.Absent, nil
	}
	if err != nil {
		return publish.Absent, err
	}
	theirs, err := integrityOf(raw)
	if err != nil {
		return publish.Absent, fmt.Errorf("%s: %w", filepath.Join(dir, a.Version+".json"), err)
	}
	if theirs == a.Integrity.SRI {
		return publish.Identical, nil
	}
	conflict.Theirs = theirs
	return publish.Different, conflict
}

// regularOrAbsent refuses a published file that is a symlink, pipe or
// device: opening one could read outside the checkout or block forever
// (a link to /dev/stdin, a FIFO), and a registry's tree holds only files.
func regularOrAbsent(path string) error {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s is %s, not a file; the registry's tree holds only files: replace it with the published file", path, kind(info.Mode()))
	}
	return nil
}

// kind names what a non-regular file is, for an error message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a pipe"
	}
	return "a device or socket"
}

// integrityOf reads a version manifest's integrity.
func integrityOf(manifest []byte) (string, error) {
	var m struct {
		Integrity string `json:"integrity"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil {
		return "", err
	}
	return m.Integrity, nil
}
