package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	neturl "net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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
// pack's files (Key).
func (c *Catalog) StateFor(ids []string) string {
	facts := c.FactsKey()
	if facts == "" {
		return ""
	}
	want := map[string]bool{}
	var queue []string
	need := func(name string) {
		if !want[name] {
			want[name] = true
			queue = append(queue, name)
		}
	}
	for _, id := range ids {
		if n, ok := c.types[id]; ok {
			need(n.Pack)
		}
	}
	h := sha256.New()
	for len(queue) > 0 {
		slices.Sort(queue) // the same order every run
		name := queue[0]
		queue = queue[1:]
		p := c.pack(name)
		if p == nil || p.dir == "" {
			fmt.Fprintf(h, "pack %s\n", name) // facts only, or immutable published files
			continue
		}
		refs, err := packFilesState(h, p.dir)
		if err != nil {
			return ""
		}
		for _, r := range refs {
			if c.pack(r) != nil {
				need(r)
			}
		}
	}
	return "facts:" + facts + "+files:" + hex.EncodeToString(h.Sum(nil)[:16])
}

// refRE finds the $refs of a JSON document.
var refRE = regexp.MustCompile(`"\$ref"\s*:\s*"([^"]+)"`)

// packFilesState writes the path, type, size and time of every file under
// dir to h, and returns the packs the absolute $refs of its JSON files
// name (a pack schema URL's path is /<pack>/<version>/<file>).
func packFilesState(h interface{ Write([]byte) (int, error) }, dir string) ([]string, error) {
	var refs []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%v\x00%d\x00%d\n", path, info.Mode().Type(), info.Size(), info.ModTime().UnixNano())
		if filepath.Ext(path) != ".json" || !info.Mode().IsRegular() || info.Size() > 16<<20 {
			return nil // a FIFO or link is lint's to report, never read here
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
				refs = append(refs, first)
			}
		}
		return nil
	})
	return refs, err
}
