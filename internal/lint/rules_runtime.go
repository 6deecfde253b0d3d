package lint

import (
	"path"
	"strings"

	"github.com/wop-cli/wop/internal/pack"
)

// runtimeFormats are the formats each runtime language may declare.
var runtimeFormats = map[string][]string{
	"javascript":     {"esm", "cjs"},
	"python":         {"wheel"},
	"go":             {"binary", "shared-library"},
	"wasm":           {"wasm"},
	"wasm-component": {"wasm-component"},
}

func checkRuntimeEntryMissing(p *Pass) {
	for _, r := range p.Refs() {
		if r.Kind != pack.RefRuntime {
			continue
		}
		name := r.Path()
		if rule, msg := refSyntax(name); rule != "" {
			p.Reportf(r.Pointer, "runtime.entry: %s", msg)
			return
		}
		if t, _ := resolve(p, name); t != targetFile {
			p.Reportf(r.Pointer, "runtime.entry %q: not in the %s; build the runtime artifact into the pack (a build output path that is not shipped breaks every install)", r.Target, where(p))
			return
		}
		if p.Pack.Archive == nil && !isDefaultEntry(name) {
			p.Reportf(r.Pointer, "runtime.entry %q: the registry's builder bundles only index.mjs at the top level; name index.mjs or ask your registry to bundle this file", r.Target)
		}
	}
}

func isDefaultEntry(name string) bool { return name == "index.mjs" }

func checkRuntimeFormat(p *Pass) {
	rt := p.Root().Get("runtime")
	lang, format := rt.Get("language").String(), rt.Get("format").String()
	allowed, ok := runtimeFormats[lang]
	if !ok || format == "" {
		return
	}
	for _, f := range allowed {
		if f == format {
			return
		}
	}
	p.Reportf("/runtime/format", "format %q does not fit language %q; use %s", format, lang, strings.Join(allowed, " or "))
}

func checkRuntimeRemoteEntry(p *Pass) {
	rt := p.Root().Get("runtime")
	if rt.Get("language").String() != "remote" {
		return
	}
	if e := rt.Get("entry").String(); e != "pack.json" && path.Ext(e) != "" && !schemeRE.MatchString(e) {
		p.Reportf("/runtime/entry", "a remote runtime loads nothing from the archive; entry %q looks like a file: write \"pack.json\" or the service URL", e)
	}
}
