// Package catalog is what a registry knows: its packs, their versions, the
// node types and agents they define, and the schemas of those node types.
// It reads a folder of packs, a registry index file, a registry checkout or
// a registry URL. It states facts only: lint, breaking and stage judge them.
package catalog

import (
	"slices"
	"strings"
	"sync"

	"github.com/wop-cli/wop/internal/schema"
)

// Catalog is a set of packs and what they define. It is safe for concurrent
// use; schemas are read and compiled on first use, once.
type Catalog struct {
	// Source names where the catalog was read from, for messages.
	Source string
	// Packs are sorted by name; one entry per pack (its latest version).
	// A lazy catalog (Options.Lazy) fills them on the first use of a
	// method that asks about its facts: read them after one (or Len).
	Packs []Pack
	// Warnings say what the caller should tell the user about how current
	// the catalog is (a registry that did not answer, so a cache stood in).
	Warnings []string
	// Skipped counts the broken pack.json files of a folder that were
	// left out (each with a warning): the catalog is incomplete.
	Skipped int

	key    func() string // names the sources' state (see Key); nil: unknown
	facts  func() string // names the facts' sources' state (see FactsKey); nil: unknown
	hosts  []*Host       // the host profiles merged in (see WithHosts)
	types  map[string]*NodeType
	agents map[string]string // agentId -> defining pack
	names  map[string]bool   // the packs' names: add looks up duplicates only

	// lazy reads the facts on first need (nil: read when opened); until
	// then lazyLen is how many packs it will read (-1: unknown until read,
	// as for a merge). stateDir keeps what
	// StateFor asked the facts (see state.go).
	lazy     func()
	lazyLen  int
	stateDir string

	schemas  *schema.Set
	mu       sync.Mutex
	byRef    map[schemaKey]string      // schema file -> URL it is registered under ("" unreadable)
	docs     map[string]map[string]any // URL -> top-level schema object
	refMu    sync.Mutex                // guards files: loadRef runs inside a compile
	files    map[string][]string       // pack -> its JSON files, listed on first need
	fetchDoc func(pk *Pack, ref string) ([]byte, error)
	listDocs func(pk *Pack) []string // a pack's other JSON files, for $refs
}

// Pack is one pack the catalog knows.
type Pack struct {
	Name    string
	Version string
	Kind    string // "" for a node pack
	// TypeIDs are the node typeIds it defines (for a workflow-chain pack,
	// its chainIds, as registry indexes list them).
	TypeIDs  []string
	AgentIDs []string
	// dir is where its files are read from ("" when the catalog holds no
	// files for it, as with an index file).
	dir string
}

// NodeType is what the catalog knows about one node typeId.
type NodeType struct {
	TypeID       string
	Version      string // the node's own version, "" if not declared
	Pack         string // the defining pack's name
	PackVersion  string
	Role         string
	Capabilities []string
	// ConfigSchema, InputSchema and OutputSchema are the pack-relative refs
	// of its schemas ("" when not declared or not known).
	ConfigSchema, InputSchema, OutputSchema string
}

type schemaKey struct{ pack, ref string }

func newCatalog(source string) *Catalog {
	c := &Catalog{
		Source: source,
		types:  map[string]*NodeType{}, agents: map[string]string{}, names: map[string]bool{},
		byRef: map[schemaKey]string{}, docs: map[string]map[string]any{}, files: map[string][]string{},
	}
	c.schemas = schema.NewSet(c.loadRef)
	return c
}

// add records a pack and what it defines, and reports whether it was kept.
// A pack seen twice keeps the higher version (a checkout or index may list
// several). A host's node type never hides a pack's: the pack's carries
// facts (role, schemas) the host profile lacks.
func (c *Catalog) add(p Pack, nodes []NodeType) bool {
	if c.names[p.Name] { // a search per pack was quadratic in a large checkout
		i := slices.IndexFunc(c.Packs, func(q Pack) bool { return q.Name == p.Name })
		if compareVersions(c.Packs[i].Version, p.Version) >= 0 {
			return false
		}
		c.Packs = slices.Delete(c.Packs, i, i+1)
	}
	c.names[p.Name] = true
	c.Packs = append(c.Packs, p)
	for i := range nodes {
		n := nodes[i]
		n.Pack, n.PackVersion = p.Name, p.Version
		if old, ok := c.types[n.TypeID]; ok && p.Kind == KindHost && old.Pack != p.Name {
			continue
		}
		c.types[n.TypeID] = &n
	}
	for _, id := range p.AgentIDs {
		if _, ok := c.agents[id]; ok && p.Kind == KindHost {
			continue
		}
		c.agents[id] = p.Name
	}
	if p.Kind == "workflow-chain" {
		return true // its TypeIDs are chainIds: nothing a DAG node can name
	}
	for _, id := range p.TypeIDs { // an index names typeIds without facts
		if _, ok := c.types[id]; !ok {
			c.types[id] = &NodeType{TypeID: id, Pack: p.Name, PackVersion: p.Version}
		}
	}
	return true
}

// ready reads a lazy catalog's facts, once.
func (c *Catalog) ready() {
	if c.lazy != nil {
		c.lazy()
	}
}

// Len is how many packs the catalog holds, without reading a lazy
// folder's facts (a lazy merge, whose sources may hold the same pack,
// reads them to count).
func (c *Catalog) Len() int {
	if c.lazy != nil && c.lazyLen >= 0 {
		return c.lazyLen
	}
	c.ready()
	return len(c.Packs)
}

func (c *Catalog) sort() {
	slices.SortFunc(c.Packs, func(a, b Pack) int { return strings.Compare(a.Name, b.Name) })
}

// Key names the state of what the catalog was read from: equal keys mean
// equal facts, so results computed against the catalog may be cached under
// it. "" means the state is unknown. A folder's key stats every JSON file
// of its packs, so it is computed on first use, once.
func (c *Catalog) Key() string {
	if c.key == nil {
		return ""
	}
	return c.key()
}

// NodeType returns what the catalog knows about typeId.
func (c *Catalog) NodeType(typeID string) (*NodeType, bool) {
	c.ready()
	n, ok := c.types[typeID]
	return n, ok
}

// HasType reports whether some pack in the catalog defines typeId.
func (c *Catalog) HasType(typeID string) bool {
	c.ready()
	_, ok := c.types[typeID]
	return ok
}

// AgentPack returns the pack defining agentId.
func (c *Catalog) AgentPack(agentID string) (string, bool) {
	c.ready()
	p, ok := c.agents[agentID]
	return p, ok
}

// NodeTypes returns every node type, sorted by typeId.
func (c *Catalog) NodeTypes() []*NodeType {
	c.ready()
	out := make([]*NodeType, 0, len(c.types))
	for _, n := range c.types {
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b *NodeType) int { return strings.Compare(a.TypeID, b.TypeID) })
	return out
}

// Pack returns the pack of that name the catalog holds (its latest
// version), reading a lazy catalog's facts first.
func (c *Catalog) Pack(name string) (Pack, bool) {
	if p := c.pack(name); p != nil {
		return *p, true
	}
	return Pack{}, false
}

// AllPacks returns the packs, sorted by name, reading a lazy catalog's
// facts first (the Packs field is empty until something asks).
func (c *Catalog) AllPacks() []Pack {
	c.ready()
	return c.Packs
}

func (c *Catalog) pack(name string) *Pack {
	c.ready()
	for i := range c.Packs {
		if c.Packs[i].Name == name {
			return &c.Packs[i]
		}
	}
	return nil
}
