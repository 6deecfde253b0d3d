package spec

import (
	"encoding/json"
	"slices"
	"strings"
)

// Base is the URL prefix of the OpenWOP v2 schemas' $ids.
const Base = "https://openwop.dev/spec/v2/"

const v1Base = "https://openwop.dev/spec/v1/"

// The apiHosts pattern as published, and the same language in RE2 syntax.
const (
	lookaheadHost = `^(?!-)[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*\.[a-z][a-z0-9-]*$`
	re2Host       = `^[a-z0-9][a-z0-9-]{0,62}(\.[a-z0-9-]{1,63})*\.[a-z][a-z0-9-]*$`
)

// Correct applies, in place, the corrections wop makes to a stale embedded
// copy of a v2 schema (decoded as by jsonschema.UnmarshalJSON) before it is
// compiled. Where a copy contradicts its own comments or the spec prose,
// the prose wins:
//
//   - The workflow-chain, prompt, chat-card and form-content copies (from
//     openwop/openwop-sdks; the registry pins no newer ones) still carry the
//     v1 signing block {method, publicKeyRef, signatureRef}. RFC 0177 §C.3/§C.4
//     deletes it: every v2 manifest's signing block is the closed
//     {keyId, scheme: "ed25519-canonical-json"} the registry's pinned node,
//     connection and artifact-type schemas carry. Replaced by that block.
//   - The workflow-chain copy closes FragmentNode.config with
//     additionalProperties: false although its $comment says "Open by design
//     — node config shapes are per-typeId" and only forbids workflowId; closed,
//     it rejects nearly every real chain. Reopened; the workflowId guard stays.
//   - The connection schemas (v1 and v2) write provider.apiHosts[] with an
//     ECMAScript lookahead, "^(?!-)[a-z0-9-]{1,63}...", which Go's RE2 cannot
//     compile. Rewritten to the equivalent "^[a-z0-9][a-z0-9-]{0,62}...".
//   - The v1 connection schema is closed but has no signing property,
//     although every built v1 pack carries the v1 signing block (FORMAT.md
//     §3; every other v1 kind schema and the v1 version manifest declare
//     it): it refused every signed connection archive, the registry's and
//     wop's own. Given the v1 node schema's Signing block.
//   - The registry-pinned node schema (openwop-registry@c725049) predates
//     RFC 0203, so it refuses runtime.mcpServer, which the spec's own copy
//     (openwop/openwop@11ad780 schemas/v2/node-pack-manifest.schema.json) and
//     node-pack-runtimes.md admit on a remote pack. Runtime gets that copy's
//     mcpServer property, its "only on a remote runtime" rule and its
//     McpServerRecord definition (mcpServerOverlay, verbatim).
//   - The workflow-chain copy's FragmentNode.typeId pattern admits no "@",
//     but workflow-chain-packs.md §Exact pins (RFC 0177 §E.1) requires every
//     node reference to be pinned, "core.ai.callPrompt@1.0.0". The pattern
//     gets an optional "@<version>" suffix; whether the version is an exact
//     one is the lint rule v2-chain-pin's to say, with a fix.
//   - The frontend-plugin copy (openwop/openwop@11ad780, RFC 0117) is closed
//     and declares no signing property, although RFC 0117 calls the pack
//     SIGNED and FORMAT.md §3 puts the signing block in every built
//     manifest: it refused every signed frontend-plugin archive. Given the
//     v2 signing block the other v2 kinds carry.
//   - The registry-version-manifest copy (openwop-sdks@0bfac07) predates
//     frontend-plugin packs: its kind enum lacks "frontend-plugin", it
//     requires runtime of every kind it does not list as declarative (a
//     frontend-plugin pack must not carry one) and it is closed without
//     uiPlugins. So the served manifest of every frontend-plugin pack failed
//     it. The kind joins both enums, and uiPlugins is carried loosely, as the
//     copy carries cards[] and templates[] (the source schema is
//     authoritative).
//
// Other documents are left alone.
func Correct(id string, doc any) {
	m, ok := doc.(map[string]any)
	if !ok {
		return
	}
	switch id {
	case Base + "connection-pack-manifest.schema.json", v1Base + "connection-pack-manifest.schema.json":
		if items := dig(m, "properties", "provider", "properties", "apiHosts", "items"); items != nil && items["pattern"] == lookaheadHost {
			items["pattern"] = re2Host
		}
		if id == v1Base+"connection-pack-manifest.schema.json" {
			addV1Signing(m)
		}
	case Base + "workflow-chain-pack-manifest.schema.json":
		replaceSigning(m)
		if cfg := dig(m, "$defs", "FragmentNode", "properties", "config"); cfg != nil {
			delete(cfg, "additionalProperties")
		}
		if tid := dig(m, "$defs", "FragmentNode", "properties", "typeId"); tid != nil && tid["pattern"] == unpinnedTypeID {
			tid["pattern"] = pinnableTypeID
		}
	case Base + "node-pack-manifest.schema.json":
		addMCPServer(m)
	case Base + "prompt-pack-manifest.schema.json", Base + "chat-card-pack-manifest.schema.json", Base + "form-content-pack-manifest.schema.json":
		replaceSigning(m)
	case Base + "registry-version-manifest.schema.json":
		admitFrontendPlugin(m)
	case Base + "frontend-plugin-manifest.schema.json":
		if props := dig(m, "properties"); props != nil && props["signing"] == nil {
			props["signing"] = v2Signing()
		}
	}
}

