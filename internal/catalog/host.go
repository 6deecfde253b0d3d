package catalog

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/safefile"
)

// A host profile says what one host application provides itself, beyond
// the packs it installs from a registry: node types (a chain naming one
// resolves on that host), agent ids, host surfaces and runtime
// capabilities. Neither the OpenWOP spec nor a host's discovery document
// lists the node types a host provides (/.well-known/openwop advertises
// runtimeCapabilities only), so wop reads a small file; its
// runtimeCapabilities member is the discovery document's, so a host's
// list can be copied across. docs/hosts.md describes the format.

// KindHost is the Kind of the Pack a host profile appears as in a catalog.
const KindHost = "host"

// HostPackPrefix begins the name of the Pack a host profile appears as
// ("host:openwop-app"); no pack name has a colon, so it never collides.
const HostPackPrefix = "host:"

// maxHostFile bounds a host profile on disk (the reference host's is a few
// kilobytes).
const maxHostFile = 1 << 20

// Host is a parsed host profile.
type Host struct {
	Path string `json:"-"` // where it was read from
	// Name identifies the host in messages and in the catalog
	// ("host:<name>"): lowercase letters, digits, '-' and '.'.
	Name                string   `json:"host"`
	Title               string   `json:"title,omitempty"`
	Source              string   `json:"source,omitempty"` // where the facts come from
	NodeTypes           []string `json:"nodeTypes,omitempty"`
	AgentIDs            []string `json:"agentIds,omitempty"`
	HostSurfaces        []string `json:"hostSurfaces,omitempty"`
	RuntimeCapabilities []string `json:"runtimeCapabilities,omitempty"`

	key string // digest of the file: its state, for the lint cache
}

// hostMembers are the members a host profile may have.
var hostMembers = []string{"host", "title", "source", "nodeTypes", "agentIds", "hostSurfaces", "runtimeCapabilities"}

var hostNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)

// LoadHost reads a host profile file: a regular file (never a FIFO or
// device) of at most 1 MB.
func LoadHost(path string) (*Host, error) {
	raw, err := safefile.Read(path, safefile.Options{Max: maxHostFile, FollowLinks: true})
	if err != nil {
		return nil, err
	}
	h, err := ParseHost(raw)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	h.Path = path
	return h, nil
}

// ParseHost parses a host profile document. An error begins with the line
// and column of the mistake (" 3:5: ...") when it has one, so the caller
// puts the file name before it.
func ParseHost(raw []byte) (*Host, error) {
	doc, err := jsonpos.Parse(raw)
	if err != nil {
		return nil, atPosition(raw, err)
	}
	// Member names are checked here, exactly: encoding/json would take
	// "nodetypes" for nodeTypes, and the last of a name written twice.
	if doc.Root.Kind != jsonpos.Object {
		return nil, errors.New(" want an object {\"host\": ..., \"nodeTypes\": [...]}")
	}
	for _, m := range doc.Root.Members {
		if !slices.Contains(hostMembers, m.Name) {
			pos := jsonpos.PositionOf(raw, m.NameAt)
			return nil, fmt.Errorf("%d:%d: unknown member %q (known: %s)", pos.Line, pos.Column, m.Name, strings.Join(hostMembers, ", "))
		}
	}
	if len(doc.Duplicates) > 0 {
		d := doc.Duplicates[0]
		pos := jsonpos.PositionOf(raw, d.At)
		return nil, fmt.Errorf("%d:%d: member %q appears twice; keep one", pos.Line, pos.Column, d.Name)
	}
	var h Host
	if err := json.Unmarshal(raw, &h); err != nil {
		return nil, atPosition(raw, err)
	}
	if !hostNameRE.MatchString(h.Name) {
		return nil, fmt.Errorf(" host %q: want a name of lowercase letters, digits, '-' and '.' (e.g. \"openwop-app\")", h.Name)
	}
	for _, list := range []struct {
		member string
		ids    []string
	}{{"nodeTypes", h.NodeTypes}, {"agentIds", h.AgentIDs}, {"hostSurfaces", h.HostSurfaces}, {"runtimeCapabilities", h.RuntimeCapabilities}} {
		seen := map[string]bool{}
		for i, id := range list.ids {
			if strings.TrimSpace(id) == "" || strings.ContainsAny(id, " \t\n") {
				return nil, fmt.Errorf(" %s[%d] %q: want an id without spaces", list.member, i, id)
			}
			if seen[id] {
				return nil, fmt.Errorf(" %s[%d] %q appears twice; keep one", list.member, i, id)
			}
			seen[id] = true
		}
	}
	sum := sha256.Sum256(raw)
	h.key = "host-" + hex.EncodeToString(sum[:16])
	return &h, nil
}

// WithHosts returns c with what the hosts provide: each host appears as a
// pack named "host:<name>" whose node types and agents resolve like any
// pack's. Without a catalog (c nil) it returns nil: with no registry to
// check against, a typeId no host lists may still be some pack's, so the
// catalog rules stay silent as before.
func WithHosts(c *Catalog, hosts ...*Host) *Catalog {
	if c == nil || len(hosts) == 0 {
		return c
	}
	sources := []*Catalog{c}
	for _, h := range hosts {
		hc := newCatalog("host " + cmp.Or(h.Path, h.Name))
		p := Pack{Name: HostPackPrefix + h.Name, Kind: KindHost, TypeIDs: h.NodeTypes, AgentIDs: h.AgentIDs}
		nodes := make([]NodeType, len(h.NodeTypes))
		for i, id := range h.NodeTypes {
			nodes[i] = NodeType{TypeID: id}
		}
		hc.add(p, nodes)
		hc.hosts = []*Host{h}
		key := h.key
		hc.key = func() string { return key }
		hc.facts = hc.key
		sources = append(sources, hc)
	}
	return Merge(sources...)
}

// Hosts returns the host profiles merged into the catalog.
func (c *Catalog) Hosts() []*Host { return c.hosts }
