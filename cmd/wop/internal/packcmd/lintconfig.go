package packcmd

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/suggest"
	"github.com/wop-cli/wop/internal/tarball"
)

// packSettings are what a pack's configuration decides: lint options and
// the size ceilings the pack is read with.
type packSettings struct {
	opt          lint.Options
	limits       tarball.Limits
	keyID        string   // .wop.yaml keyId: the default signing key id
	allowOrigins []string // .wop.yaml allowOrigins, checked
	catalog      string   // the configuration's catalog: an absolute path or URL, "" if none
}

// settingsFor finds the configuration for a pack (--config, or .wop.yaml
// upward from it) and turns it into lint options. Configs are read once.
func settingsFor(env *cli.Env, explicit, packPath string, base lint.Options, cache map[string]*packSettings) (*packSettings, error) {
	path := explicit
	if path == "" {
		// A pack directory's own .wop.yaml counts; for pack.json or a .tgz,
		// start beside the file. (Not by extension: pack directories are
		// named like community.acme.tools.)
		start := packPath
		if info, err := os.Stat(packPath); err == nil && !info.IsDir() {
			start = filepath.Dir(packPath)
		}
		var err error
		if path, err = config.Find(start); err != nil {
			return nil, err
		}
	} else {
		path = env.Abs(path)
	}
	if s, ok := cache[path]; ok {
		return s, nil
	}
	s := &packSettings{opt: base, limits: tarball.DefaultLimits}
	if path != "" {
		c, err := config.Load(path)
		if err != nil {
			return nil, cli.Usagef("%v", err)
		}
		warnings, err := apply(c, s, lint.All())
		if err != nil {
			return nil, cli.Usagef("%s: %v", path, err)
		}
		for _, w := range warnings {
			fmt.Fprintf(env.ErrOut, "%s: warning: %s\n", path, w)
		}
	}
	cache[path] = s
	return s, nil
}

// apply turns a configuration into settings. An id of a deprecated rule is
// read as its replacement, with a warning.
func apply(c *config.Config, s *packSettings, rules lint.Rules) (warnings []string, err error) {
	for _, o := range c.AllowOrigins {
		if _, err := registry.ParseOrigin(o); err != nil {
			return nil, fmt.Errorf("allowOrigins: %w", err)
		}
	}
	s.allowOrigins = c.AllowOrigins
	s.opt.Profile = lint.Profile{Public: c.Registry == "public", SchemaBase: c.SchemaBase}
	s.keyID = c.KeyID
	if c.Catalog != "" {
		s.catalog = c.Catalog
		if !filepath.IsAbs(s.catalog) && !catalog.IsURL(s.catalog) {
			s.catalog = filepath.Join(filepath.Dir(c.Path), filepath.FromSlash(c.Catalog))
		}
	}
	s.opt.Severities = map[string]diag.Severity{}
	s.opt.Ignores = map[string][]config.Glob{}
	for _, id := range slices.Sorted(maps.Keys(c.Rules)) {
		rc := c.Rules[id]
		r, warning := rules.Resolve(id)
		if r == nil {
			hint := ""
			if near, ok := suggest.Nearest(id, rules.IDs(), 3); ok {
				hint = fmt.Sprintf("; did you mean %q?", near)
			}
			return warnings, fmt.Errorf("line %d: no rule %q%s ('wop pack rules' lists them)", rc.Line, id, hint)
		}
		if warning != "" {
			warnings = append(warnings, fmt.Sprintf("line %d: %s", rc.Line, warning))
		}
		if rc.Severity != "" {
			sev, err := diag.ParseSeverity(rc.Severity)
			if err != nil {
				return warnings, fmt.Errorf("line %d: rule %s: %w", rc.Line, id, err)
			}
			s.opt.Severities[r.ID] = sev
		}
		for _, pattern := range rc.Ignore {
			g, err := config.CompileGlob(pattern)
			if err != nil {
				return warnings, fmt.Errorf("line %d: rule %s: ignore %q: %w", rc.Line, id, pattern, err)
			}
			s.opt.Ignores[r.ID] = append(s.opt.Ignores[r.ID], g)
		}
		if len(rc.Patterns) > 0 {
			res, err := lint.CompilePatterns(rc.Patterns)
			if err != nil {
				return warnings, fmt.Errorf("line %d: rule %s: %w", rc.Line, id, err)
			}
			if s.opt.Patterns == nil {
				s.opt.Patterns = map[string][]*regexp.Regexp{}
			}
			s.opt.Patterns[r.ID] = res
		}
	}
	m, f, p, _ := c.Limits.Bytes()
	if m > 0 {
		s.limits.MaxManifest = m
	}
	if f > 0 {
		s.limits.MaxEntry = f
	}
	if p > 0 {
		s.limits.MaxTotal = p
	}
	return warnings, nil
}
