package catalog

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/internal/safefile"
)

// maxRuntimeEntry bounds the executor source RuntimeSource reads: many times
// any real entry, so a crafted checkout cannot make lint read gigabytes.
const maxRuntimeEntry = 4 << 20

// RuntimeSource returns the JavaScript runtime entry of the pack defining
// node type n: the code a host runs for it, which rules read to learn what
// the node does with its inputs. It returns "" when the catalog holds no
// files of that pack (an index, a registry URL: published executors are
// not fetched), the pack declares no JavaScript entry, or the entry is not
// a regular file inside the pack: a path out of the pack or through a
// symbolic link is never followed, and the read is bounded.
//
// The result depends on the pack's files; StateFor stamps every file of a
// pack whose node types a result asked about, so a cached result sees an
// edited executor.
func (c *Catalog) RuntimeSource(n *NodeType) string {
	if n == nil {
		return ""
	}
	p := c.pack(n.Pack) // Packs never change once the catalog is read
	if p == nil || p.dir == "" {
		return ""
	}
	raw, err := safefile.Read(filepath.Join(p.dir, "pack.json"), safefile.Options{Max: maxRuntimeEntry})
	if err != nil {
		return ""
	}
	var m struct {
		Runtime struct {
			Language string `json:"language"`
			Entry    string `json:"entry"`
		} `json:"runtime"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Runtime.Language != "javascript" {
		return ""
	}
	entry := path.Clean(strings.TrimPrefix(m.Runtime.Entry, "./"))
	if m.Runtime.Entry == "" || !filepath.IsLocal(entry) || linkOnPath(p.dir, entry) {
		return ""
	}
	src, err := safefile.Read(filepath.Join(p.dir, filepath.FromSlash(entry)), safefile.Options{Max: maxRuntimeEntry})
	if err != nil {
		return ""
	}
	return string(src)
}

// linkOnPath reports whether a folder on the way from dir to the
// slash-separated rel is a symbolic link (or cannot be told): it could lead
// out of the pack. safefile refuses a link at rel itself.
func linkOnPath(dir, rel string) bool {
	parts := strings.Split(rel, "/")
	cur := dir
	for _, part := range parts[:len(parts)-1] {
		cur = filepath.Join(cur, part)
		info, err := os.Lstat(cur)
		if err != nil || !info.IsDir() {
			return true
		}
	}
	return false
}
