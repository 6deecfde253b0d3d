package lint

import (
	"fmt"
	"path"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"

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
	if !carriesRuntime(p) {
		return
	}
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
		}
	}
}

// registryBuilder names the public registry's builder, whose file set
// (FORMAT.md §2) is narrower than what a manifest may name.
const registryBuilder = "the public registry's builder (openwop-registry scripts/build-pack-tarball.mjs)"

// checkRegistryBuilderOmits: a runtime artifact other than index.mjs, or a
// frontend plugin's entry bundle, is what the manifest names and what wop
// pack build bundles, so the pack is sound; only a registry that rebuilds
// the pack from source with the public registry's builder drops the file.
// Said as that, once per file, not as a defect of the pack: an info, or a
// warning when .wop.yaml names the public registry as the target.
func checkRegistryBuilderOmits(p *Pass) {
	if p.Pack.Archive != nil {
		return // an archive holds what was built
	}
	seen := map[string]bool{}
	for _, r := range p.Refs() {
		name := r.Path()
		if r.Kind != pack.RefRuntime && r.Kind != pack.RefUIPlugin || seen[name] || pack.InDefaultSet(name) {
			continue
		}
		seen[name] = true
		if rule, _ := refSyntax(name); rule != "" {
			continue
		}
		if t, _ := resolve(p, name); t != targetFile {
			continue
		}
		const msg = "%s %q: wop pack build bundles it, but %s bundles only index.mjs at the top level and prompts/, schemas/ and keys/ one level deep; %s"
		if p.Profile.Public {
			// The target is the registry whose builder this is: worth a warning.
			p.ReportSeverity(diag.Warning, r.Pointer, msg, r.Field, r.Target, registryBuilder, "the target registry in .wop.yaml is the public one, where a rebuild from the source would lose the file: publish the archive wop builds, or build to index.mjs")
			continue
		}
		p.Reportf(r.Pointer, msg, r.Field, r.Target, registryBuilder, "publish the archive wop builds, or have a registry that builds from source bundle this file")
	}
}

// wasmMagic starts every WebAssembly binary, core module or component
// (WebAssembly core spec §5.5.16; the component model keeps the magic).
const wasmMagic = "\x00asm"

// checkRuntimeWASMMagic: a wasm or wasm-component runtime's entry must be a
// WebAssembly binary; a host refuses anything else at load (a text-format
// .wat, a JavaScript glue file, a Git LFS pointer).
func checkRuntimeWASMMagic(p *Pass) {
	rt := p.Root().Get("runtime")
	lang := rt.Get("language").String()
	if lang != "wasm" && lang != "wasm-component" {
		return
	}
	for _, r := range p.Refs() {
		if r.Kind != pack.RefRuntime {
			continue
		}
		name := r.Path()
		if rule, _ := refSyntax(name); rule != "" {
			return
		}
		if t, _ := resolve(p, name); t != targetFile {
			return // runtime-entry-missing
		}
		head, err := p.ReadFile(name)
		if err != nil {
			return
		}
		if !strings.HasPrefix(string(head[:min(len(head), 4)]), wasmMagic) {
			p.Reportf(r.Pointer, "runtime.entry %q is not a WebAssembly binary (it starts with %s, not the magic \\0asm); a %s runtime loads the compiled .wasm: compile it (e.g. wat2wasm for .wat text) and name that file", r.Target, describeHead(head), lang)
		}
	}
}

// describeHead shows a file's first bytes for a message: as text when
// they are printable, else as hex.
func describeHead(b []byte) string {
	b = b[:min(len(b), 4)]
	if len(b) == 0 {
		return "nothing: the file is empty"
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return fmt.Sprintf("bytes % x", b)
		}
	}
	return fmt.Sprintf("%q", b)
}

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
	if e := rt.Get("entry").String(); e != "pack.json" && path.Ext(e) != "" && !schemeRE().MatchString(e) {
		p.Reportf("/runtime/entry", "a remote runtime loads nothing from the archive; entry %q looks like a file: write \"pack.json\" or the service URL", e)
	}
}

// checkMCPEntry: node-pack-runtimes.md (RFC 0203) makes a remote pack's
// runtime.entry equal to the URL of the MCP server it names, so a host
// reaches the server the signed record describes.
func checkMCPEntry(p *Pass) {
	rt := p.Root().Get("runtime")
	remotes := rt.Get("mcpServer").Get("remotes")
	if remotes == nil || remotes.Kind != jsonpos.Array || len(remotes.Items) == 0 {
		return
	}
	url := remotes.Items[0].Get("url")
	if url == nil || url.Kind != jsonpos.String {
		return // manifest-schema
	}
	if e := rt.Get("entry"); e.String() != url.Str {
		p.Reportf("/runtime/entry", "runtime.entry %q is not the MCP server's URL, runtime.mcpServer.remotes[0].url %q; they must be equal (node-pack-runtimes.md): write %q", e.String(), url.Str, url.Str)
	}
}

func checkRuntimeEntryExports(p *Pass) {
	rt := p.Root().Get("runtime")
	if rt.Get("language").String() != "javascript" || p.Root().Get("nodes") == nil {
		return
	}
	entry := rt.Get("entry").String()
	name := path.Clean(entry) // "./index.mjs" is common; ref-not-canonical says so
	if t, _ := resolve(p, name); t != targetFile {
		return // runtime-entry-missing says it
	}
	// The exports as the parser reads them (export lists, CommonJS
	// assignments); an entry it refuses (or past its bounds) gets no claim.
	facts := packFacts(p)
	if !facts.Parsed() || facts.Exports("nodes") {
		return
	}
	how := "no binding named nodes"
	if facts.HasDefault() {
		how = "its node map only as the default export"
	}
	p.Reportf("/runtime/entry", "runtime.entry %q exports %s; loaders that read the named nodes export register no node from this pack: add `export const nodes = { ... }` (keep the default export for hosts that read it)", entry, how)
}
