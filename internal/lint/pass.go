package lint

import (
	"fmt"
	"github.com/wop-cli/wop/internal/catalog"
	"regexp"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonedit"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
)

// Pass is what a rule sees: the pack, its parsed manifest and a way to report.
type Pass struct {
	Pack     *pack.Pack
	Manifest *jsonpos.Doc // nil when pack.json did not parse
	Schemas  *schema.Set
	Profile  Profile
	Catalog  *catalog.Catalog // nil unless --catalog
	// Place is where a directory pack sits on disk: all rules may know of
	// the file system beyond the pack's own files.
	Place Place
	// Spec is the tree this pack is judged by (v1 or v2, never auto).
	Spec spec.Tree

	rule     *Rule
	diags    *[]diag.Diagnostic
	patterns map[string][]*regexp.Regexp // configured per rule

	// Computed once per pass and shared by the rules: the rules ask the same
	// questions about the same files.
	json         map[string]*jsonFile // parsed JSON files
	executor     *executors           // the executors' analyses, each made once (see packFacts)
	files        map[string]fileRead  // file contents, within cacheBudget
	cached       int                  // bytes held in files
	scratch      []byte               // reused by lend for files past the budget
	refs         []pack.Ref
	refsDone     bool
	fileRefs     []pack.Ref // refs naming files (see fileRefs)
	fileRefsDone bool
	bundle       []pack.File
	bundleSet    bool
	jsonNames    []string
	chains       *chain.Analysis // see chains
}

type fileRead struct {
	data []byte
	err  error
}

// cacheBudget bounds the bytes of a directory's files the pass holds. Real
// packs fit whole; a pack near the registry's 50 MB ceiling would otherwise
// be held whole by the rules that read every file, so past the budget a
// file is read again when asked again (the page cache makes that cheap).
// An archive's files are in memory already (pack.Load holds them).
const cacheBudget = 8 << 20

// ReadFile returns a pack file's contents, read once per pass while the
// cache has room.
func (p *Pass) ReadFile(name string) ([]byte, error) {
	if f, ok := p.files[name]; ok {
		return f.data, f.err
	}
	data, err := p.Pack.ReadFile(name)
	if p.cached+len(data) <= cacheBudget {
		p.files[name] = fileRead{data, err}
		p.cached += len(data)
	}
	return data, err
}

// lend calls fn with a pack file's contents, which fn must not keep past
// its return. A file the cache holds, or has room for, comes through it; a
// file past the budget is read into one buffer the pass reuses, so the
// rules that look at every file of a large pack (encoding, placeholders,
// private keys) make no garbage per file: a 50 MB pack's reads were nearly
// all of its lint's allocations, and what let the heap grow to the limit.
func (p *Pass) lend(name string, fn func(data []byte)) error {
	if f, ok := p.files[name]; ok {
		if f.err == nil {
			fn(f.data)
		}
		return f.err
	}
	if file, ok := p.Pack.Lookup(name); ok && p.cached+int(file.Size) > cacheBudget && p.Pack.Archive == nil {
		data, err := p.Pack.ReadFileReusing(name, p.scratch)
		if err != nil {
			return err
		}
		p.scratch = data[:0]
		fn(data)
		return nil
	}
	data, err := p.ReadFile(name)
	if err == nil {
		fn(data)
	}
	return err
}

// Refs returns the manifest's file refs (nil when it did not parse).
func (p *Pass) Refs() []pack.Ref {
	if !p.refsDone && p.Root() != nil {
		p.refs, p.refsDone = pack.Refs(p.Root()), true
	}
	return p.refs
}

// Root is the manifest's top-level value (nil when it did not parse).
func (p *Pass) Root() *jsonpos.Value {
	if p.Manifest == nil {
		return nil
	}
	return p.Manifest.Root
}

// Reportf reports a finding at a JSON pointer into pack.json.
func (p *Pass) Reportf(ptr string, format string, args ...any) {
	p.ReportAt(pack.ManifestName, p.Manifest, ptr, false, fmt.Sprintf(format, args...))
}

// ReportNamef reports a finding at the member name a pointer ends in.
func (p *Pass) ReportNamef(ptr string, format string, args ...any) {
	p.ReportAt(pack.ManifestName, p.Manifest, ptr, true, fmt.Sprintf(format, args...))
}

// ReportFilef reports a finding about a whole file (no position).
func (p *Pass) ReportFilef(file string, format string, args ...any) {
	p.report(diag.Diagnostic{File: p.Pack.Path(file), Message: fmt.Sprintf(format, args...)})
}

