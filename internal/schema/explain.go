package schema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/wop-cli/wop/internal/suggest"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Problem is one readable schema violation.
type Problem struct {
	Pointer string // RFC 6901 pointer to the offending value (or the object missing a member)
	OnName  bool   // the finding is about the member name at Pointer, not its value
	Message string
	// Keyword is the schema keyword that failed ("required", "pattern",
	// "oneOf", ...) and Names the properties it concerns (the missing one,
	// or a choice's alternatives), so callers can tell problems apart
	// without reading the message.
	Keyword string
	Names   []string
	// Meant is what a misspelt string value (or, OnName, member name) was
	// evidently meant to be: the message's "did you mean"; "" when none.
	// Sure says no other candidate was as close, so a fix may take Meant
	// without asking a person.
	Meant string
	Sure  bool
}

// explain flattens a validation error tree into the causes a person must fix.
// jsonschema reports oneOf/anyOf as a wall of every branch's failures; this
// picks the branch the author evidently meant, or names the choice.
// instance is the document validated: a value of the wrong type is quoted
// from it in the fix.
func (s *Set) explain(ve *jsonschema.ValidationError, instance any) []Problem {
	p := message.NewPrinter(language.English)
	var out []Problem
	s.walk(ve, p, instance, &out)
	slices.SortFunc(out, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Pointer, b.Pointer), cmp.Compare(a.Message, b.Message))
	})
	return slices.CompactFunc(out, func(a, b Problem) bool { return a.Pointer == b.Pointer && a.Message == b.Message })
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, tok := range loc {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

func (s *Set) walk(ve *jsonschema.ValidationError, p *message.Printer, instance any, out *[]Problem) {
	ptr := pointer(ve.InstanceLocation)
	switch k := ve.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		s.choice(ve, p, instance, out)
	case *kind.Required:
		for _, m := range k.Missing {
			*out = append(*out, Problem{Pointer: ptr, Message: fmt.Sprintf("missing required property %q", m), Keyword: "required", Names: []string{m}})
		}
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			pr := Problem{Pointer: ptr + "/" + escape(name), OnName: true, Keyword: "additionalProperties", Message: fmt.Sprintf("unknown property %q", name)}
			if pr.Meant, pr.Sure = s.suggest(ve.SchemaURL, name); pr.Meant != "" {
				pr.Message += fmt.Sprintf("; did you mean %q?", pr.Meant)
			}
			*out = append(*out, pr)
		}
	case *kind.Enum:
		fix, meant, sure := enumFix(k.Got, k.Want)
		*out = append(*out, Problem{Pointer: ptr, Keyword: "enum", Message: fmt.Sprintf("%s is not allowed here; %s", display(k.Got), fix), Meant: meant, Sure: sure})
	case *kind.Const:
		*out = append(*out, Problem{Pointer: ptr, Keyword: "const", Message: fmt.Sprintf("%s is not allowed here; use %s", display(k.Got), display(k.Want))})
	case *kind.Type:
		*out = append(*out, Problem{Pointer: ptr, Keyword: "type", Message: fmt.Sprintf("wrong type: got %s, want %s%s", k.Got, strings.Join(k.Want, " or "), typeFix(valueAt(instance, ve.InstanceLocation), k.Want))})
	case *kind.Not:
		// The library gives "not" no keyword path; say which property the
		// forbidden form requires when that is all it says.
		*out = append(*out, Problem{Pointer: ptr, Keyword: "not", Message: s.forbidden(ve.SchemaURL)})
	case *kind.FalseSchema:
		*out = append(*out, Problem{Pointer: ptr, OnName: true, Keyword: "false", Message: "property not allowed here"})
	default:
		if len(ve.Causes) == 0 {
			kw := ve.ErrorKind.KeywordPath()
			*out = append(*out, Problem{Pointer: ptr, Message: ve.ErrorKind.LocalizedString(p), Keyword: kw[len(kw)-1]})
		}
	}
	if _, isChoice := ve.ErrorKind.(*kind.OneOf); isChoice {
		return
	}
	if _, isChoice := ve.ErrorKind.(*kind.AnyOf); isChoice {
		return
	}
	for _, c := range ve.Causes {
		s.walk(c, p, instance, out)
	}
}

// choice explains a failed oneOf/anyOf. Branches that only say "property X
// is required" become "set exactly one of A or B"; otherwise the branch whose
// errors sit deepest (the type matched, a detail did not) is reported.
func (s *Set) choice(ve *jsonschema.ValidationError, p *message.Printer, instance any, out *[]Problem) {
	ptr := pointer(ve.InstanceLocation)
	keyword := ve.SchemaURL + "/anyOf"
	quantifier := "at least one"
	if _, ok := ve.ErrorKind.(*kind.OneOf); ok {
		keyword, quantifier = ve.SchemaURL+"/oneOf", "exactly one"
	}
	if names := s.requiredOnlyBranches(keyword); len(names) > 1 {
		*out = append(*out, Problem{Pointer: ptr, Message: fmt.Sprintf("set %s of %s", quantifier, suggest.OrList(names)), Keyword: path.Base(keyword), Names: names})
		return
	}
	if len(ve.Causes) == 0 { // oneOf with several matching branches
		*out = append(*out, Problem{Pointer: ptr, Keyword: "oneOf", Message: "value matches more than one of the allowed forms; make it match exactly one"})
		return
	}
	var best []Problem
	for _, c := range ve.Causes {
		var ps []Problem
		s.walk(c, p, instance, &ps)
		if best == nil || score(ps, ptr) < score(best, ptr) {
			best = ps
		}
	}
	if score(best, ptr) >= 1000 {
		*out = append(*out, Problem{Pointer: ptr, Keyword: path.Base(keyword), Message: "value matches none of the allowed forms" + s.forms(keyword)})
		return
	}
	*out = append(*out, best...)
}

