package lintrun

import (
	"maps"
	"path/filepath"
	"strings"
	"sync"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
)

// FileCache keeps the bytes of pack files between runs: a language server
// lints the same pack at every keystroke, and reading its files again was
// most of a run's system time. A file is served from the cache only while
// its identity (device, inode, size, modification time) is what it was
// when read, so a file changed on disk is read again; it is read the way
// lint reads it (size ceilings, never through a link), so a run sees what
// a run without the cache sees.
type FileCache struct {
	mu    sync.Mutex
	max   int64 // bytes held at most
	held  int64
	files map[string]cachedFile // by absolute path
}

type cachedFile struct {
	id   safefile.Identity
	data []byte
}

// NewFileCache returns a cache holding at most max bytes.
func NewFileCache(max int64) *FileCache {
	return &FileCache{max: max, files: map[string]cachedFile{}}
}

// fill returns overlay (by slash name in pk) with the cached bytes of pk's
// other regular files added, reading those not cached while room lasts;
// what pk no longer lists is forgotten.
func (c *FileCache) fill(pk *pack.Pack, overlay map[string][]byte) map[string][]byte {
	if pk.Dir == "" {
		return overlay
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := maps.Clone(overlay)
	if out == nil {
		out = map[string][]byte{}
	}
	listed := map[string]bool{}
	for _, f := range pk.Files {
		if _, ok := out[f.Name]; ok || !f.Mode.IsRegular() {
			continue
		}
		path := filepath.Join(pk.Dir, filepath.FromSlash(f.Name))
		listed[path] = true
		if e, ok := c.files[path]; ok && e.id == f.ID {
			out[f.Name] = e.data
			continue
		}
		c.forget(path)
		if c.held+f.Size > c.max {
			continue
		}
		data, err := pk.ReadFile(f.Name)
		if err != nil {
			continue // lint meets the same refusal and reports it
		}
		c.files[path] = cachedFile{id: f.ID, data: data}
		c.held += int64(len(data))
		out[f.Name] = data
	}
	prefix := pk.Dir + string(filepath.Separator)
	for path := range c.files {
		if strings.HasPrefix(path, prefix) && !listed[path] {
			c.forget(path)
		}
	}
	return out
}

func (c *FileCache) forget(path string) {
	if e, ok := c.files[path]; ok {
		c.held -= int64(len(e.data))
		delete(c.files, path)
	}
}
