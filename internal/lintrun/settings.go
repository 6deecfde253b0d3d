package lintrun

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
	"sync"

	"github.com/wop-cli/wop/hosts"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/suggest"
	"github.com/wop-cli/wop/internal/tarball"
)

// Settings are what a pack's configuration decides: lint options and the
// size ceilings the pack is read with.
type Settings struct {
	Opt          lint.Options
	Limits       tarball.Limits
	KeyID        string   // .wop.yaml keyId: the default signing key id
	AllowOrigins []string // .wop.yaml allowOrigins, checked
	Catalogs     []string // the configuration's catalog sources: absolute paths or URLs
	Host         string   // the configuration's host profile file, absolute; "" if none
	Profile      string   // the configuration's rule profile; "" if none
	// ConfigPath is the configuration file applied ("" for none).
	ConfigPath string
	// Overrides are its entries that lower or ignore an enforced rule
	// (lint.Rule.Enforced): lint honours them, build and publish do not.
	Overrides []Override
}

// SettingsMemo holds, for one run, the settings already made (by
// configuration file) and the .wop.yaml search's answers for directories
// already passed: the packs of a folder share every ancestor.
type SettingsMemo struct {
	made   map[string]*Settings
	finder *config.Finder // made on first use, with the run's Env
	// absent are configuration files on disk the search passes over (the
	// commit removes them from git: see plan.unstaged).
	absent []string
}

// NewSettingsMemo returns an empty memo.
func NewSettingsMemo() *SettingsMemo {
	return &SettingsMemo{made: map[string]*Settings{}}
}

