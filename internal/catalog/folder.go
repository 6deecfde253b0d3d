package catalog

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"sync"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
)

// manifest is the part of a pack.json the catalog reads.
type manifest struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Nodes   []struct {
		TypeID          string   `json:"typeId"`
		Version         string   `json:"version"`
		Role            string   `json:"role"`
		Capabilities    []string `json:"capabilities"`
		ConfigSchemaRef string   `json:"configSchemaRef"`
		InputSchemaRef  string   `json:"inputSchemaRef"`
		OutputSchemaRef string   `json:"outputSchemaRef"`
	} `json:"nodes"`
	Agents []struct {
		AgentID string `json:"agentId"`
	} `json:"agents"`
	Chains []struct {
		ChainID string `json:"chainId"`
	} `json:"chains"`
}

// parseManifest turns a pack.json into the catalog's facts; dir is where
// the pack's files live ("" when there are none to read).
func parseManifest(raw []byte, dir string) (Pack, []NodeType, error) {
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return Pack{}, nil, err
	}
	if m.Name == "" {
		return Pack{}, nil, errors.New("no name")
	}
	p := Pack{Name: m.Name, Version: m.Version, Kind: m.Kind, dir: dir}
	var nodes []NodeType
	for _, n := range m.Nodes {
		if n.TypeID == "" {
			continue
		}
		p.TypeIDs = append(p.TypeIDs, n.TypeID)
		nodes = append(nodes, NodeType{TypeID: n.TypeID, Version: n.Version, Role: n.Role, Capabilities: n.Capabilities,
			ConfigSchema: n.ConfigSchemaRef, InputSchema: n.InputSchemaRef, OutputSchema: n.OutputSchemaRef})
	}
	for _, a := range m.Agents {
		p.AgentIDs = append(p.AgentIDs, a.AgentID)
	}
	for _, ch := range m.Chains {
		p.TypeIDs = append(p.TypeIDs, ch.ChainID)
	}
	return p, nodes, nil
}

// addFolder reads every */pack.json of dir. With a cache directory, the
// facts are kept as a snapshot keyed by the manifests' paths, sizes and
// times, so an unchanged folder costs a stat per pack and one read.
//
// lazy defers that read to the facts' first use when the snapshot is
// there (so the folder is as it was when every manifest was read, none
// skipped): a pre-commit lint whose result is cached needs only the
// manifests' stamps and what StateFor remembers. A snapshot that proves
// unreadable by then is replaced by reading the manifests.
func (c *Catalog) addFolder(dir, cacheDir string, lazy bool) error {
	manifests, infos, err := listManifests(dir)
	if err != nil {
		return err
	}
	if len(manifests) == 0 {
		return fmt.Errorf("%s: no */pack.json (want a folder of packs, a registry checkout, a registry index file or URL)", dir)
	}
	c.fetchDoc, c.listDocs = readPackFile, listJSONFiles
	c.key = sync.OnceValue(func() string { return folderState(manifests) })
	key := manifestsKey(manifests, infos)
	c.facts = func() string { return key }
	if lazy && key != "" {
		c.stateDir = cacheDir // StateFor keeps its answers from the first run on
		if n, ok := snapshotLen(cacheDir, key); ok {
			c.lazy = sync.OnceFunc(func() {
				if !loadSnapshot(cacheDir, key, c) {
					// Between the header and now the file went bad: what
					// the manifests say is the catalog (a broken one
					// skipped, as the snapshot would not exist had one
					// been broken then).
					_ = c.readManifests(manifests)
				}
				c.sort()
			})
			c.lazyLen = n
			return nil
		}
	}
	if key != "" && loadSnapshot(cacheDir, key, c) {
		c.sort()
		return nil
	}
	if err := c.readManifests(manifests); err != nil {
		return err
	}
	c.sort()
	// A snapshot holds no warnings: with a pack skipped, each run reads
	// the folder again and says so again.
	if key != "" && c.Skipped == 0 {
		storeSnapshot(cacheDir, key, c)
	}
	return nil
}

// listManifests returns dir/*/pack.json, as filepath.Glob would, sorted,
// with each one's size and time (through a link): one listing of dir and
// a stat per entry (statManifests). Glob lists every subdirectory to match
// the name in it (a thousand listings in a large checkout); the names
// alone cost less than ReadDir's entries. A manifest that cannot be
// stat'ed has no stamp (ok false).
func listManifests(dir string) ([]string, []stamp, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(names)
	return statManifests(dir, names)
}

// stamp is what the snapshot key takes of a manifest.
type stamp struct {
	size, mtime int64
	ok          bool
}

