package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
)

// PackCatalog is what other packs define: with one, references to typeIds
// and agentIds can be resolved for certain, and unresolved ones are errors.
type PackCatalog struct {
	TypeIDs  map[string]string // typeId -> defining pack
	AgentIDs map[string]string // agentId -> defining pack
}

// LoadCatalog reads a folder of packs (each subdirectory's pack.json) or a
// registry index file: a JSON array, or an object with "packs", of entries
// {"name": ..., "typeIds": [...], "agentIds": [...]} as registries serve in
// their per-pack index.json.
func LoadCatalog(path string) (*PackCatalog, error) {
	c := &PackCatalog{TypeIDs: map[string]string{}, AgentIDs: map[string]string{}}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return c, c.addIndex(path)
	}
	manifests, _ := filepath.Glob(filepath.Join(path, "*", pack.ManifestName))
	if len(manifests) == 0 {
		return nil, fmt.Errorf("%s: no */pack.json (want a folder of packs or a registry index file)", path)
	}
	for _, m := range manifests {
		if err := c.addManifest(m); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *PackCatalog) addManifest(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, err := jsonpos.Parse(src)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	name := doc.Root.Get("name").String()
	eachObject(doc.Root.Get("nodes"), "", func(_ string, n *jsonpos.Value) { c.TypeIDs[n.Get("typeId").String()] = name })
	eachObject(doc.Root.Get("agents"), "", func(_ string, a *jsonpos.Value) { c.AgentIDs[a.Get("agentId").String()] = name })
	return nil
}

type indexEntry struct {
	Name     string   `json:"name"`
	TypeIDs  []string `json:"typeIds"`
	AgentIDs []string `json:"agentIds"`
}

func (c *PackCatalog) addIndex(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var entries []indexEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		var wrapped struct {
			Packs []indexEntry `json:"packs"`
		}
		if err2 := json.Unmarshal(raw, &wrapped); err2 != nil || wrapped.Packs == nil {
			var one indexEntry
			if json.Unmarshal(raw, &one) != nil || one.Name == "" {
				return fmt.Errorf("%s: not a registry index (want entries with name and typeIds)", path)
			}
			wrapped.Packs = []indexEntry{one}
		}
		entries = wrapped.Packs
	}
	for _, e := range entries {
		for _, id := range e.TypeIDs {
			c.TypeIDs[id] = e.Name
		}
		for _, id := range e.AgentIDs {
			c.AgentIDs[id] = e.Name
		}
	}
	return nil
}
