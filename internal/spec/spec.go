// Package spec holds the OpenWOP v2 specification files wop embeds (the v2
// pack-manifest schema family, frontend-plugin packs included, the agent
// eval-suite schema, the registry-version-manifest schema, the id grammar,
// the peer-dependency declaration and its alias table, the error registry)
// and the published v1 connection-pack schema, each pinned to the
// repository, path and commit it was copied from (PROVENANCE.json). It also
// decides which spec tree a manifest belongs to, exactly as the registry does.
//
// The schemas are compiled by internal/schema, the one schema loader; this
// package only supplies the bytes and the corrections the spec prose makes
// to stale copies (overlay.go).
package spec

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

//go:embed PROVENANCE.json schemas declaration errors
var files embed.FS

// Version is the v2 spec version the embedded files are pinned to.
const Version = "2.0"

// schemaDirs maps each embedded schema directory to the $id base of its
// files: a schema's $id is its directory's base plus its file name.
var schemaDirs = map[string]string{"schemas/v1": v1Base, "schemas/v2": Base}

// SchemaIDs lists the $id of every embedded schema, from the file names.
func SchemaIDs() []string {
	var ids []string
	for dir, base := range schemaDirs {
		entries, _ := files.ReadDir(dir)
		for _, e := range entries {
			if path.Ext(e.Name()) == ".json" {
				ids = append(ids, base+e.Name())
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// Schema returns the embedded schema whose $id is id, as published (apply
// Correct after decoding it); ok is false when none is embedded.
func Schema(id string) (raw []byte, ok bool) {
	for dir, base := range schemaDirs {
		name, found := strings.CutPrefix(id, base)
		if !found || strings.Contains(name, "/") {
			continue
		}
		if raw, err := files.ReadFile(dir + "/" + name); err == nil {
			return raw, true
		}
	}
	return nil, false
}

// Source records where one embedded file was copied from.
type Source struct {
	File       string `json:"file"`       // path inside this package
	Repository string `json:"repository"` // owner/name on GitHub
	Path       string `json:"path"`       // path inside that repository
	Commit     string `json:"commit"`
	SHA256     string `json:"sha256"` // of the embedded bytes
	Note       string `json:"note,omitempty"`
}

// Provenance lists every embedded file and where it came from.
func Provenance() ([]Source, error) {
	raw, err := files.ReadFile("PROVENANCE.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Files []Source `json:"files"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("embedded PROVENANCE.json: %w", err)
	}
	return doc.Files, nil
}

// readFile returns one embedded file (a path as in Source.File).
func readFile(name string) ([]byte, error) { return files.ReadFile(name) }

// Versions is the spec version each generation's embedded files are pinned
// to, for reports: the v2 files to Version. The v1 schemas
// (internal/schema) were copied without a spec version, so v1 has none.
func Versions() map[string]string { return map[string]string{"v2": Version} }

// VersionTemplate is cobra's template for `wop --version`: wop's version,
// the spec versions the embedded files are pinned to, and the commits they
// were copied from (Pins).
func VersionTemplate() string {
	pins, err := Pins()
	if err != nil { // cannot happen in a tested build: TestProvenance reads the same file
		pins = err.Error()
	}
	return "wop {{.Version}}\nspec: OpenWOP v1, and v2 pinned at " + Version + "\nspec sources: " + pins + "\n"
}

// Pins summarises PROVENANCE.json for `wop --version`: each source
// repository with the short commits its files were copied from, sorted:
// "openwop/openwop@280544d,9cd7a5b openwop/openwop-registry@...".
func Pins() (string, error) {
	rows, err := Provenance()
	if err != nil {
		return "", err
	}
	commits := map[string][]string{}
	for _, r := range rows {
		short := r.Commit[:min(7, len(r.Commit))]
		if !slices.Contains(commits[r.Repository], short) {
			commits[r.Repository] = append(commits[r.Repository], short)
		}
	}
	repos := slices.Sorted(maps.Keys(commits))
	for i, repo := range repos {
		slices.Sort(commits[repo])
		repos[i] = repo + "@" + strings.Join(commits[repo], ",")
	}
	return strings.Join(repos, " "), nil
}