// score ranks a branch's problems: fewer is better, and a type mismatch at
// the value itself means the author did not mean this branch at all.
func score(ps []Problem, at string) int {
	n := len(ps)
	for _, pr := range ps {
		if pr.Pointer == at && strings.HasPrefix(pr.Message, "wrong type") {
			n += 1000
		}
	}
	return n
}

// requiredOnlyBranches returns the property names when every branch of the
// oneOf/anyOf at url differs only in which property it requires.
func (s *Set) requiredOnlyBranches(url string) []string {
	branches, _ := s.fragment(url).([]any)
	var names []string
	for _, b := range branches {
		obj, _ := b.(map[string]any)
		req, _ := obj["required"].([]any)
		if len(req) != 1 {
			return nil
		}
		name, _ := req[0].(string)
		names = append(names, name)
	}
	return names
}

// forbidden explains a failed "not" at url: a "not" that only requires
// properties forbids them.
func (s *Set) forbidden(url string) string {
	obj, _ := s.fragment(url).(map[string]any)
	not, _ := obj["not"].(map[string]any)
	req, _ := not["required"].([]any)
	if len(not) != 1 || len(req) == 0 {
		return "the value has a form this place forbids"
	}
	var names []string
	for _, r := range req {
		if name, ok := r.(string); ok {
			names = append(names, fmt.Sprintf("%q", name))
		}
	}
	return "property " + strings.Join(names, " with ") + " is not allowed here"
}

// forms lists the types a oneOf/anyOf accepts, when they say so directly.
func (s *Set) forms(url string) string {
	branches, _ := s.fragment(url).([]any)
	var types []string
	for _, b := range branches {
		obj, _ := b.(map[string]any)
		if t, ok := obj["type"].(string); ok && !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	if len(types) < 2 {
		return ""
	}
	return " (use " + suggest.OrList(types) + ")"
}

// suggest offers the allowed property nearest to an unknown one: a typo such
// as "systemPromptRefs" deserves "did you mean systemPromptRef?". sure says
// it had no rival as close.
func (s *Set) suggest(url, name string) (meant string, sure bool) {
	obj, _ := s.fragment(url).(map[string]any)
	known, _ := obj["properties"].(map[string]any)
	props := slices.Collect(maps.Keys(known))
	return suggest.Guess(name, props, 2)
}

// fragment resolves an absolute schema URL ("<$id>#/json/pointer") against
// the embedded documents.
func (s *Set) fragment(url string) any {
	id, frag, _ := strings.Cut(url, "#")
	frag = strings.TrimPrefix(frag, "/")
	v := s.Document(id)
	if frag == "" {
		return v
	}
	for _, tok := range strings.Split(frag, "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch node := v.(type) {
		case map[string]any:
			v = node[tok]
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(node) {
				return nil
			}
			v = node[i]
		default:
			return nil
		}
	}
	return v
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func oneOfList(want []any) string {
	var ws []string
	for _, w := range want {
		ws = append(ws, display(w))
	}
	if len(ws) == 1 {
		return ws[0]
	}
	return "one of " + strings.Join(ws, ", ")
}

// enumFix lists the allowed values, led by the one a misspelt string was
// evidently meant to be ("obj" for "object"), which it returns as meant;
// sure says no other value was as close.
func enumFix(got any, want []any) (fix, meant string, sure bool) {
	str, ok := got.(string)
	if !ok {
		return "use " + oneOfList(want), "", false
	}
	var cands []string
	for _, w := range want {
		if w, ok := w.(string); ok {
			cands = append(cands, w)
		}
	}
	near, sure := suggest.Guess(str, cands, 2)
	ok = near != ""
	if !ok && len(str) >= 3 {
		var prefixed []string
		for _, c := range cands {
			if strings.HasPrefix(strings.ToLower(c), strings.ToLower(str)) {
				prefixed = append(prefixed, c)
			}
		}
		if len(prefixed) == 1 {
			near, ok, sure = prefixed[0], true, true
		}
	}
	if !ok {
		return "use " + oneOfList(want), "", false
	}
	return fmt.Sprintf("did you mean %q? (allowed: %s)", near, strings.TrimPrefix(oneOfList(want), "one of ")), near, sure
}

// typeFix says how to write a value of the wrong type as the type wanted,
// when the value shows what was meant: a number or boolean in quotes, or a
// single item where an array belongs. It starts with ": ", or is "".
func typeFix(v any, want []string) string {
	if len(want) != 1 {
		return ""
	}
	switch str, isStr := v.(string); {
	case isStr && want[0] == "integer" && jsonInteger.MatchString(str), isStr && want[0] == "number" && jsonNumber.MatchString(str):
		return fmt.Sprintf(": write %s without quotes", str)
	case isStr && want[0] == "boolean" && (str == "true" || str == "false"):
		return fmt.Sprintf(": write %s without quotes", str)
	case want[0] == "array" && v != nil:
		if _, isMap := v.(map[string]any); isMap {
			return ""
		}
		if b, err := json.Marshal([]any{v}); err == nil && len(b) <= 80 {
			return fmt.Sprintf(": write %s", b)
		}
	}
	return ""
}

// jsonInteger and jsonNumber match the JSON spellings of an integer and a
// number, so that the fix quotes nothing a JSON reader would refuse.
var (
	jsonInteger = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	jsonNumber  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

// valueAt is the value at a location in a decoded document, or nil.
func valueAt(doc any, loc []string) any {
	for _, tok := range loc {
		switch node := doc.(type) {
		case map[string]any:
			doc = node[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(node) {
				return nil
			}
			doc = node[i]
		default:
			return nil
		}
	}
	return doc
}

func display(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}
