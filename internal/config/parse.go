package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/suggest"
	"github.com/wop-cli/wop/internal/yamlspan"
	"go.yaml.in/yaml/v3"
)

// Problem is one mistake in a configuration file, placed by line and column
// and named by its YAML path (rules.ref-missing.severity).
type Problem struct {
	Line, Column int // 1-based; 0 when unknown
	Path         string
	Message      string
	// Fix replaces the key or value a "did you mean" names with what it
	// was meant to be (a byte span of the file, in the scalar's quoting);
	// zero when the message suggests nothing. Fixable says `wop pack lint
	// --fix` applies it: no other candidate was as close.
	Fix     diag.Fix
	Fixable bool

	node    *yaml.Node // the scalar the suggestion replaces
	meant   string
	invoked invocation.Name // Options.Invoked, for the fixable suffix
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", p.Line, p.Column)
	}
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Message)
	if p.Fixable {
		b.WriteString(" (fixable: " + p.invoked.Cmd("pack lint --fix") + ")")
	}
	return b.String()
}

// Error is every problem of one configuration file, so that a user fixes
// them all in one pass.
type Error struct {
	File     string
	Problems []Problem
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		sep := ":" // file:line:col: message
		if p.Line == 0 {
			sep = ": " // no line (YAML nested past its depth limit): file: message
		}
		lines[i] = e.File + sep + p.String()
	}
	return strings.Join(lines, "\n")
}

// Options are what Parse checks beyond the file's shape.
type Options struct {
	// Rule says whether a rule id exists; for an unknown one it may return
	// the id meant (`did you mean "ref-missing"?`) and whether no other id
	// was as close. Nil accepts every id.
	Rule func(id string) (ok bool, meant string, sure bool)
	// Want, when set, is the file discovery judged trustworthy (Found.ID).
	Want *safefile.Identity
	// Profile says whether a rule profile exists; for an unknown one it
	// returns the error to show (naming the known ones). Nil accepts every
	// name.
	Profile func(name string) error
	// Invoked is the command that started wop: the problems' hints name
	// it ("npx wop pack rules").
	Invoked invocation.Name
}

// Load reads and parses a configuration file: a regular file (never a FIFO
// or device, whatever a link points to) of at most MaxSize bytes. A file
// discovery found (Options.Want set) is read only as itself, never through
// a symbolic link: a .wop.yaml link in a checkout (a pull request's) would
// have wop read whatever file it points to and echo its lines as unknown
// keys (/etc/shadow under root). One named with --config or WOP_CONFIG is
// the user's own choice, link or not.
func Load(path string, o Options) (*Config, error) {
	raw, err := safefile.Read(path, safefile.Options{Max: MaxSize, FollowLinks: o.Want == nil, Want: o.Want})
	if info, lerr := os.Lstat(path); err != nil && o.Want != nil && lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("a symbolic link: wop does not follow a .wop.yaml it finds (the link could point at any file); put the file itself there, or name it with --config or WOP_CONFIG")}
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, raw, o)
}

// Parse parses a configuration document. All problems are reported at
// once, as an *Error, in YAML terms (a mapping, a list, a string), never
// in Go types.
func Parse(path string, raw []byte, o Options) (*Config, error) {
	c := &Config{Path: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, &Error{File: path, Problems: []Problem{syntaxProblem(err)}}
	}
	if len(doc.Content) == 0 { // an empty file
		return c, nil
	}
	root := doc.Content[0]
	var probs []Problem
	checkShape(root, reflect.TypeFor[Config](), "", &probs)
	// Decoding fills what has the right shape (the rest was reported), so
	// the values are checked in the same run.
	if err := root.Decode(c); err != nil && len(probs) == 0 {
		probs = append(probs, Problem{Line: root.Line, Column: root.Column, Message: err.Error()})
	}
	if root.Kind == yaml.MappingNode {
		probs = append(probs, c.checkValues(root, o)...)
	}
	for i := range probs {
		probs[i].invoked = o.Invoked
		if probs[i].meant != "" {
			probs[i].Fix, _ = yamlspan.Replace(raw, probs[i].node, probs[i].meant)
			probs[i].Fixable = probs[i].Fixable && !probs[i].Fix.IsZero()
		}
	}
	if len(probs) > 0 {
		slices.SortStableFunc(probs, func(a, b Problem) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
		})
		return nil, &Error{File: path, Problems: probs}
	}
	return c, nil
}

