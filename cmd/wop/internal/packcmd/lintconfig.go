package packcmd

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
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
	catalogs     []string // the configuration's catalog sources: absolute paths or URLs
	host         string   // the configuration's host profile file, absolute; "" if none
	profile      string   // the configuration's rule profile; "" if none
}

// settingsMemo holds, for one command, the settings already made (by
// configuration file) and the .wop.yaml search's answers for directories
// already passed: the packs of a folder share every ancestor.
type settingsMemo struct {
	made   map[string]*packSettings
	finder *config.Finder // made on first use, with the command's Env
}

func newSettingsMemo() *settingsMemo {
	return &settingsMemo{made: map[string]*packSettings{}}
}

// settingsFor finds the configuration for a pack (--config, WOP_CONFIG, or
// .wop.yaml upward from it) and turns it into lint options. Configs are
// read once per memo. A discovered file another user owns is ignored with a warning,
// and only the file next to the pack (or one the user named) may raise the
// size limits: an ancestor's cannot let a bomb in.
func settingsFor(env *cli.Env, explicit, packPath string, base lint.Options, memo *settingsMemo) (*packSettings, error) {
	start := packPath // a pack directory, or a pack.json or .tgz in one
	if info, err := os.Stat(packPath); err == nil && !info.IsDir() {
		start = filepath.Dir(packPath)
	}
	path, mayRaise := cmp.Or(explicit, env.Getenv("WOP_CONFIG")), true
	var want *safefile.Identity
	if path == "" {
		if memo.finder == nil {
			memo.finder = config.NewFinder(discovery(env))
		}
		found, err := memo.finder.Find(start)
		if err != nil {
			return nil, err
		}
		if w := found.Warning(); w != "" {
			fmt.Fprintf(env.ErrOut, "wop: warning: %s\n", w)
		}
		path, mayRaise, want = found.Path, filepath.Dir(found.Path) == start, &found.ID
	} else {
		path = env.Abs(path)
	}
	key := fmt.Sprintf("%s|%v", path, mayRaise)
	if s, ok := memo.made[key]; ok {
		return s, nil
	}
	s := &packSettings{opt: base, limits: tarball.DefaultLimits}
	if path != "" {
		c, err := config.Load(path, config.Options{Rule: knownRule, Want: want, Profile: knownProfile})
		if err != nil {
			return nil, configError(env, path, err)
		}
		warnings, err := apply(c, s, lint.All())
		if err != nil {
			return nil, cli.Usagef("%s: %v", path, err)
		}
		for _, w := range warnings {
			fmt.Fprintf(env.ErrOut, "%s: warning: %s\n", path, w)
		}
		if !mayRaise {
			s.limits = lowerOnly(env, path, s.limits)
		}
	}
	memo.made[key] = s
	return s, nil
}

// configError is a configuration file's problems, every one, named as the
// user sees the file; or why it could not be read.
func configError(env *cli.Env, path string, err error) error {
	var problems *config.Error
	if errors.As(err, &problems) {
		problems.File = env.Rel(path)
		return cli.Usagef("%v", err)
	}
	return cli.Usagef("%s: %v", path, withoutPath(err))
}

// discovery is where and whose .wop.yaml files may apply.
func discovery(env *cli.Env) config.Discovery {
	var safe []string
	if v := env.Getenv("WOP_SAFE_DIRECTORIES"); v != "" {
		safe = filepath.SplitList(v)
	}
	home := env.Getenv("HOME")
	if runtime.GOOS == "windows" {
		home = env.Getenv("USERPROFILE")
	}
	return config.Discovery{Home: home, UID: os.Getuid(), SafeDirs: safe}
}

// knownRule checks a rule id named in a configuration file.
func knownRule(id string) (bool, string) {
	rules := lint.All()
	if r, _ := rules.Resolve(id); r != nil {
		return true, ""
	}
	if near, ok := suggest.Nearest(id, rules.IDs(), 3); ok {
		return false, fmt.Sprintf("; did you mean %q?", near)
	}
	return false, ""
}

// knownProfile checks a rule profile named in a configuration file.
func knownProfile(name string) error {
	_, err := lint.FindRuleProfile(name)
	return err
}

// lowerOnly keeps the limits a configuration above the pack lowered and
// drops, with a warning, those it raised.
func lowerOnly(env *cli.Env, path string, lim tarball.Limits) tarball.Limits {
	def := tarball.DefaultLimits
	if lim.MaxManifest <= def.MaxManifest && lim.MaxEntry <= def.MaxEntry && lim.MaxTotal <= def.MaxTotal {
		return lim
	}
	fmt.Fprintf(env.ErrOut, "wop: warning: %s: limits above the defaults apply only to the pack in the same directory; put them in the pack's own .wop.yaml\n", path)
	return tarball.Limits{MaxManifest: min(lim.MaxManifest, def.MaxManifest), MaxEntry: min(lim.MaxEntry, def.MaxEntry), MaxTotal: min(lim.MaxTotal, def.MaxTotal)}
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
	for _, src := range c.Catalog {
		if !filepath.IsAbs(src) && !catalog.IsURL(src) {
			src = filepath.Join(filepath.Dir(c.Path), filepath.FromSlash(src))
		}
		s.catalogs = append(s.catalogs, src)
	}
	if c.Host != "" {
		s.host = filepath.Join(filepath.Dir(c.Path), filepath.FromSlash(c.Host))
		if filepath.IsAbs(c.Host) {
			s.host = c.Host
		}
	}
	s.profile = c.Profile
	s.opt.Severities = map[string]diag.Severity{}
	s.opt.Ignores = map[string][]config.Glob{}
	for _, id := range slices.Sorted(maps.Keys(c.Rules)) {
		rc := c.Rules[id]
		r, warning := rules.Resolve(id)
		if r == nil {
			continue // config.Load (Options.Rule: knownRule) already refused the id
		}
		if warning != "" {
			warnings = append(warnings, fmt.Sprintf("line %d: %s", rc.Line, warning))
		}
		// config.Load checked severities and ignore globs, every problem at once.
		if sev, err := diag.ParseSeverity(rc.Severity); err == nil && rc.Severity != "" {
			s.opt.Severities[r.ID] = sev
		}
		for _, pattern := range rc.Ignore {
			if g, err := config.CompileGlob(pattern); err == nil {
				s.opt.Ignores[r.ID] = append(s.opt.Ignores[r.ID], g)
			}
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