// manifestsKey names a folder's snapshot by its manifests' paths, sizes
// and modification times: the snapshot holds only manifest facts ("" when
// one cannot be read: no snapshot then).
func manifestsKey(manifests []string, stamps []stamp) string {
	h := sha256.New()
	var line []byte // "path\x00size\x00mtime\n", as Fprintf wrote it at a third of the cost
	for i, m := range manifests {
		st := stamps[i]
		if !st.ok {
			return ""
		}
		line = append(append(line[:0], m...), 0)
		line = append(strconv.AppendInt(line, st.size, 10), 0)
		line = append(strconv.AppendInt(line, st.mtime, 10), '\n')
		h.Write(line)
	}
	return "folder-" + hex.EncodeToString(h.Sum(nil)[:16]) + snapshotExt
}

// folderState names the state of every JSON file (manifests and schemas)
// of the packs: what lint results computed against the folder depend on.
// "" when a file cannot be read.
func folderState(manifests []string) string {
	h := sha256.New()
	for _, m := range manifests {
		err := filepath.WalkDir(filepath.Dir(m), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s\x00%d\x00%d\n", path, info.Size(), info.ModTime().UnixNano())
			return nil
		})
		if err != nil {
			return ""
		}
	}
	return "folder-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// readManifests adds each manifest's pack. A manifest that is not valid
// JSON is someone else's broken pack: it must not stop the author linting
// theirs, so it is skipped with a warning at its line and column, and the
// catalog counts it as incomplete. One that cannot be read at all (too
// large, a FIFO, no permission) stays an error, as does a folder whose
// every manifest is broken: that is no catalog.
func (c *Catalog) readManifests(manifests []string) error {
	var first error
	for _, m := range manifests {
		raw, err := safefile.Read(m, safefile.Options{Max: tarball.DefaultLimits.MaxManifest})
		if err != nil {
			return err
		}
		p, nodes, err := parseManifest(raw, filepath.Dir(m))
		if err != nil {
			err = fmt.Errorf("%s:%w", m, atPosition(raw, err))
			first = cmp.Or(first, err)
			c.Skipped++
			c.Warnings = append(c.Warnings, fmt.Sprintf("%v; skipped: the catalog lacks this pack, so what it defines is unresolved", err))
			continue
		}
		c.add(p, nodes)
	}
	if c.Skipped == len(manifests) {
		return first
	}
	return nil
}

// atPosition puts the line and column of a manifest's JSON error before
// it ("3:7: msg"), as jsonpos finds them; an error without a position
// reads " msg" after the file name.
func atPosition(raw []byte, err error) error {
	var pe *jsonpos.Error
	if _, perr := jsonpos.Parse(raw); errors.As(perr, &pe) {
		pos := jsonpos.PositionOf(raw, pe.Offset)
		return fmt.Errorf("%d:%d: %s", pos.Line, pos.Column, pe.Msg)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Type != nil {
		// The decoder stops just past the value's first byte (an object
		// or array) or its last (a scalar): either is inside the value.
		pos := jsonpos.PositionOf(raw, int(typ.Offset)-1)
		want := map[reflect.Kind]string{reflect.Slice: "an array", reflect.Struct: "an object", reflect.String: "a string"}[typ.Type.Kind()]
		return fmt.Errorf("%d:%d: member %q: want %s, found %s", pos.Line, pos.Column, typ.Field, cmp.Or(want, typ.Type.String()), typ.Value)
	}
	return fmt.Errorf(" %w", err)
}

// listJSONFiles lists a pack's JSON files other than pack.json, as slash
// paths relative to the pack.
func listJSONFiles(p *Pack) []string {
	var out []string
	_ = filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return nil
		}
		rel, err := filepath.Rel(p.dir, path)
		if err == nil && rel != pack.ManifestName {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func readPackFile(p *Pack, ref string) ([]byte, error) {
	if p.dir == "" {
		return nil, os.ErrNotExist
	}
	// A folder of packs is someone else's files (a registry checkout): a
	// FIFO or device there must not hang or balloon lint.
	return safefile.Read(filepath.Join(p.dir, filepath.FromSlash(ref)), safefile.Options{Max: tarball.DefaultLimits.MaxEntry})
}

// compareVersions orders semver strings; unparsable ones sort first.
func compareVersions(a, b string) int {
	va, errA := semver.StrictNewVersion(a)
	vb, errB := semver.StrictNewVersion(b)
	switch {
	case errA != nil && errB != nil:
		return 0
	case errA != nil:
		return -1
	case errB != nil:
		return 1
	}
	return va.Compare(vb)
}
