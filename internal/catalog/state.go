package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	neturl "net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/atomicfile"
)

// FactsKey names the state of what the catalog's facts (its packs, node
// types and agents) were read from: a folder's manifests, an index, a
// registry's index, a host profile. It costs a stat per manifest, not a
// walk of every pack; "" means unknown.
func (c *Catalog) FactsKey() string {
	if c.facts == nil {
		return ""
	}
	return c.facts()
}

// StateFor names what a result computed against the catalog depends on
// when it asks about the node types ids: the facts (FactsKey), and every
// file of the packs defining those ids and of the packs their JSON files
// $ref (schema questions read the JSON; a rule may read an executor). A pack served by a registry is
// named by its version (published files never change). "" means unknown:
// such a result must not be reused.
//
// A pre-commit lint of one pack in a checkout of a thousand thereby stats
// the manifests and walks the few packs its chains use, instead of every
// pack's files (Key). A lazy catalog answers from the resolved file its
// last run kept for these facts and ids, so a cached result costs no read
// of the facts.
func (c *Catalog) StateFor(ids []string) string {
	facts := c.FactsKey()
	if facts == "" {
		return ""
	}
	memo := ""
	if c.stateDir != "" {
		memo = memoName(facts, ids)
		if r, ok := loadResolved(c.stateDir, memo); ok {
			files, reread, err := filesState(r.Roots, func(name string) (packAt, bool) {
				at, ok := r.Packs[name]
				return at, ok
			}, r.Files)
			if err == nil {
				if reread {
					storeResolved(c.stateDir, memo, r)
				}
				return "facts:" + facts + "+files:" + files
			}
			// A file of a used pack now $refs a pack the memo never
			// looked up (or is unreadable): ask the facts.
		}
	}
	r := resolved{Packs: map[string]packAt{}, Files: map[string]fileAt{}}
	seen := map[string]bool{}
	for _, id := range ids {
		if n, ok := c.NodeType(id); ok && !seen[n.Pack] {
			seen[n.Pack] = true
			r.Roots = append(r.Roots, n.Pack)
		}
	}
	slices.Sort(r.Roots)
	files, _, err := filesState(r.Roots, func(name string) (packAt, bool) {
		var at packAt
		if p := c.pack(name); p != nil {
			at = packAt{Dir: p.dir, In: true}
		}
		r.Packs[name] = at
		return at, true
	}, r.Files)
	if err != nil {
		return ""
	}
	if memo != "" {
		storeResolved(c.stateDir, memo, r)
	}
	return "facts:" + facts + "+files:" + files
}

// resolved is what StateFor asked a catalog's facts for one list of ids:
// the packs defining them and, for every pack name it looked up, whether
// the catalog holds it and where its files are. The facts key names the
// facts, so for one key and list the answers never change: kept in a
// file, they spare a run whose lint results are cached the reading of a
// thousand packs' facts (a lazy catalog, Options.Lazy). The files of the
// packs named are stamped again every time; Files keeps the $refs of each
// JSON file as of its stamp, so an unchanged file is not read again.
type resolved struct {
	Roots []string
	Packs map[string]packAt
	Files map[string]fileAt // by path
}

// packAt is the answer about one pack name.
type packAt struct {
	Dir string // its files ("" when the catalog holds none)
	In  bool   // the catalog holds a pack of this name
}

// fileAt is a pack file's stamp and the packs its $refs name.
type fileAt struct {
	Mode       fs.FileMode
	Size, Time int64
	Refs       []string
}

// errNotAsked: filesState met a pack name its lookup holds no answer for.
var errNotAsked = errors.New("catalog state: a pack not looked up before")

// filesState hashes the path, type, size and time of every file of the
// packs roots names and of the packs their JSON files $ref, transitively,
// in the same order every run. lookup answers about a pack name (ok false:
// no answer at hand, errNotAsked). files holds the $refs of JSON files as
// of their stamps; those read anew are put there (reread).
func filesState(roots []string, lookup func(name string) (at packAt, ok bool), files map[string]fileAt) (sum string, reread bool, err error) {
	want := map[string]bool{}
	queue := slices.Clone(roots)
	for _, name := range roots {
		want[name] = true
	}
	h := sha256.New()
	for len(queue) > 0 {
		slices.Sort(queue)
		name := queue[0]
		queue = queue[1:]
		at, ok := lookup(name)
		if !ok {
			return "", false, errNotAsked
		}
		if !at.In || at.Dir == "" {
			fmt.Fprintf(h, "pack %s\n", name) // facts only, or immutable published files
			continue
		}
		refs, read, err := packFilesState(h, at.Dir, files)
		if err != nil {
			return "", false, err
		}
		reread = reread || read
		for _, r := range refs {
			if want[r] {
				continue
			}
			at, ok := lookup(r)
			if !ok {
				return "", false, errNotAsked
			}
			if at.In {
				want[r] = true
				queue = append(queue, r)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), reread, nil
}

// memoName names the resolved file of a facts key and a list of ids.
func memoName(facts string, ids []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", facts)
	for _, id := range ids {
		fmt.Fprintf(h, "%s\x00", id)
	}
	return "state-" + hex.EncodeToString(h.Sum(nil)[:16]) + ".gob"
}

func loadResolved(dir, name string) (resolved, bool) {
	var r resolved
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil || gob.NewDecoder(bytes.NewReader(raw)).Decode(&r) != nil {
		return resolved{}, false
	}
	if r.Files == nil {
		r.Files = map[string]fileAt{}
	}
	return r, true
}

func storeResolved(dir, name string, r resolved) {
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(r) == nil && os.MkdirAll(dir, 0o755) == nil {
		_ = atomicfile.Write(filepath.Join(dir, name), buf.Bytes(), 0o644)
	}
}

// refRE finds the $refs of a JSON document.
var refRE = regexp.MustCompile(`"\$ref"\s*:\s*"([^"]+)"`)

// packFilesState writes the path, type, size and time of every file under
// dir to h, and returns the packs the absolute $refs of its JSON files
// name (a pack schema URL's path is /<pack>/<version>/<file>): from files
// when a file's stamp is the one there, else read (and put there: read).
func packFilesState(h io.Writer, dir string, files map[string]fileAt) (refs []string, read bool, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		at := fileAt{Mode: info.Mode().Type(), Size: info.Size(), Time: info.ModTime().UnixNano()}
		fmt.Fprintf(h, "%s\x00%v\x00%d\x00%d\n", path, at.Mode, at.Size, at.Time)
		if filepath.Ext(path) != ".json" || !info.Mode().IsRegular() || info.Size() > 16<<20 {
			return nil // a FIFO or link is lint's to report, never read here
		}
		if old, ok := files[path]; ok && old.Mode == at.Mode && old.Size == at.Size && old.Time == at.Time {
			refs = append(refs, old.Refs...)
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range refRE.FindAllSubmatch(raw, -1) {
			u, err := neturl.Parse(string(m[1]))
			if err != nil || !u.IsAbs() {
				continue // relative: this pack's own files
			}
			if first, _, ok := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/"); ok {
				at.Refs = append(at.Refs, first)
			}
		}
		files[path], read = at, true
		refs = append(refs, at.Refs...)
		return nil
	})
	return refs, read, err
}
