package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/atomicfile"
)

// A snapshot is a catalog's facts in one cache file, so a catalog whose
// sources did not change loads with one read instead of one per pack. The
// key names the sources' state; a snapshot is never updated in place. It
// is gob, not JSON: decoding a thousand packs' facts was a third of a
// pre-commit lint in a large checkout. A header before the packs says how
// many there are, so a lazy catalog (Options.Lazy) can say its size and
// know its snapshot is there without decoding the packs.

// snapshotExt ends a snapshot's name. It names the format: a wop from
// before the header wrote ".gob", and two versions sharing a cache must
// not take each other's snapshots for broken and rewrite them every run.
const snapshotExt = ".v2.gob"

// snapshotHeader opens a snapshot.
type snapshotHeader struct {
	Packs int // how many snapshotPacks follow
}

// snapshotPack is one pack of a stored snapshot: what its version manifest
// said, so a run whose index is unchanged reads one file, not one per pack.
type snapshotPack struct {
	Dir      string     `json:"dir,omitempty"` // a folder pack's files
	Name     string     `json:"name"`
	Version  string     `json:"version"`
	Kind     string     `json:"kind,omitempty"`
	TypeIDs  []string   `json:"typeIds,omitempty"`
	AgentIDs []string   `json:"agentIds,omitempty"`
	Nodes    []NodeType `json:"nodes,omitempty"`
}

// snapshotKey names the snapshot of a registry's catalog as of one index.
func snapshotKey(base string, index []byte) string {
	sum := sha256.Sum256(append([]byte(base+"\n"), index...))
	return "snapshot-" + hex.EncodeToString(sum[:16]) + snapshotExt
}

// snapshotLen reads only the header of the snapshot key: how many packs
// it holds (ok false: no usable snapshot).
func snapshotLen(dir, key string) (n int, ok bool) {
	if dir == "" {
		return 0, false
	}
	f, err := os.Open(filepath.Join(dir, key))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var h snapshotHeader
	if gob.NewDecoder(f).Decode(&h) != nil || h.Packs == 0 {
		return 0, false
	}
	return h.Packs, true
}

func loadSnapshot(dir, key string, c *Catalog) bool {
	if dir == "" {
		return false
	}
	raw, err := os.ReadFile(filepath.Join(dir, key))
	if err != nil {
		return false
	}
	dec := gob.NewDecoder(bytes.NewReader(raw))
	var h snapshotHeader
	var packs []snapshotPack
	if dec.Decode(&h) != nil || dec.Decode(&packs) != nil || len(packs) == 0 || len(packs) != h.Packs {
		return false
	}
	for _, p := range packs {
		c.add(Pack{Name: p.Name, Version: p.Version, Kind: p.Kind, TypeIDs: p.TypeIDs, AgentIDs: p.AgentIDs, dir: p.Dir}, p.Nodes)
	}
	return true
}

func storeSnapshot(dir, key string, c *Catalog) {
	if dir == "" {
		return
	}
	packs := make([]snapshotPack, 0, len(c.Packs))
	for _, p := range c.Packs {
		sp := snapshotPack{Dir: p.dir, Name: p.Name, Version: p.Version, Kind: p.Kind, TypeIDs: p.TypeIDs, AgentIDs: p.AgentIDs}
		for _, id := range p.TypeIDs {
			if n, ok := c.types[id]; ok && n.Pack == p.Name {
				sp.Nodes = append(sp.Nodes, *n)
			}
		}
		packs = append(packs, sp)
	}
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	err := enc.Encode(snapshotHeader{Packs: len(packs)})
	if err == nil {
		err = enc.Encode(packs)
	}
	if err == nil && os.MkdirAll(dir, 0o755) == nil {
		_ = atomicfile.Write(filepath.Join(dir, key), buf.Bytes(), 0o644)
	}
}
