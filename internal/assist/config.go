package assist

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/lint"
)

// A .wop.yaml being typed is rarely YAML, and its shape is small and
// fixed (internal/config): the cursor's place is read from the lines
// alone, by indentation, as an outline.

// yamlPlace is where the cursor is in a .wop.yaml.
type yamlPlace struct {
	parents []string // the keys of the enclosing mappings, outermost first
	key     string   // at a value: its key
	value   bool     // the cursor is at a value (after "key:"), not a key
	word    Span     // the key or value under the cursor
	typed   string   // its bytes up to the cursor
}

// placeIn reads the cursor's place at off.
func placeIn(src []byte, off int) yamlPlace {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := off + lineEnd(src[off:])
	line := string(src[start:end])
	col := off - start
	indent := len(line) - len(strings.TrimLeft(line, " "))
	body := indent
	if strings.HasPrefix(line[body:], "- ") {
		body += 2
	}
	pl := yamlPlace{parents: parents(src[:start], min(indent, col))}
	if colon := strings.Index(line[body:], ":"); colon >= 0 && body+colon < col {
		pl.value, pl.key = true, strings.TrimSpace(line[body:body+colon])
		body += colon + 1
		body += len(line[body:]) - len(strings.TrimLeft(line[body:], " "))
	}
	body = min(body, col)
	wordEnd := col
	for wordEnd < len(line) && !strings.ContainsRune(" \t\r:#", rune(line[wordEnd])) {
		wordEnd++
	}
	pl.word = Span{start + body, start + wordEnd}
	pl.typed = line[body:col]
	return pl
}

func lineEnd(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i
	}
	return len(b)
}

// parents returns the keys of the mappings enclosing a line indented by
// indent, read from the lines above it (above).
func parents(above []byte, indent int) []string {
	var keys []string
	lines := strings.Split(string(above), "\n")
	for i := len(lines) - 1; i >= 0 && indent > 0; i-- {
		l := strings.TrimRight(lines[i], " \r")
		trimmed := strings.TrimLeft(l, " ")
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		in := len(l) - len(trimmed)
		if in >= indent {
			continue
		}
		indent = in
		trimmed = strings.TrimPrefix(trimmed, "- ")
		if k, _, ok := strings.Cut(trimmed, ":"); ok {
			keys = append([]string{strings.TrimSpace(k)}, keys...)
		}
	}
	return keys
}

// completeConfig offers .wop.yaml's keys, rule ids, severities and
// registry names at off.
func completeConfig(doc Doc, off int) []Item {
	pl := placeIn(doc.Text, off)
	var items []Item
	switch {
	case !pl.value && len(pl.parents) == 0:
		items = keyItems(reflect.TypeFor[config.Config]())
	case !pl.value && len(pl.parents) == 1 && pl.parents[0] == "rules":
		items = ruleItems()
	case !pl.value && len(pl.parents) == 2 && pl.parents[0] == "rules":
		items = keyItems(reflect.TypeFor[config.RuleConfig]())
	case !pl.value && len(pl.parents) == 1 && pl.parents[0] == "limits":
		items = keyItems(reflect.TypeFor[config.Limits]())
	case !pl.value && len(pl.parents) == 1 && pl.parents[0] == "breaking":
		items = keyItems(reflect.TypeFor[config.Breaking]())
	case pl.value && len(pl.parents) == 1 && pl.parents[0] == "rules",
		pl.value && len(pl.parents) == 2 && pl.parents[0] == "rules" && pl.key == "severity":
		items = severityItems()
	case pl.value && len(pl.parents) == 0 && pl.key == "registry":
		items = []Item{{Label: "public", Kind: KindValue}, {Label: "private", Kind: KindValue}}
	case pl.value && len(pl.parents) == 0 && pl.key == "rules":
		return nil
	}
	typed := strings.ToLower(pl.typed)
	out := items[:0]
	for _, it := range items {
		if strings.Contains(strings.ToLower(it.Label), typed) {
			it.Replace = pl.word
			if it.Insert == "" {
				it.Insert = it.Label
			}
			out = append(out, it)
		}
	}
	return out
}

// keyItems lists the keys a configuration struct reads (its yaml tags:
// what Parse accepts).
func keyItems(t reflect.Type) []Item {
	var items []Item
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			items = append(items, Item{Label: name, Kind: KindProperty})
		}
	}
	return items
}

// ruleItems lists the rule ids, current ones first.
func ruleItems() []Item {
	var items, old []Item
	for _, r := range lint.All() {
		it := Item{Label: r.ID, Detail: r.Severity.String(), Doc: r.Summary, Kind: KindRule}
		if r.Deprecated != "" {
			it.Detail = "deprecated: " + r.ReplacedBy
			old = append(old, it)
			continue
		}
		items = append(items, it)
	}
	return append(items, old...)
}

func severityItems() []Item {
	var items []Item
	for _, s := range []string{"off", "info", "warning", "error"} {
		items = append(items, Item{Label: s, Kind: KindValue})
	}
	return items
}

// hoverConfig explains the rule whose id is the key at off.
func hoverConfig(doc Doc, off int) (string, Span, bool) {
	pl := placeIn(doc.Text, off)
	if pl.value || len(pl.parents) != 1 || pl.parents[0] != "rules" {
		return "", Span{}, false
	}
	id := string(doc.Text[pl.word.Start:pl.word.End])
	r := lint.Lookup(id)
	if r == nil {
		return "", Span{}, false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (default %s, since %s)\n\n%s", r.ID, r.Severity, r.Since, r.Summary)
	if r.Deprecated != "" {
		fmt.Fprintf(&b, "\n\nDeprecated: %s; replaced by `%s`", r.Deprecated, r.ReplacedBy)
	}
	if d, err := lint.Explain(r.ID); err == nil && d.Prose != "" {
		fmt.Fprintf(&b, "\n\n%s", strings.TrimSpace(d.Prose))
	}
	return b.String(), pl.word, true
}
