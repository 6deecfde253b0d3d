package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	neturl "net/url"
	"path"
	"strings"

	"github.com/wop-cli/wop/internal/schema"
)

// localSchemaHost names schemas without an $id: a catalog-local URL of the
// same <pack>/<version>/<file> shape as registry $ids, so their relative
// $refs resolve the same way.
const localSchemaHost = "https://catalog.wop.invalid"

// SchemaURL returns the URL the schema at ref of a node type's defining
// pack is registered under (its $id, or a catalog-local URL when it has
// none), reading it on first use. ok is false when the catalog holds no
// readable schema there. Schemas it $refs are read when it is compiled.
func (c *Catalog) SchemaURL(n *NodeType, ref string) (url string, ok bool) {
	if ref == "" || c.fetchDoc == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := schemaKey{n.Pack, ref}
	if url, done := c.byRef[key]; done {
		return url, url != ""
	}
	if p := c.pack(n.Pack); p != nil {
		url, _ = c.register(p, ref)
	}
	c.byRef[key] = url
	return url, url != ""
}

func (c *Catalog) register(p *Pack, ref string) (string, error) {
	raw, err := c.fetchDoc(p, ref)
	if err != nil {
		return "", err
	}
	doc, err := decodeSchema(raw)
	if err != nil {
		return "", err
	}
	obj, _ := doc.(map[string]any)
	url, _ := obj["$id"].(string)
	if url == "" {
		url = fmt.Sprintf("%s/%s/%s/%s", localSchemaHost, p.Name, p.Version, ref)
	}
	// An error means the compiler already holds url (a $ref read it first)
	// or the document is no schema; either way compiling url tells.
	_ = c.schemas.Add(schema.Document{URL: url, Doc: doc})
	c.docs[url] = obj
	return url, nil
}

// Validate validates instance (decoded with UseNumber) against the schema
// registered as url. err is set when the schema does not compile: the
// defining pack's own lint reports that, so callers skip the check.
func (c *Catalog) Validate(url string, instance any) ([]schema.Problem, error) {
	if _, err := c.schemas.Compile(url); err != nil {
		return nil, fmt.Errorf("schema %s does not compile: %w", url, err)
	}
	return c.schemas.Validate(url, instance)
}

// Document returns the decoded schema document registered as url (nil
// when none is): the root its local $refs ("#/$defs/x") point into. The
// caller must not modify it.
func (c *Catalog) Document(url string) map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.docs[url]
}

// Properties returns the top-level properties a schema declares, the ones
// it requires, and whether it is closed (additionalProperties false).
// ok is false for a schema that does not describe an object's members.
func (c *Catalog) Properties(url string) (props map[string]any, required []string, closed, ok bool) {
	c.mu.Lock()
	obj := c.docs[url]
	c.mu.Unlock()
	if obj == nil {
		return nil, nil, false, false
	}
	props, ok = obj["properties"].(map[string]any)
	if req, isArr := obj["required"].([]any); isArr {
		for _, r := range req {
			if s, isStr := r.(string); isStr {
				required = append(required, s)
			}
		}
	}
	ap, set := obj["additionalProperties"].(bool)
	closed = set && !ap
	return props, required, closed, ok || len(required) > 0
}

// loadRef reads a $ref'd schema not registered yet. Its URL's path is
// /<pack>/<version>/<file>, as pack schema $ids are: the file is read from
// that pack, by its path or, for a folder of packs, by its base name. It
// runs while the schema set compiles, so it takes no catalog lock but
// refMu.
func (c *Catalog) loadRef(url string) (any, error) {
	u, err := neturl.Parse(url)
	if err != nil {
		return nil, err
	}
	parts := strings.SplitN(strings.Trim(u.Path, "/"), "/", 3)
	if len(parts) != 3 || c.fetchDoc == nil {
		return nil, fmt.Errorf("$ref %s: not a pack schema the catalog holds", url)
	}
	p := c.pack(parts[0])
	if p == nil || p.Version != parts[1] {
		return nil, fmt.Errorf("$ref %s: the catalog holds no %s@%s", url, parts[0], parts[1])
	}
	raw, err := c.fetchDoc(p, parts[2])
	if err != nil && p.dir != "" && c.listDocs != nil {
		raw, err = c.fetchDoc(p, c.findByBase(p, path.Base(parts[2])))
	}
	if err != nil {
		return nil, fmt.Errorf("$ref %s: %w", url, err)
	}
	return decodeSchema(raw)
}

// findByBase returns the pack file whose base name is base ("" if none).
func (c *Catalog) findByBase(p *Pack, base string) string {
	c.refMu.Lock()
	defer c.refMu.Unlock()
	files, ok := c.files[p.Name]
	if !ok {
		files = c.listDocs(p)
		c.files[p.Name] = files
	}
	for _, f := range files {
		if path.Base(f) == base {
			return f
		}
	}
	return ""
}

func decodeSchema(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	err := dec.Decode(&doc)
	return doc, err
}
