// Package config reads .wop.yaml: per-rule severities and path ignores, the
// target registry, and the size ceilings. Unknown keys are errors, reported
// with their line, so a typo never silently changes nothing.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileNames are the names Find looks for, in order.
var FileNames = []string{".wop.yaml", ".wop.yml"}

// Config is a parsed .wop.yaml.
type Config struct {
	Path       string                `yaml:"-"`          // where it was read from
	Registry   string                `yaml:"registry"`   // "public" or "private"; "" = not said
	SchemaBase string                `yaml:"schemaBase"` // pack schema $id prefix of the target registry
	Catalog    string                `yaml:"catalog"`    // catalog path, relative to this file (see internal/catalog)
	Rules      map[string]RuleConfig `yaml:"rules"`
	Limits     Limits                `yaml:"limits"`
	KeyID      string                `yaml:"keyId"` // default --key-id for build, sign and publish
	Breaking   Breaking              `yaml:"breaking"`
	// AllowOrigins are origins besides the registry's own that its discovery
	// document may name (publish's --allow-origin); credentials never go there.
	AllowOrigins []string `yaml:"allowOrigins"`
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
}

// UnmarshalYAML accepts the short (scalar) and long (mapping) forms.
func (r *RuleConfig) UnmarshalYAML(n *yaml.Node) error {
	r.Line = n.Line
	if n.Kind == yaml.ScalarNode {
		r.Severity = n.Value
		return nil
	}
	type plain RuleConfig
	var p plain
	dec := yamlDecode(n)
	if err := dec(&p); err != nil {
		return err
	}
	*r = RuleConfig(p)
	r.Line = n.Line
	return nil
}

// yamlDecode decodes a node strictly (unknown keys are errors).
func yamlDecode(n *yaml.Node) func(any) error {
	return func(v any) error {
		out, err := yaml.Marshal(n)
		if err != nil {
			return err
		}
		dec := yaml.NewDecoder(bytes.NewReader(out))
		dec.KnownFields(true)
		if err := dec.Decode(v); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		return nil
	}
}

// Limits are size ceilings, written like "256KB", "5MB" or a byte count.
type Limits struct {
	Manifest string `yaml:"manifest"`
	File     string `yaml:"file"`
	Pack     string `yaml:"pack"`
}

// Load reads and validates a config file.
func Load(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) { // EOF: an empty file
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	c.Path = path
	switch c.Registry {
	case "", "public", "private":
	default:
		return nil, fmt.Errorf("%s: registry %q: want public or private", path, c.Registry)
	}
	for i, a := range c.Breaking.Accept {
		if a.Rule == "" || strings.TrimSpace(a.Reason) == "" {
			return nil, fmt.Errorf("%s: breaking.accept[%d]: rule and reason are required", path, i)
		}
	}
	if _, _, _, err := c.Limits.Bytes(); err != nil {
		return nil, fmt.Errorf("%s: limits: %w", path, err)
	}
	for _, p := range c.ignoreGlobs() {
		if _, err := CompileGlob(p); err != nil {
			return nil, fmt.Errorf("%s: ignore %q: %w", path, p, err)
		}
	}
	return c, nil
}

func (c *Config) ignoreGlobs() []string {
	var out []string
	for _, r := range c.Rules {
		out = append(out, r.Ignore...)
	}
	return out
}

// Find looks for a config file in dir and its parents; "" if there is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		for _, name := range FileNames {
			p := filepath.Join(dir, name)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
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

var sizeRE = regexp.MustCompile(`^(\d+)\s*(B|KB|KiB|MB|MiB|GB|GiB)?$`)

func parseSize(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	m := sizeRE.FindStringSubmatch(strings.TrimSpace(s))
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
