package lint

import (
	"fmt"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// checkRuntimeImports: a module the JavaScript executor imports by a
// relative path must be in the archive, or the executor fails to load on
// every host. The archive holds index.mjs and the files the manifest
// names (pack.InDefaultSet; the registry's builder and wop pack build
// alike), so a second module is left out even when it sits beside the
// entry. The imports are the parsed ones (jsfacts): static imports and
// export ... from, in the entry and the modules they lead to; a dynamic
// import() or require() is not read, so it claims nothing.
func checkRuntimeImports(p *Pass) {
	facts := packFacts(p)
	if !facts.Parsed() {
		return
	}
	inArchive := map[string]bool{}
	for _, f := range bundled(p) {
		inArchive[f.Name] = true
	}
	// Two imports of one module on one line make one finding: Run drops
	// exact duplicates (diag.Sort).
	for _, im := range facts.Imports() {
		if im.At.File == "" {
			continue
		}
		if msg := importProblem(p, im.Spec, im.File, inArchive); msg != "" {
			p.ReportPos(im.At.File, "", jsonpos.Position{Line: im.At.Line, Column: 1}, msg)
		}
	}
}

// importProblem says why the module an import names will not load from
// the archive ("" when it will).
func importProblem(p *Pass, spec, file string, inArchive map[string]bool) string {
	switch {
	case file == "":
		return fmt.Sprintf("import %q climbs out of the pack: the archive holds only the pack's own files, so the executor fails to load on every host; bundle that code into the entry (esbuild --bundle --format=esm)", spec)
	case inArchive[file]:
		return ""
	}
	switch t, _ := resolve(p, file); t {
	case targetFile:
	case targetNotFile:
		return fmt.Sprintf("import %q: %s is no regular file (a link, a folder, a FIFO or a device), which no archive holds, so the executor fails to load; put the module's code in the pack, or bundle it into the entry", spec, file)
	default:
		return fmt.Sprintf("import %q: %s is not in the %s, so the executor fails to load; add the module or fix the path", spec, file, where(p))
	}
	return fmt.Sprintf("import %q: %s is in the pack but not in the archive, which holds %s and the files the manifest names, so the executor fails to load on every host; bundle the modules into one entry file (esbuild --bundle --format=esm --outfile=%s)", spec, file, defaultSetWords(), runtimeEntry(p))
}

// defaultSetWords says in words what an archive holds besides refs.
func defaultSetWords() string {
	return "pack.json, README.md, LICENSE, index.mjs, schemas/*.json, prompts/*.md|.txt and keys/*.pem|.sig"
}
