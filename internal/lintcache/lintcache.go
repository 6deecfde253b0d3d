// Package lintcache remembers lint results per pack, keyed by a digest of
// every file's name, type and contents plus what else decides the result
// (wop version, options). An unchanged pack is not linted twice: the
// pre-commit case lints the same packs on every commit.
package lintcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/pack"
)

// Cache is a directory of results. The zero Dir disables it.
type Cache struct {
	Dir string
}

// Key digests the pack's files with salt (the wop version and the lint
// options, serialised by the caller). Files over the pack's size ceilings are
// digested by size only: lint reports them without reading them either.
func Key(pk *pack.Pack, salt string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "wop-lint-cache v1\x00%s\x00", salt)
	sums := map[string][sha256.Size]byte{}
	err := pk.Each(func(string) bool { return true }, func(name string, data []byte) error {
		sums[name] = sha256.Sum256(data)
		return nil
	})
	if err != nil {
		return "", err
	}
	for _, f := range pk.Files {
		// Files too large to read are digested by size and mode alone.
		sum := sums[f.Name]
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%x\x00", f.Name, f.Mode, f.Size, sum)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// entry is the stored form: findings with pack-relative file names, so a
// pack linted under another path still hits.
type entry struct {
	Diags []diag.Diagnostic
}

func (c Cache) path(key string) string {
	return filepath.Join(c.Dir, "lint", key[:2], key+".json")
}

// Load returns the findings stored under key, re-rooted at pk.Display.
func (c Cache) Load(pk *pack.Pack, key string) ([]diag.Diagnostic, bool) {
	if c.Dir == "" {
		return nil, false
	}
	raw, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false
	}
	var e entry
	if json.Unmarshal(raw, &e) != nil {
		return nil, false // a corrupt entry is a miss; Store overwrites it
	}
	for i := range e.Diags {
		e.Diags[i].File = pk.Path(e.Diags[i].File)
	}
	return e.Diags, true
}

// Store saves findings under key atomically, so a concurrent or
// interrupted run never reads half an entry.
func (c Cache) Store(pk *pack.Pack, key string, diags []diag.Diagnostic) error {
	if c.Dir == "" {
		return nil
	}
	rel := make([]diag.Diagnostic, len(diags))
	for i, d := range diags {
		d.File = strings.TrimPrefix(d.File, pk.Path(""))
		rel[i] = d
	}
	raw, err := json.Marshal(entry{Diags: rel})
	if err != nil {
		return err
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(p, raw, 0o644)
}
