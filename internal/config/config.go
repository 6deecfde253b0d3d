// Package config reads .wop.yaml: per-rule severities and path ignores, the
// target registry, and the size ceilings. Unknown keys are errors, reported
// with their line, so a typo never silently changes nothing.
package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/regex"
	"go.yaml.in/yaml/v3"
)

// FileNames are the names Find looks for, in order.
var FileNames = []string{".wop.yaml", ".wop.yml"}

// MaxSize bounds a configuration file; a real one is a few hundred bytes.
const MaxSize = 256 << 10

// Config is a parsed .wop.yaml. Its yaml tags are the file's keys: Parse
// checks a document's shape against them (shape.go), so a field added here
// is a key the file accepts.
type Config struct {
	Path       string                `yaml:"-"`          // where it was read from
	Registry   string                `yaml:"registry"`   // "public" or "private"; "" = not said
	SchemaBase string                `yaml:"schemaBase"` // pack schema $id prefix of the target registry
	Catalog    Sources               `yaml:"catalog"`    // catalog sources: paths relative to this file, or URLs (see internal/catalog)
	Host       string                `yaml:"host"`       // host profile file the packs target, relative to this file
	Profile    string                `yaml:"profile"`    // rule profile ("registry"); "" keeps the rules' defaults
	Rules      map[string]RuleConfig `yaml:"rules"`
	Limits     Limits                `yaml:"limits"`
	KeyID      string                `yaml:"keyId"` // default --key-id for build, sign and publish
	Breaking   Breaking              `yaml:"breaking"`
	// AllowOrigins are origins besides the registry's own that its discovery
	// document may name (publish's --allow-origin); credentials never go there.
	AllowOrigins []string `yaml:"allowOrigins"`
}

// Sources is a list of catalog sources. In YAML it is one string or a list
// of strings.
type Sources []string

// UnmarshalYAML accepts one string or a list; Parse has checked the shape.
func (s *Sources) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*s = Sources{n.Value}
		return nil
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return err
	}
	*s = list
	return nil
}

// Breaking configures `wop pack breaking`: changes accepted on purpose.
type Breaking struct {
	Accept []Acceptance `yaml:"accept"`
}

// Acceptance records one deliberate breaking change: the rule, where (a
// JSON pointer into the old or new release, or a file path; "" for
// anywhere) and why, which is required so the decision is reviewable.
type Acceptance struct {
	Rule   string `yaml:"rule"`
	Where  string `yaml:"where"`
	Reason string `yaml:"reason"`
}

// RuleConfig is a rule's severity ("off", "info", "warning", "error"), the
// paths it ignores and, for rules that match text, its patterns. In YAML it is either a severity string or a mapping
// {severity: ..., ignore: [...]}.
type RuleConfig struct {
	Severity string   `yaml:"severity"`
	Ignore   []string `yaml:"ignore"`
	Patterns []string `yaml:"patterns"` // regular expressions, for rules that match text
	Line     int      `yaml:"-"`
	// SeverityAt and IgnoreAt are where the severity (the short form's
	// value) and the ignore key are written, for messages naming the line
	// that set them; zero when absent.
	SeverityAt, IgnoreAt Pos  `yaml:"-"`
	Short                bool `yaml:"-"` // written `rule: severity`
}

// Pos is a 1-based line and column in the file.
type Pos struct{ Line, Column int }

// UnmarshalYAML accepts the short (scalar) and long (mapping) forms; Parse
// has checked the shape already.
func (r *RuleConfig) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*r = RuleConfig{Severity: n.Value, Line: n.Line, SeverityAt: Pos{n.Line, n.Column}, Short: true}
		return nil
	}
	type plain RuleConfig
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*r = RuleConfig(p)
	r.Line = n.Line
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch k := n.Content[i]; k.Value {
		case "severity":
			r.SeverityAt = Pos{k.Line, k.Column}
		case "ignore":
			r.IgnoreAt = Pos{k.Line, k.Column}
		}
	}
	return nil
}

// Limits are size ceilings, written like "256KB", "5MB" or a byte count,
// and the entry ceiling, a count of files.
type Limits struct {
	Manifest string `yaml:"manifest"`
	File     string `yaml:"file"`
	Pack     string `yaml:"pack"`
	Entries  string `yaml:"entries"`
}

// EntryCount returns the entry ceiling; zero means the default.
func (l Limits) EntryCount() (int, error) {
	if l.Entries == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(l.Entries))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("entries %q: write a whole number of files above zero", l.Entries)
	}
	return n, nil
}

// Bytes returns the ceilings in bytes; zero means the default.
func (l Limits) Bytes() (manifest, file, pack int64, err error) {
	if manifest, err = parseSize(l.Manifest); err != nil {
		return
	}
	if file, err = parseSize(l.File); err != nil {
		return
	}
	pack, err = parseSize(l.Pack)
	return
}

var sizeRE = regex.Lazy(`^(\d+)\s*(B|KB|KiB|MB|MiB|GB|GiB)?$`)

func parseSize(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	m := sizeRE().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("size %q: write a number with B, KB, MB or GB", s)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	mult := map[string]int64{"": 1, "B": 1, "KB": 1 << 10, "KiB": 1 << 10, "MB": 1 << 20, "MiB": 1 << 20, "GB": 1 << 30, "GiB": 1 << 30}[m[2]]
	return n * mult, nil
}

// Glob is a compiled ignore pattern: * stays within a path segment, **
// crosses segments, ? is one character. Compile each once (per
// configuration), then match it against every finding's path.
type Glob struct {
	Pattern string // as written; the lint cache keys on it
	re      *regexp.Regexp
}

// CompileGlob compiles a pattern.
func CompileGlob(pattern string) (Glob, error) {
	re, err := globRegexp(pattern)
	if err != nil {
		return Glob{}, err
	}
	return Glob{Pattern: pattern, re: re}, nil
}

// Match reports whether a slash path matches the glob.
func (g Glob) Match(path string) bool { return g.re != nil && g.re.MatchString(path) }

func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; {
		case c == '*' && i+1 < len(glob) && glob[i+1] == '*':
			b.WriteString(".*")
			i++
			if i+1 < len(glob) && glob[i+1] == '/' {
				i++
				b.WriteString("/?")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}
