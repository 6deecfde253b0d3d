package breaking

import (
	"strconv"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// entity is one keyed item of a manifest array (a node, agent, chain or
// template) with the pointer to it.
type entity struct {
	ptr string
	v   *jsonpos.Value
}

// byKey indexes the objects of root[field] by their key member; the first
// of duplicates wins (lint reports duplicates).
func byKey(root *jsonpos.Value, field, key string) (map[string]entity, []string) {
	out := map[string]entity{}
	var order []string
	arr := root.Get(field)
	if arr == nil || arr.Kind != jsonpos.Array {
		return out, nil
	}
	for i, it := range arr.Items {
		id := it.Get(key).String()
		if it.Kind != jsonpos.Object || id == "" {
			continue
		}
		if _, dup := out[id]; !dup {
			out[id] = entity{ptr: "/" + field + "/" + strconv.Itoa(i), v: it}
			order = append(order, id)
		}
	}
	return out, order
}

// matched calls fn for each id present in both releases, reports ids
// removed, and notes additions.
func (c *comparison) matched(field, key, removedRule, what string, fn func(id string, o, n entity)) {
	olds, oldOrder := byKey(c.old.manifest.Root, field, key)
	news, newOrder := byKey(c.new.manifest.Root, field, key)
	for _, id := range oldOrder {
		n, ok := news[id]
		if !ok {
			c.add(removedRule, "/"+field, olds[id].ptr, "%s %q was removed (it was at %s in %s): consumers that use it break", what, id, olds[id].ptr, c.old.version)
			continue
		}
		fn(id, olds[id], n)
	}
	for _, id := range newOrder {
		if _, ok := olds[id]; !ok {
			c.additions = true
		}
	}
}

func (c *comparison) compareManifest() {
	o, n := c.old.manifest.Root, c.new.manifest.Root
	if ok, nk := kindOf(o), kindOf(n); ok != nk {
		c.add("kind-changed", "/kind", "/kind", "kind changed from %q to %q: hosts install and run the two differently", ok, nk)
	}
	c.compareEngines()
	c.comparePeerDeps()
	c.compareRuntime()
	c.matched("nodes", "typeId", "node-removed", "node typeId", c.compareNode)
	c.matched("agents", "agentId", "agent-removed", "agent", c.compareAgent)
	c.matched("chains", "chainId", "chain-removed", "chain", c.compareChain)
	c.matched("templates", "templateId", "template-removed", "template", c.compareTemplate)
	c.matched("prompts", "templateId", "template-removed", "prompt template", c.compareTemplate)
	c.compareChainProviders()
}

func kindOf(root *jsonpos.Value) string {
	if k := root.Get("kind").String(); k != "" {
		return k
	}
	return "node" // FORMAT: an absent kind means node
}

// same reports whether two values are equal as JSON values.
func same(a, b *jsonpos.Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	return equalValues(a.Interface(), b.Interface())
}
