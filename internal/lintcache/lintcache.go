// Package lintcache remembers lint results so that an unchanged pack is not
// linted twice (pre-commit and CI lint the same packs on every commit).
//
// A cache must never change a verdict, so an entry is found only by a key
// that digests everything the result depends on (the caller's inputs, and
// the pack's contents as Digest reads them), and an entry is used only when
// it proves it was written whole, in this Format, for that very key. Any
// doubt is a miss: the price of a miss is one lint, the price of a wrong hit
// is a broken pack published as clean.
package lintcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/safefile"
)

// Format names the entry layout and the key derivation. Entries of any other
// format are misses; change it whenever either changes.
const Format = "wop-lint-cache/3"

// Cache is a directory of results. The zero Dir disables it.
type Cache struct {
	Dir string
	// Warn, if set, is told when an entry cannot be written (a read-only or
	// misplaced cache directory): the result is still right, only the next
	// run is slower, so this is a warning and never a failure.
	Warn func(error)
	// Now is the clock entries' ages are told by (see Trim); nil is
	// time.Now.
	Now func() time.Time
}

// Key digests the inputs that decide a lint result. inputs is encoded as
// JSON (maps in sorted key order), so every exported field of it is keyed.
func Key(inputs any) (string, error) {
	raw, err := json.Marshal(inputs)
	if err != nil {
		return "", fmt.Errorf("lint cache key: %w", err)
	}
	h := sha256.New()
	io.WriteString(h, Format+"\x00")
	h.Write(raw)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// entry is the stored form. It names its own format and key, and carries a
// digest of its findings, so a foreign, renamed, truncated or corrupted
// file is recognised as such instead of read as "no findings".
type entry struct {
	Format string          `json:"format"`
	Key    string          `json:"key"`
	Sum    string          `json:"sum"` // sha256 of Diags as stored
	Diags  json.RawMessage `json:"diags"`
}

// path is where key's entry lives. One flat directory: a cold run of many
// packs would otherwise create a directory per entry, which costs as much
// as the entries themselves.
func (c Cache) path(key string) string {
	return filepath.Join(c.Dir, "lint", key+".json")
}

// Load returns the findings stored under key. ok is false for a disabled
// cache, a missing entry, and any entry that fails its checks.
func (c Cache) Load(key string) (diags []diag.Diagnostic, ok bool) {
	if c.Dir == "" || len(key) != 2*sha256.Size {
		return nil, false
	}
	path := c.path(key)
	raw, modTime, err := readEntry(path)
	if err != nil {
		return nil, false
	}
	var e entry
	if json.Unmarshal(raw, &e) != nil || e.Format != Format || e.Key != key || e.Diags == nil {
		return nil, false
	}
	if sum := sha256.Sum256(e.Diags); hex.EncodeToString(sum[:]) != e.Sum {
		return nil, false
	}
	if json.Unmarshal(e.Diags, &diags) != nil || diags == nil {
		return nil, false // a well-formed entry always holds an array, maybe empty
	}
	c.touch(path, modTime) // used: Trim keeps it
	return diags, true
}

// maxEntry bounds an entry's size: far above any pack's findings, it only
// stops a stray huge file from being read whole.
const maxEntry = 64 << 20

// readEntry reads the entry file at path (a regular file, never blocking on
// a FIFO put there) and says when it was last written or marked used.
func readEntry(path string) ([]byte, time.Time, error) {
	f, err := safefile.Open(path, safefile.Options{Max: maxEntry})
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	return raw, f.Info.ModTime(), err
}

// Store saves findings under key. The write is atomic (a temporary file
// renamed into place), so a concurrent or interrupted run never reads half
// an entry. A failure is reported to Warn and otherwise ignored.
func (c Cache) Store(key string, diags []diag.Diagnostic) {
	if c.Dir == "" {
		return
	}
	if err := c.store(key, diags); err != nil && c.Warn != nil {
		c.Warn(err)
	}
}

func (c Cache) store(key string, diags []diag.Diagnostic) error {
	if len(key) != 2*sha256.Size {
		return errors.New("lint cache: malformed key")
	}
	if diags == nil {
		diags = []diag.Diagnostic{}
	}
	body, err := json.Marshal(diags)
	if err != nil {
		return fmt.Errorf("lint cache: %w", err)
	}
	// JSON replaces bytes that are not UTF-8 (a hostile archive's entry
	// names): findings that do not come back byte for byte are not stored.
	var back []diag.Diagnostic
	if json.Unmarshal(body, &back) != nil || !slices.Equal(back, diags) {
		return nil
	}
	sum := sha256.Sum256(body)
	raw, err := json.Marshal(entry{Format: Format, Key: key, Sum: hex.EncodeToString(sum[:]), Diags: body})
	if err != nil {
		return fmt.Errorf("lint cache: %w", err)
	}
	p := c.path(key)
	err = atomicfile.Write(p, raw, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		// The entry's directory is made on first need, not on every store:
		// a cold run of many packs would otherwise pay a MkdirAll each.
		if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			err = atomicfile.Write(p, raw, 0o644)
		}
	}
	if err != nil {
		return fmt.Errorf("lint cache %s: %w", c.Dir, err)
	}
	return nil
}