// ReportOffset reports a finding at a byte offset of a file's contents.
func (p *Pass) ReportOffset(file string, src []byte, off int, msg string) {
	p.ReportPos(file, "", jsonpos.PositionOf(src, off), msg)
}

// ReportPos reports a finding at a known position of a file.
func (p *Pass) ReportPos(file, ptr string, pos jsonpos.Position, msg string) {
	p.report(diag.Diagnostic{File: p.Pack.Path(file), Pointer: ptr, Start: diag.Position(pos), Message: msg})
}

// ReportAt reports a finding at a pointer into any parsed JSON file.
func (p *Pass) ReportAt(file string, doc *jsonpos.Doc, ptr string, onName bool, msg string) {
	p.reportAt(diag.Off, file, doc, ptr, onName, msg)
}

func (p *Pass) reportAt(sev diag.Severity, file string, doc *jsonpos.Doc, ptr string, onName bool, msg string) {
	p.report(p.at(sev, file, doc, ptr, onName, msg))
}

func (p *Pass) at(sev diag.Severity, file string, doc *jsonpos.Doc, ptr string, onName bool, msg string) diag.Diagnostic {
	d := diag.Diagnostic{File: p.Pack.Path(file), Pointer: ptr, Message: msg, Severity: sev}
	if doc != nil {
		pos := doc.Locate(ptr)
		if onName {
			pos = doc.LocateName(ptr)
		}
		d.Start = diag.Position(pos)
	}
	return d
}

// Suggest reports, as ReportAt, a finding whose message says what the
// string at ptr (or, onName, the member name) was meant to be: the finding
// carries that replacement as its fix, which the editor offers as a quick
// fix and `wop pack lint --fix` applies when sure (see suggest.Only: the
// guess had no rival; and the rule's documentation says where a guess is
// never applied unasked).
func (p *Pass) Suggest(file string, doc *jsonpos.Doc, ptr string, onName bool, msg, meant string, sure bool) {
	d := p.at(diag.Off, file, doc, ptr, onName, msg)
	if f, ok := suggestion(doc, ptr, onName, meant); ok {
		d.Fix, d.Fixable = f, sure
	}
	p.report(d)
}

// suggestion is the fix replacing the string (or member name) at ptr in
// doc with meant.
func suggestion(doc *jsonpos.Doc, ptr string, onName bool, meant string) (diag.Fix, bool) {
	if doc == nil || meant == "" {
		return diag.Fix{}, false
	}
	if onName {
		toks, err := jsonedit.Tokens(ptr)
		if err != nil || len(toks) == 0 {
			return diag.Fix{}, false
		}
		f := diag.Fix{Old: toks[len(toks)-1], New: meant, Pointer: ptr, Key: true}
		return f, f.Old != meant && renamableIn(doc, f)
	}
	old, ok := stringAt(doc, ptr)
	if !ok {
		return diag.Fix{}, false
	}
	return setString(ptr, old, meant)
}

// At names where a pointer into pack.json is, as findings are placed
// ("pack.json:15:18"), for messages that point at a second place.
func (p *Pass) At(ptr string) string {
	name := p.Pack.Path(pack.ManifestName)
	if p.Manifest == nil {
		return name
	}
	pos := p.Manifest.Locate(ptr)
	return fmt.Sprintf("%s:%d:%d", name, pos.Line, pos.Column)
}

// ReportSeverity reports at a pointer into pack.json with a severity other
// than the rule's default, for rules whose weight depends on context (a
// catalog, the target registry).
func (p *Pass) ReportSeverity(sev diag.Severity, ptr string, format string, args ...any) {
	p.reportAt(sev, pack.ManifestName, p.Manifest, ptr, false, fmt.Sprintf(format, args...))
}

func (p *Pass) report(d diag.Diagnostic) {
	d.Rule = p.rule.ID
	if d.Severity == diag.Off {
		d.Severity = p.rule.Severity
	}
	*p.diags = append(*p.diags, d)
}

// jsonFile is a referenced JSON file, read and parsed once per pass.
type jsonFile struct {
	src []byte
	doc *jsonpos.Doc
	err error // read or parse error
}

// JSON returns a pack file parsed strictly; err is the read or parse error
// (the json-* and ref-* rules report those, other rules just skip the file).
func (p *Pass) JSON(name string) (*jsonpos.Doc, []byte, error) {
	if f, ok := p.json[name]; ok {
		return f.doc, f.src, f.err
	}
	f := &jsonFile{}
	f.src, f.err = p.ReadFile(name)
	if f.err == nil {
		f.doc, f.err = jsonpos.Parse(f.src)
	}
	p.json[name] = f
	return f.doc, f.src, f.err
}