// The chain copy's FragmentNode.typeId pattern, and the same with an
// optional "@<version>" pin (judged by lint, not by the pattern).
const (
	unpinnedTypeID = `^[a-z][a-zA-Z0-9._-]*$`
	pinnableTypeID = `^[a-z][a-zA-Z0-9._-]*(@[^@\s]+)?$`
)

// mcpServerOverlay is, verbatim, what openwop/openwop@11ad780's
// schemas/v2/node-pack-manifest.schema.json has and the registry-pinned copy
// lacks: $defs.Runtime's mcpServer property and if/else, and
// $defs.McpServerRecord.
const mcpServerOverlay = `{
  "mcpServer": {
    "$ref": "#/$defs/McpServerRecord",
    "description": "RFC 0203. Inline subset of the MCP Registry server.json (2025-12-11) naming the MCP server a ` + "`remote`" + ` pack runs on. By value: the host resolves nothing from a registry. ` + "`entry` MUST equal `remotes[0].url`" + ` (node-pack-runtimes.md)."
  },
  "if": {"properties": {"language": {"const": "remote"}}},
  "else": {"not": {"required": ["mcpServer"]}},
  "McpServerRecord": {
    "type": "object",
    "additionalProperties": false,
    "required": ["name", "description", "version", "remotes"],
    "properties": {
      "$schema": {"const": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"},
      "name": {"type": "string", "minLength": 3, "maxLength": 200, "pattern": "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"},
      "description": {"type": "string", "minLength": 1, "maxLength": 100},
      "version": {"type": "string", "maxLength": 255, "pattern": "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$"},
      "title": {"type": "string", "minLength": 1, "maxLength": 100},
      "websiteUrl": {"type": "string", "format": "uri", "pattern": "^https://"},
      "repository": {
        "type": "object",
        "additionalProperties": false,
        "required": ["url", "source"],
        "properties": {"url": {"type": "string", "format": "uri"}, "source": {"type": "string"}, "id": {"type": "string"}, "subfolder": {"type": "string"}}
      },
      "remotes": {
        "type": "array",
        "minItems": 1,
        "maxItems": 1,
        "items": {
          "type": "object",
          "additionalProperties": false,
          "required": ["type", "url"],
          "properties": {"type": {"const": "streamable-http"}, "url": {"type": "string", "pattern": "^https://[^\\s{}]+$"}}
        }
      }
    }
  }
}`

// addMCPServer gives the node schema's Runtime the mcpServer of
// mcpServerOverlay, unless the copy already has it.
func addMCPServer(m map[string]any) {
	rt := dig(m, "$defs", "Runtime")
	props := dig(rt, "properties")
	if props == nil || props["mcpServer"] != nil {
		return
	}
	var o map[string]any
	dec := json.NewDecoder(strings.NewReader(mcpServerOverlay))
	dec.UseNumber() // as jsonschema.UnmarshalJSON decodes numbers
	if err := dec.Decode(&o); err != nil {
		panic("spec: mcpServerOverlay is not JSON: " + err.Error()) // a constant: TestCorrect decodes it
	}
	props["mcpServer"] = o["mcpServer"]
	rt["if"], rt["else"] = o["if"], o["else"]
	dig(m, "$defs")["McpServerRecord"] = o["McpServerRecord"]
}

// frontendPlugin is the kind the registry-version-manifest copy predates.
const frontendPlugin = "frontend-plugin"

// admitFrontendPlugin lets the registry-version-manifest copy carry a
// frontend-plugin pack's served manifest: the kind, no runtime, uiPlugins.
func admitFrontendPlugin(m map[string]any) {
	props := dig(m, "properties")
	if props == nil || props["uiPlugins"] != nil {
		return
	}
	if kind := dig(props, "kind"); kind != nil {
		kind["enum"] = appendEnum(kind["enum"], frontendPlugin)
	}
	if all, ok := m["allOf"].([]any); ok {
		for _, a := range all {
			if ifKind := dig(asMap(a), "if", "properties", "kind"); ifKind != nil {
				ifKind["enum"] = appendEnum(ifKind["enum"], frontendPlugin)
			}
		}
	}
	props["uiPlugins"] = map[string]any{
		"type":  "array",
		"items": map[string]any{"type": "object", "additionalProperties": true},
	}
}

// appendEnum adds v to an enum list unless it is there or the list is not one.
func appendEnum(enum any, v string) any {
	list, ok := enum.([]any)
	if !ok || slices.Contains(list, any(v)) {
		return enum
	}
	return append(list, v)
}

// asMap is v as an object, or nil.
func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// replaceSigning points the root's signing property at a v2 signing block.
func replaceSigning(m map[string]any) {
	props := dig(m, "properties")
	if props == nil {
		return
	}
	props["signing"] = v2Signing()
}

// v2Signing is the signing block of the registry-pinned v2 schemas.
func v2Signing() map[string]any {
	return map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"keyId", "scheme"},
		"properties": map[string]any{
			"keyId":  map[string]any{"$ref": "ids.schema.json#/$defs/keyId"},
			"scheme": map[string]any{"const": "ed25519-canonical-json"},
		},
	}
}

// addV1Signing declares the v1 signing block on a v1 schema that lacks it.
func addV1Signing(m map[string]any) {
	if props := dig(m, "properties"); props != nil && props["signing"] == nil {
		props["signing"] = map[string]any{"$ref": "node-pack-manifest.schema.json#/$defs/Signing"}
	}
}

// dig walks nested objects by key, returning nil when one is missing.
func dig(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	return m
}
