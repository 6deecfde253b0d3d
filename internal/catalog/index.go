package catalog

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/wop-cli/wop/internal/safefile"
)

// indexEntry is one pack in a registry index: the per-pack index.json
// registries serve, or an entry of their /v1/index.json.
type indexEntry struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Latest   string   `json:"latest"`
	LatestV  string   `json:"latestVersion"`
	Version  string   `json:"version"`
	TypeIDs  []string `json:"typeIds"`
	AgentIDs []string `json:"agentIds"`
}

// maxIndexFile bounds an index file on disk (the registry's own index of
// every pack is a few hundred kilobytes).
const maxIndexFile = 16 << 20

// LoadIndex reads a registry index file: a JSON array of entries, an object
// with "packs", or one entry, each {"name", "typeIds", "agentIds"}. An
// index names what packs define but carries no schemas.
func LoadIndex(path string) (*Catalog, error) {
	raw, err := safefile.Read(path, safefile.Options{Max: maxIndexFile, FollowLinks: true})
	if err != nil {
		return nil, err
	}
	entries, err := parseIndex(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := newCatalog(path)
	c.addIndex(entries)
	sum := sha256.Sum256(raw)
	key := "index-" + hex.EncodeToString(sum[:16])
	c.key = func() string { return key }
	c.facts = c.key
	return c, nil
}

func parseIndex(raw []byte) ([]indexEntry, error) {
	var entries []indexEntry
	if err := json.Unmarshal(raw, &entries); err == nil {
		return entries, nil
	}
	var wrapped struct {
		Packs []indexEntry `json:"packs"`
	}
	if err := json.Unmarshal(raw, &wrapped); err == nil && wrapped.Packs != nil {
		return wrapped.Packs, nil
	}
	var one indexEntry
	if json.Unmarshal(raw, &one) != nil || one.Name == "" {
		return nil, fmt.Errorf("not a registry index (want entries with name and typeIds)")
	}
	return []indexEntry{one}, nil
}

func (c *Catalog) addIndex(entries []indexEntry) {
	for _, e := range entries {
		if e.Name == "" {
			continue
		}
		c.add(Pack{Name: e.Name, Version: e.version(), Kind: e.Kind, TypeIDs: e.TypeIDs, AgentIDs: e.AgentIDs}, nil)
	}
	c.sort()
}

// version is the entry's latest version, whichever name the index uses.
func (e indexEntry) version() string { return cmp.Or(e.Latest, e.LatestV, e.Version) }
