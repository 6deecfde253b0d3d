package lint

import (
	"bytes"
	"path"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/regex"
)

// placeholder is the marker `wop pack init` leaves where only the author
// can write the text ("TODO: one sentence about the pack."). The colon keeps
// a prompt about to-do lists from matching.
var placeholder = regex.Lazy(`\bTODO:`)

// checkPlaceholderLeft finds init's placeholders still in pack.json strings
// and in the bundled text files people read: LICENSE, README and prompts.
// It is a warning while the pack is being written; publish raises it to an
// error (placeholderRules), because a registry would publish the TODOs.
func checkPlaceholderLeft(p *Pass) {
	walkObjects(p.Root(), "", func(ptr string, m jsonpos.Member) {
		if m.Value.Kind == jsonpos.String && hasPlaceholder(m.Value.Str) {
			p.Reportf(ptr+"/"+jsonpos.EscapeToken(m.Name), "%s still holds the placeholder 'wop pack init' wrote (%q); write the real text", m.Name, clip(m.Value.Str))
		}
	})
	for _, f := range bundled(p) {
		if !f.Mode.IsRegular() || !placeholderFile(f.Name) {
			continue
		}
		_ = p.lend(f.Name, func(src []byte) {
			if loc := findPlaceholder(src); loc != nil {
				p.ReportOffset(f.Name, src, loc[0], "still holds the placeholder 'wop pack init' wrote; write the real text")
			}
		})
	}
}

// findPlaceholder is placeholder().FindIndex, skipping the regexp where the
// literal cannot occur: the regexp's \b keeps it off its literal fast path,
// and it was 90% of linting a 50 MB pack of prompts.
func findPlaceholder(src []byte) []int {
	if !bytes.Contains(src, []byte("TODO:")) {
		return nil
	}
	return placeholder().FindIndex(src)
}

// hasPlaceholder is placeholder().MatchString, skipping the regexp where
// the literal cannot occur (nearly every string of a manifest).
func hasPlaceholder(s string) bool {
	return strings.Contains(s, "TODO:") && placeholder().MatchString(s)
}

// placeholderFile: the text files init writes placeholders into.
func placeholderFile(name string) bool {
	base := strings.ToUpper(path.Base(name))
	return name != pack.ManifestName && (strings.HasPrefix(base, "LICENSE") || strings.HasPrefix(base, "README") ||
		strings.HasPrefix(name, "prompts/"))
}

// clip shortens a quoted value for a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