// syntaxProblem turns a YAML parser error into a Problem; the parser stops
// at its first error, so there is one.
func syntaxProblem(err error) Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var line int
	if _, scanErr := fmt.Sscanf(msg, "line %d:", &line); scanErr == nil {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
	}
	return Problem{Line: line, Message: "not valid YAML: " + msg}
}

// checkValues checks what the shape cannot: registry names, severities,
// rule ids, sizes and globs.
func (c *Config) checkValues(root *yaml.Node, o Options) []Problem {
	var probs []Problem
	add := func(n *yaml.Node, path, format string, args ...any) {
		p := Problem{Path: path, Message: fmt.Sprintf(format, args...)}
		if n != nil {
			p.Line, p.Column = n.Line, n.Column
		}
		probs = append(probs, p)
	}
	switch c.Registry {
	case "", "public", "private":
	default:
		add(valueNode(root, "registry"), "registry", "%q: want public or private", c.Registry)
	}
	if c.Profile != "" && o.Profile != nil {
		if err := o.Profile(c.Profile); err != nil {
			add(valueNode(root, "profile"), "profile", "%v", err)
		}
	}
	for i, src := range c.Catalog {
		if strings.TrimSpace(src) == "" {
			n := valueNode(root, "catalog")
			if n != nil && n.Kind == yaml.SequenceNode && i < len(n.Content) {
				n = n.Content[i]
			}
			add(n, "catalog", "an empty catalog source; name a registry URL, a registry checkout, a folder of packs or an index file")
		}
	}
	rules := valueNode(root, "rules")
	for i := 0; rules != nil && i+1 < len(rules.Content); i += 2 {
		key, val := rules.Content[i], rules.Content[i+1]
		id, rc := key.Value, c.Rules[key.Value]
		if o.Rule != nil {
			if ok, meant, sure := o.Rule(id); !ok && meant != "" {
				add(key, "rules", "no rule %q; did you mean %q? ('%s' lists them)", id, meant, o.Invoked.Cmd("pack rules"))
				probs[len(probs)-1].node, probs[len(probs)-1].meant, probs[len(probs)-1].Fixable = key, meant, sure
			} else if !ok {
				add(key, "rules", "no rule %q ('%s' lists them)", id, o.Invoked.Cmd("pack rules"))
			}
		}
		if rc.Severity != "" {
			if _, err := diag.ParseSeverity(rc.Severity); err != nil {
				sevNode := val
				if val.Kind == yaml.MappingNode {
					sevNode = valueNode(val, "severity")
				}
				if meant, ok := suggest.Only(rc.Severity, diag.SeverityNames(), 2); ok && rc.Severity != "" {
					add(sevNode, "rules."+id, "%v; did you mean %q?", err, meant)
					probs[len(probs)-1].node, probs[len(probs)-1].meant, probs[len(probs)-1].Fixable = sevNode, meant, true
				} else {
					add(sevNode, "rules."+id, "%v", err)
				}
			}
		}
		for _, g := range rc.Ignore {
			if _, err := globRegexp(g); err != nil {
				add(valueNode(val, "ignore"), "rules."+id+".ignore", "%q: %v", g, err)
			}
		}
	}
	accept := valueNode(valueNode(root, "breaking"), "accept")
	for i, a := range c.Breaking.Accept {
		if a.Rule == "" || strings.TrimSpace(a.Reason) == "" {
			var n *yaml.Node
			if accept != nil && i < len(accept.Content) {
				n = accept.Content[i]
			}
			add(n, fmt.Sprintf("breaking.accept[%d]", i), "rule and reason are required (the reason makes the decision reviewable)")
		}
	}
	limits := valueNode(root, "limits")
	for _, f := range []struct{ key, value string }{{"manifest", c.Limits.Manifest}, {"file", c.Limits.File}, {"pack", c.Limits.Pack}} {
		if _, err := parseSize(f.value); err != nil {
			add(valueNode(limits, f.key), "limits."+f.key, "%v", err)
		}
	}
	if _, err := c.Limits.EntryCount(); err != nil {
		add(valueNode(limits, "entries"), "limits.entries", "%v", err)
	}
	return probs
}

// valueNode returns the value of key in a mapping node; nil if absent.
func valueNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
