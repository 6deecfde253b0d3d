package assist

import (
	"path/filepath"
	"strconv"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
)

// manifest is a pack.json buffer read tolerantly, with the schema its kind
// and spec tree select.
type manifest struct {
	doc      Doc
	root     *jsonpos.Loose
	tree     spec.Tree
	schemaID string // "" for a kind OpenWOP does not define
	dir      string // the pack's folder
}

func newManifest(doc Doc) *manifest {
	m := &manifest{doc: doc, root: jsonpos.ParseLoose(doc.Text), tree: spec.V1, dir: filepath.Dir(doc.Path)}
	if r := m.root.Get("engines").Get("openwop").Text(); spec.AdmitsV2(r) {
		m.tree = spec.V2
	}
	m.schemaID, _ = schema.ForKind(m.tree, m.root.Get("kind").Text())
	return m
}

// packDir is the folder a manifest's refs are relative to.
func (m *manifest) packDir(env Env) string {
	if env.PackDir != "" {
		return env.PackDir
	}
	return m.dir
}

// locate finds what is at off.
func (m *manifest) locate(off int) jsonpos.Cursor {
	return jsonpos.Locate(m.doc.Text, m.root, off)
}

// subs returns the spec schema's subschemas for the value at path.
func (m *manifest) subs(path []string) []schema.Sub {
	set, err := schema.Default()
	if err != nil || m.schemaID == "" {
		return nil
	}
	return set.At(m.schemaID, path)
}

// fileRefFields are the manifest members whose value is a pack-relative
// file (FORMAT.md §1, and the signing files), with the extension the file
// has ("" for any).
var fileRefFields = map[string]string{
	"systemPromptRef":     "",
	"evalSuiteRef":        ".json",
	"configSchemaRef":     ".json",
	"inputSchemaRef":      ".json",
	"outputSchemaRef":     ".json",
	"taskSchemaRef":       ".json",
	"returnSchemaRef":     ".json",
	"envelopeContractRef": ".json",
	"schemaRef":           ".json",
	"publicKeyRef":        "",
	"signatureRef":        "",
}

// fileRef reports whether the value at path names a pack file, and the
// extension such files have.
func fileRef(path []string) (ext string, ok bool) {
	if len(path) == 2 && path[0] == "runtime" && path[1] == "entry" {
		return "", true
	}
	if len(path) == 0 {
		return "", false
	}
	ext, ok = fileRefFields[path[len(path)-1]]
	return ext, ok
}

// isChainTypeID reports whether path is a DAG node's typeId
// (…/dag/nodes/<i>/typeId), which names a node type some pack defines.
func isChainTypeID(path []string) bool {
	n := len(path)
	return n >= 4 && path[n-1] == "typeId" && isIndex(path[n-2]) && path[n-3] == "nodes" && path[n-4] == "dag"
}

// isNodeRole reports whether path is a node's role (/nodes/<i>/role),
// which the schema leaves open and lint holds to a list.
func isNodeRole(path []string) bool {
	return len(path) == 3 && path[0] == "nodes" && isIndex(path[1]) && path[2] == "role"
}

// isDependency reports whether path is a member of dependencies (its name
// is a pack name, its value a version range).
func isDependency(path []string) bool {
	return len(path) == 2 && path[0] == "dependencies"
}

// isNodeDecl reports whether path is a node's own typeId (/nodes/<i>/typeId).
func isNodeDecl(path []string) bool {
	return len(path) == 3 && path[0] == "nodes" && isIndex(path[1]) && path[2] == "typeId"
}

// isTool reports whether path is an item of an agent's toolAllowlist.
func isTool(path []string) bool {
	n := len(path)
	return n >= 2 && isIndex(path[n-1]) && path[n-2] == "toolAllowlist"
}

// isAgentDecl reports whether path is an agent's own agentId
// (/agents/<i>/agentId); an agentId member elsewhere names an agent.
func isAgentDecl(path []string) bool {
	return len(path) == 3 && path[0] == "agents" && isIndex(path[1]) && path[2] == "agentId"
}

func isAgentRef(path []string) bool {
	return len(path) > 0 && path[len(path)-1] == "agentId" && !isAgentDecl(path)
}

func isIndex(tok string) bool {
	_, err := strconv.Atoi(tok)
	return err == nil
}

// walkLoose calls fn for every string value of v with its path.
func walkLoose(v *jsonpos.Loose, path []string, fn func(path []string, s *jsonpos.Loose)) {
	if v == nil || len(path) > jsonpos.MaxDepth {
		return
	}
	switch v.Kind {
	case jsonpos.String:
		fn(path, v)
	case jsonpos.Object:
		for _, m := range v.Members {
			walkLoose(m.Value, append(path[:len(path):len(path)], m.Name.Str), fn)
		}
	case jsonpos.Array:
		for i, it := range v.Items {
			walkLoose(it, append(path[:len(path):len(path)], strconv.Itoa(i)), fn)
		}
	}
}