// SettingsFor finds the configuration for a pack (explicit, WOP_CONFIG, or
// .wop.yaml upward from it) and turns it into lint options. Configs are
// read once per memo; overlay (absolute path -> contents) stands for files
// on disk. A discovered file another user owns is ignored with a warning,
// and only the file next to the pack (or one the user named) may raise the
// size limits: an ancestor's cannot let a bomb in.
func SettingsFor(env *Env, explicit, packPath string, base lint.Options, memo *SettingsMemo, overlay map[string][]byte) (*Settings, error) {
	start := packPath // a pack directory, or a pack.json or .tgz in one
	if info, err := os.Stat(packPath); err == nil && !info.IsDir() {
		start = filepath.Dir(packPath)
	}
	path, mayRaise := cmp.Or(explicit, env.Getenv("WOP_CONFIG")), true
	var want *safefile.Identity
	if path == "" {
		if memo.finder == nil {
			d := Discovery(env)
			if len(overlay) > 0 { // the editor's buffers: a new .wop.yaml applies before it is saved
				d.Unsaved = func(p string) bool { _, ok := overlay[p]; return ok }
			}
			if len(memo.absent) > 0 {
				d.Absent = func(p string) bool { return absentFrom(memo.absent, p) }
			}
			memo.finder = config.NewFinder(d)
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
	s := &Settings{Opt: base, Limits: tarball.DefaultLimits, ConfigPath: path}
	if path != "" {
		c, err := loadConfig(path, want, overlay, env.Invoked)
		if err != nil {
			return nil, ConfigError(env, path, err)
		}
		warnings, err := apply(c, s, lint.All())
		if err != nil {
			return nil, inputf("%s: %v", path, err)
		}
		for _, w := range warnings {
			fmt.Fprintf(env.ErrOut, "%s: warning: %s\n", path, w)
		}
		if !mayRaise {
			s.Limits = lowerOnly(env, path, s.Limits)
		}
	}
	memo.made[key] = s
	return s, nil
}

// loadConfig reads a configuration file, or parses its overlaid contents.
func loadConfig(path string, want *safefile.Identity, overlay map[string][]byte, invoked invocation.Name) (*config.Config, error) {
	opt := config.Options{Rule: KnownRule, Want: want, Profile: knownProfile, Invoked: invoked}
	if raw, ok := overlay[path]; ok {
		if len(raw) > config.MaxSize {
			return nil, fmt.Errorf("%d bytes, more than a configuration file may hold (%d)", len(raw), config.MaxSize)
		}
		return config.Parse(path, raw, opt)
	}
	return config.Load(path, opt)
}

// knownProfile checks a rule profile named in a configuration file.
func knownProfile(name string) error {
	_, err := lint.FindRuleProfile(name)
	return err
}

// PackConfig loads the configuration of the pack in dir for the commands
// that read its breaking: section (bump, breaking, lint --against): explicit
// (--config), WOP_CONFIG, or .wop.yaml found upward; a pack without one
// gets the zero Config.
func PackConfig(env *Env, explicit, dir string) (*config.Config, error) {
	path := cmp.Or(explicit, env.Getenv("WOP_CONFIG"))
	var want *safefile.Identity
	if path != "" {
		path = env.Abs(path)
	} else {
		found, err := config.Find(dir, Discovery(env))
		if err != nil {
			return nil, err
		}
		if w := found.Warning(); w != "" {
			fmt.Fprintf(env.ErrOut, "wop: warning: %s\n", w)
		}
		if found.Path == "" {
			return &config.Config{}, nil
		}
		path, want = found.Path, &found.ID
	}
	c, err := config.Load(path, config.Options{Rule: KnownRule, Want: want, Profile: knownProfile, Invoked: env.Invoked})
	if err != nil {
		return nil, ConfigError(env, path, err)
	}
	return c, nil
}

// ConfigError is a configuration file's problems, every one, named as the
// user sees the file; or why it could not be read.
func ConfigError(env *Env, path string, err error) error {
	var problems *config.Error
	if errors.As(err, &problems) {
		problems.File = env.Rel(path)
		return &InputError{Err: err}
	}
	return inputf("%s: %v", path, WithoutPath(err))
}

// Discovery is where and whose .wop.yaml files may apply.
func Discovery(env *Env) config.Discovery {
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

// KnownRule checks a rule id named in a configuration file; for an unknown
// one it names the id meant, sure when no other was as close.
func KnownRule(id string) (ok bool, meant string, sure bool) {
	rules := lint.All()
	if r, _ := rules.Resolve(id); r != nil {
		return true, "", false
	}
	meant, sure = suggest.Guess(id, rules.IDs(), 3)
	return false, meant, sure
}

// lowerOnly keeps the limits a configuration above the pack lowered and
// drops, with a warning, those it raised.
func lowerOnly(env *Env, path string, lim tarball.Limits) tarball.Limits {
	def := tarball.DefaultLimits
	if lim.MaxManifest <= def.MaxManifest && lim.MaxEntry <= def.MaxEntry && lim.MaxTotal <= def.MaxTotal && lim.Entries() <= def.Entries() {
		return lim
	}
	fmt.Fprintf(env.ErrOut, "wop: warning: %s: limits above the defaults apply only to the pack in the same directory; put them in the pack's own .wop.yaml\n", path)
	return tarball.Limits{MaxManifest: min(lim.MaxManifest, def.MaxManifest), MaxEntry: min(lim.MaxEntry, def.MaxEntry), MaxTotal: min(lim.MaxTotal, def.MaxTotal), MaxEntries: min(lim.Entries(), def.Entries())}
}

// apply turns a configuration into settings. An id of a deprecated rule is
// read as its replacement, with a warning.
func apply(c *config.Config, s *Settings, rules lint.Rules) (warnings []string, err error) {
	for _, o := range c.AllowOrigins {
		if _, err := registry.ParseOrigin(o); err != nil {
			return nil, fmt.Errorf("allowOrigins: %w", err)
		}
	}
	s.AllowOrigins = c.AllowOrigins
	s.Opt.Profile = lint.Profile{Public: c.Registry == "public", SchemaBase: c.SchemaBase}
	s.KeyID = c.KeyID
	for _, src := range c.Catalog {
		if !filepath.IsAbs(src) && !catalog.IsURL(src) {
			src = filepath.Join(filepath.Dir(c.Path), filepath.FromSlash(src))
		}
		s.Catalogs = append(s.Catalogs, src)
	}
	if c.Host != "" {
		s.Host = c.Host
		if !filepath.IsAbs(c.Host) && hosts.Named(c.Host) == nil {
			s.Host = filepath.Join(filepath.Dir(c.Path), filepath.FromSlash(c.Host))
		}
	}
	s.Profile = c.Profile
	s.Opt.Severities = map[string]diag.Severity{}
	s.Opt.Ignores = map[string][]config.Glob{}
	for _, id := range slices.Sorted(maps.Keys(c.Rules)) {
		rc := c.Rules[id]
		r, warning := rules.Resolve(id)
		if r == nil {
			continue // config.Load (Options.Rule: KnownRule) already refused the id
		}
		if warning != "" {
			warnings = append(warnings, fmt.Sprintf("line %d: %s", rc.Line, warning))
		}
		// config.Load checked severities and ignore globs, every problem at once.
		if sev, err := diag.ParseSeverity(rc.Severity); err == nil && rc.Severity != "" {
			s.Opt.Severities[r.ID] = sev
			if r.Enforced {
				s.Overrides = append(s.Overrides, Override{Rule: r.ID, Written: id, Short: rc.Short, At: rc.SeverityAt, Severity: sev, Default: r.Severity})
			}
		}
		for _, pattern := range rc.Ignore {
			if g, err := config.CompileGlob(pattern); err == nil {
				s.Opt.Ignores[r.ID] = append(s.Opt.Ignores[r.ID], g)
			}
		}
		if r.Enforced && len(s.Opt.Ignores[r.ID]) > 0 {
			s.Overrides = append(s.Overrides, Override{Rule: r.ID, Written: id, At: rc.IgnoreAt, Ignore: s.Opt.Ignores[r.ID], Default: r.Severity})
		}
		if len(rc.Patterns) > 0 {
			res, err := lint.CompilePatterns(rc.Patterns)
			if err != nil {
				return warnings, fmt.Errorf("line %d: rule %s: %w", rc.Line, id, err)
			}
			if s.Opt.Patterns == nil {
				s.Opt.Patterns = map[string][]*regexp.Regexp{}
			}
			s.Opt.Patterns[r.ID] = res
		}
	}
	m, f, p, _ := c.Limits.Bytes()
	if m > 0 {
		s.Limits.MaxManifest = m
	}
	if f > 0 {
		s.Limits.MaxEntry = f
	}
	if p > 0 {
		s.Limits.MaxTotal = p
	}
	if n, _ := c.Limits.EntryCount(); n > 0 {
		s.Limits.MaxEntries = n
	}
	return warnings, nil
}

// LintOptions are the lint options every command uses: the public profile
// and the result cache (unless disabled, or the binary cannot be
// identified). A cache that cannot be written is said once, as a warning.
func LintOptions(env *Env, noCache bool) lint.Options {
	opt := lint.Options{CacheSalt: env.Version + "|" + env.BuildID}
	if !noCache && env.BuildID != "" {
		opt.Cache.Dir, opt.Cache.Now = env.CacheDir, env.Now
		var once sync.Once
		opt.Cache.Warn = func(err error) {
			once.Do(func() {
				fmt.Fprintf(env.ErrOut, "wop: warning: results not cached: %v (set WOP_CACHE_DIR to a writable directory, or WOP_CACHE_DIR=off)\n", err)
			})
		}
	}
	return opt
}
