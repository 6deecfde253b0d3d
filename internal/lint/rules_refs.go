package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/suggest"
)

var (
	schemeRE = regex.Lazy(`^[a-zA-Z][a-zA-Z0-9+.-]+:`)
	driveRE  = regex.Lazy(`^[a-zA-Z]:[\\/]`)
)

// refSyntax returns the rule a ref's spelling breaks, with a message, or "".
// Checks run most specific first so one bad ref gives one finding.
func refSyntax(target string) (rule, msg string) {
	switch {
	case strings.TrimSpace(target) == "":
		return "ref-empty", "file ref is empty; name a file relative to the pack root, e.g. prompts/agent.md"
	case hasDrive(target) || strings.HasPrefix(target, "/") || strings.HasPrefix(target, `\`):
		return "ref-absolute", fmt.Sprintf("%q is an absolute path; write it relative to the pack root", target)
	case hasScheme(target):
		return "ref-remote", fmt.Sprintf("%q is a URL; a file ref names a file inside the pack, relative to its root", target)
	}
	for _, seg := range strings.FieldsFunc(target, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return "ref-escapes-pack", fmt.Sprintf("%q climbs out of the pack with \"..\"; move the file into the pack", target)
		}
	}
	if canon := canonicalRef(target); canon != target {
		return "ref-not-canonical", fmt.Sprintf("%q is not a canonical path (refs are compared byte for byte with archive names); write %q", target, canon)
	}
	return "", ""
}

// hasDrive and hasScheme run their regexps only on a target with a colon
// where they need one: most refs have none, and each ref is checked once per
// ref-syntax rule.
func hasDrive(target string) bool {
	return len(target) > 1 && target[1] == ':' && driveRE().MatchString(target)
}

func hasScheme(target string) bool {
	return strings.Contains(target, ":") && schemeRE().MatchString(target)
}

func canonicalRef(target string) string {
	t := strings.ReplaceAll(target, `\`, "/")
	if i := strings.IndexAny(t, "#?"); i >= 0 {
		t = t[:i]
	}
	return strings.TrimPrefix(path.Clean(t), "./")
}

// fileRefs are the refs that name files checked by the ref-* rules;
// runtime.entry has rules of its own. The list is made once per pass: a
// dozen rules ask for it, and a copy each was 6% of linting's allocation.
func fileRefs(p *Pass) []pack.Ref {
	if p.fileRefsDone {
		return p.fileRefs
	}
	for _, r := range p.Refs() {
		if r.Kind != pack.RefRuntime {
			p.fileRefs = append(p.fileRefs, r)
		}
	}
	p.fileRefsDone = true
	return p.fileRefs
}

func refSyntaxRule(id string) func(*Pass) {
	return func(p *Pass) {
		for _, r := range fileRefs(p) {
			if rule, msg := refSyntax(r.Target); rule == id {
				p.Reportf(r.Pointer, "%s: %s", r.Field, msg)
			}
		}
	}
}

// refTarget says what a syntactically clean ref finds in the pack.
type refTarget int

const (
	targetFile refTarget = iota
	targetMissing
	targetCase
	targetNotFile
	targetUnreadable
)

func resolve(p *Pass, target string) (refTarget, string) {
	if f, ok := p.Pack.Lookup(target); ok {
		if !f.Mode.IsRegular() {
			return targetNotFile, ""
		}
		if err := readable(p, target); err != nil {
			return targetUnreadable, err.Error()
		}
		return targetFile, ""
	}
	for _, f := range p.Pack.Files {
		if strings.EqualFold(f.Name, target) {
			return targetCase, f.Name
		}
		if strings.HasPrefix(f.Name, target+"/") {
			return targetNotFile, ""
		}
	}
	// A folder on its path that is a link (prompts -> /etc) is never
	// followed: missing, and the link is why.
	for dir := path.Dir(target); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if f, ok := p.Pack.Lookup(dir); ok && f.Mode&fs.ModeSymlink != 0 {
			return targetMissing, dir
		}
	}
	return targetMissing, ""
}

func checkRefResolution(want refTarget) func(*Pass) {
	return func(p *Pass) {
		for _, r := range fileRefs(p) {
			if rule, _ := refSyntax(r.Target); rule != "" {
				continue
			}
			got, actual := resolve(p, r.Target)
			if got != want && !(got == targetUnreadable && want == targetNotFile) { // ref-not-file reports both
				continue
			}
			switch got {
			case targetMissing:
				if actual != "" {
					p.Reportf(r.Pointer, "%s %q: not found, as %s is a symbolic link, which wop never follows (a pack holds regular files only): make %s a real folder", r.Field, r.Target, actual, actual)
					continue
				}
				if meant, ok := nearestFile(p, r.Target); ok {
					p.Suggest(pack.ManifestName, p.Manifest, r.Pointer, false, fmt.Sprintf("%s %q: file not found in the %s; did you mean %q?", r.Field, r.Target, where(p), meant), meant, true)
					continue
				}
				p.Reportf(r.Pointer, "%s %q: file not found in the %s; add it or fix the path", r.Field, r.Target, where(p))
			case targetCase:
				p.Reportf(r.Pointer, "%s %q: no such file, but %q differs only in case (archive names are case-sensitive); write %q", r.Field, r.Target, actual, actual)
			case targetNotFile:
				p.Reportf(r.Pointer, "%s %q: not a regular file; name a file, not a directory or link", r.Field, r.Target)
			case targetUnreadable:
				p.Reportf(r.Pointer, "%s %q: the file cannot be read (%s); a build would fail on it: fix its permissions", r.Field, r.Target, actual)
			}
		}
	}
}

// nearestFile is the pack's file a missing ref evidently meant
// ("prompts/note.md" beside "prompts/notes.md"): the near spelling in the
// ref's own folder, else in the whole pack, and none when a rival is as
// near (a person then decides). Only regular files are offered.
func nearestFile(p *Pass, target string) (string, bool) {
	dir, base := path.Split(target)
	var here, all []string
	for _, f := range p.Pack.Files {
		if !f.Mode.IsRegular() {
			continue
		}
		all = append(all, f.Name)
		if d, b := path.Split(f.Name); d == dir {
			here = append(here, b)
		}
	}
	switch c := suggest.Closest(base, here, nearBy(base)); len(c) {
	case 0:
	case 1:
		return dir + c[0], true
	default:
		return "", false // rivals in its own folder: no guess, and no look further
	}
	return suggest.Only(target, all, nearBy(base))
}

// nearBy is how many edits a file name may be from a ref to be its near
// spelling: a letter or two in a short name, a few in a long one.
func nearBy(name string) int { return min(4, max(2, len(name)/5)) }

// readable reads a directory pack's file through the pass's cache; a file
// over the size ceiling is readable (the size rules report it), and an
// archive's entries were read when it was loaded.
func readable(p *Pass, name string) error {
	if p.Pack.Archive != nil {
		return nil
	}
	_, err := p.ReadFile(name)
	var tooLarge *pack.FileTooLargeError
	if errors.As(err, &tooLarge) {
		return nil
	}
	return err
}

func where(p *Pass) string {
	if p.Pack.Archive != nil {
		return "archive"
	}
	return "pack directory"
}

func checkRefNotBundled(p *Pass) {
	if p.Pack.Archive != nil {
		return
	}
	for _, r := range fileRefs(p) {
		if rule, _ := refSyntax(r.Target); rule != "" {
			continue
		}
		if r.Kind == pack.RefUIPlugin {
			continue // registry-builder-omits: wop's build bundles it; only the registry's builder would not
		}
		if t, _ := resolve(p, r.Target); t == targetFile && !pack.InDefaultSet(r.Target) {
			p.Reportf(r.Pointer, "%s %q: the registry's builder only bundles prompts/*.md|txt, schemas/*.json and keys/*.pem|sig (one level deep), so this file would be missing from the published archive; move it there", r.Field, r.Target)
		}
	}
}

// promptFiles yields each existing prompt ref target with its contents.
func promptFiles(p *Pass, fn func(r pack.Ref, src []byte)) {
	for _, r := range fileRefs(p) {
		if r.Kind != pack.RefPrompt {
			continue
		}
		if rule, _ := refSyntax(r.Target); rule != "" {
			continue
		}
		if t, _ := resolve(p, r.Target); t != targetFile {
			continue
		}
		if src, err := p.ReadFile(r.Target); err == nil {
			fn(r, src)
		}
	}
}

func checkPromptEmpty(p *Pass) {
	promptFiles(p, func(r pack.Ref, src []byte) {
		if strings.TrimSpace(string(src)) == "" {
			p.ReportFilef(r.Target, "prompt file named by %s is empty; the agent would run with no system prompt", r.Field)
		}
	})
}

const maxPromptSize = 64 << 10

func checkPromptTooLarge(p *Pass) {
	promptFiles(p, func(r pack.Ref, src []byte) {
		if len(src) > maxPromptSize {
			p.ReportFilef(r.Target, "prompt is %d bytes (over 64 KiB); every run pays for it in tokens: trim it or move reference material into tools", len(src))
		}
	})
}

// jsonRefDocs yields each existing, parseable JSON ref target of the given
// kind once, whichever refs name it.
func jsonRefDocs(p *Pass, kind pack.RefKind, fn func(r pack.Ref, doc *jsonpos.Doc)) {
	seen := map[string]bool{}
	for _, r := range fileRefs(p) {
		if r.Kind != kind || seen[r.Target] {
			continue
		}
		seen[r.Target] = true
		if rule, _ := refSyntax(r.Target); rule != "" {
			continue
		}
		if doc, _, err := p.JSON(r.Target); err == nil {
			fn(r, doc)
		}
	}
}

func checkEvalSuite(p *Pass) {
	jsonRefDocs(p, pack.RefEval, func(r pack.Ref, doc *jsonpos.Doc) {
		if tasks := doc.Root.Get("tasks"); tasks == nil || tasks.Kind != jsonpos.Array {
			p.ReportAt(r.Target, doc, "", false, fmt.Sprintf("named by %s but not an eval suite: an eval suite is a JSON object with a tasks array", r.Field))
			return
		}
		if p.Spec == spec.V2 {
			checkV2EvalSuite(p, r, doc)
		}
	})
}
