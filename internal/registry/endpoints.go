package registry

import (
	"net/url"
	"strings"
)

// Endpoints are the URL templates wop uses, from the discovery document.
type Endpoints struct {
	VersionManifest string // {name}, {version}
	VersionTarball  string // also the PUT target on registries with a write API
	PackMetadata    string
	PublicKey       string // {keyId}
	V2              bool   // the v2 set was chosen: v2 integrity header
}

// defaultEndpoints are the v1 paths of FORMAT.md §5, for discovery
// documents that omit some.
var defaultEndpoints = Endpoints{
	VersionManifest: "/v1/packs/{name}/-/{version}.json",
	VersionTarball:  "/v1/packs/{name}/-/{version}.tgz",
	PackMetadata:    "/v1/packs/{name}/index.json",
	PublicKey:       "/keys/{keyId}.pub",
}

// Endpoints returns the templates to use: endpoints.v2 when it is complete
// (has versionManifest and versionTarball), else the v1 set with defaults.
func (d *Discovery) Endpoints() Endpoints {
	if v2, ok := d.RawEndpoints["v2"].(map[string]any); ok {
		e := fromMap(v2, Endpoints{})
		if e.VersionManifest != "" && e.VersionTarball != "" {
			e.V2 = true
			if e.PublicKey == "" {
				e.PublicKey = defaultEndpoints.PublicKey
			}
			return e
		}
	}
	return fromMap(d.RawEndpoints, defaultEndpoints)
}

func fromMap(m map[string]any, def Endpoints) Endpoints {
	get := func(k, fallback string) string {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
		return fallback
	}
	return Endpoints{
		VersionManifest: get("versionManifest", def.VersionManifest),
		VersionTarball:  get("versionTarball", def.VersionTarball),
		PackMetadata:    get("packMetadata", def.PackMetadata),
		PublicKey:       get("publicKey", def.PublicKey),
	}
}

// Expand substitutes {name}, {version} and {keyId}, each as one escaped
// path segment: a value can never add a path level or a query.
func Expand(tmpl string, vars map[string]string) string {
	for k, v := range vars {
		tmpl = strings.ReplaceAll(tmpl, "{"+k+"}", url.PathEscape(v))
	}
	return tmpl
}
