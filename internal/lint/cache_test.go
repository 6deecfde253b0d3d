package lint

import (
	"archive/tar"
	"github.com/wop-cli/wop/internal/catalog"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lintcache"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/hostile"
)

// cacheCase is one lint of one pack: how it is written and read.
type cacheCase struct {
	entries []hostile.Entry
	archive bool
	dirName string // the pack directory's (or archive's) base name
	limits  tarball.Limits
	opt     Options
}

// materialise writes c under base and returns the path to lint.
func (c cacheCase) materialise(t testing.TB, base string) string {
	t.Helper()
	p := filepath.Join(base, c.dirName)
	if !c.archive {
		if err := hostile.WriteDir(p, c.entries); err != nil {
			t.Fatal(err)
		}
		return p
	}
	raw, err := hostile.Archive(c.entries)
	if err != nil {
		t.Skip(err) // not encodable (e.g. a PAX record archive/tar rejects)
	}
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lintWith lints path with opt and the given cache ("" for none).
func lintWith(t testing.TB, path string, c cacheCase, cacheDir string) ([]diag.Diagnostic, bool) {
	t.Helper()
	pk, err := pack.Load(path, c.limits)
	if err != nil {
		return nil, false // not a pack: nothing is cached either
	}
	pk.Display = "packs/" + filepath.Base(path)
	opt := c.opt
	opt.Cache = lintcache.Cache{Dir: cacheDir, Warn: func(err error) { t.Errorf("cache warning: %v", err) }}
	ds, err := RunCached(pk, opt)
	if err != nil {
		t.Fatal(err)
	}
	return ds, true
}

// assertSameAsUncached lints c twice with cacheDir (the first may hit
// whatever was linted before, the second hits its own entry) and without a
// cache, and fails on any difference.
func assertSameAsUncached(t testing.TB, base, cacheDir string, c cacheCase) {
	t.Helper()
	path := c.materialise(t, base)
	want, ok := lintWith(t, path, c, "")
	for i := range 2 {
		got, gotOK := lintWith(t, path, c, cacheDir)
		// No findings is one verdict whether the slice is nil or empty.
		if gotOK != ok || (len(got) > 0 || len(want) > 0) && !reflect.DeepEqual(got, want) {
			t.Fatalf("cached run %d differs from --no-cache:\ncached:   %+v\nuncached: %+v", i+1, got, want)
		}
	}
}

func globs(t testing.TB, patterns ...string) []config.Glob {
	t.Helper()
	var out []config.Glob
	for _, p := range patterns {
		g, err := config.CompileGlob(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

func clean(archive bool) cacheCase {
	name := "demo"
	if archive {
		name = "demo.tgz"
	}
	return cacheCase{entries: hostile.Clean(), archive: archive, dirName: name, limits: tarball.DefaultLimits, opt: Options{CacheSalt: "build-1"}}
}

// TestCacheHostileAfterCleanPrime: each hostile pack, written over a clean
// one whose result primed the cache, lints exactly as with no cache.
func TestCacheHostileAfterCleanPrime(t *testing.T) {
	for _, archive := range []bool{true, false} {
		for _, f := range hostile.Archives() {
			t.Run(f.Name+"/archive="+strconv.FormatBool(archive), func(t *testing.T) {
				base, cacheDir := t.TempDir(), t.TempDir()
				assertSameAsUncached(t, base, cacheDir, clean(archive))
				c := clean(archive)
				c.entries = f.Entries
				assertSameAsUncached(t, base, cacheDir, c)
			})
		}
	}
}

// TestCacheSettingsAfterCleanPrime: the same files under other settings
// (renamed directory, lowered limits, profile, severities, ignores,
// catalog, build) lint as with no cache.
func TestCacheSettingsAfterCleanPrime(t *testing.T) {
	variants := map[string]func(*cacheCase){
		"renamed dir":    func(c *cacheCase) { c.dirName = "community.acme.demo" },
		"lowered limits": func(c *cacheCase) { c.limits.MaxEntry = 4 },
		"lowered total":  func(c *cacheCase) { c.limits.MaxTotal = 64 },
		"manifest limit": func(c *cacheCase) { c.limits.MaxManifest = 16 },
		"public profile": func(c *cacheCase) { c.opt.Profile.Public = true },
		"schema base":    func(c *cacheCase) { c.opt.Profile.SchemaBase = "https://packs.acme.dev" },
		"severity":       func(c *cacheCase) { c.opt.Severities = map[string]diag.Severity{"name-dir-mismatch": diag.Error} },
		"rule off":       func(c *cacheCase) { c.opt.Severities = map[string]diag.Severity{"name-dir-mismatch": diag.Off} },
		"ignores":        func(c *cacheCase) { c.opt.Ignores = map[string][]config.Glob{"name-dir-mismatch": globs(t, "**")} },
		"catalog": func(c *cacheCase) {
			c.opt.Catalog = indexCatalog(t, `{"packs": [{"name": "other", "agentIds": ["community.acme.demo.a"]}]}`)
		},
		"build": func(c *cacheCase) { c.opt.CacheSalt = "build-2" },
	}
	for name, mutate := range variants {
		for _, archive := range []bool{true, false} {
			t.Run(name+"/archive="+strconv.FormatBool(archive), func(t *testing.T) {
				base, cacheDir := t.TempDir(), t.TempDir()
				assertSameAsUncached(t, base, cacheDir, clean(archive))
				c := clean(archive)
				mutate(&c)
				assertSameAsUncached(t, base, cacheDir, c)
			})
		}
	}
}

// TestCacheKeyChangesWithEachInput fails when the key ignores an input:
// contents, file names and modes, config, limits, profile, directory name,
// display, catalog or the build.
func TestCacheKeyChangesWithEachInput(t *testing.T) {
	base := t.TempDir()
	key := func(c cacheCase) string {
		t.Helper()
		pk, err := pack.Load(c.materialise(t, base), c.limits)
		if err != nil {
			t.Fatal(err)
		}
		place, err := placeOf(pk, nil)
		if err != nil {
			t.Fatal(err)
		}
		contents, err := lintcache.Digest(pk)
		if err != nil {
			t.Fatal(err)
		}
		k, err := cacheKey(pk, c.opt, place, contents)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	withEntries := func(c cacheCase, edit func([]hostile.Entry) []hostile.Entry) cacheCase {
		c.entries = edit(slices.Clone(c.entries))
		return c
	}
	for _, archive := range []bool{false, true} {
		ref := clean(archive)
		refKey := key(ref)
		if again := key(ref); again != refKey {
			t.Fatalf("archive=%v: the key is not stable: %s, then %s", archive, refKey, again)
		}
		changes := map[string]cacheCase{
			"contents": withEntries(ref, func(es []hostile.Entry) []hostile.Entry {
				es[1].Data = []byte("You are B.\n")
				return es
			}),
			"file name": withEntries(ref, func(es []hostile.Entry) []hostile.Entry {
				es[1].Name = "prompts/b.md"
				return es
			}),
			"extra file": withEntries(ref, func(es []hostile.Entry) []hostile.Entry {
				return append(es, hostile.Entry{Name: "notes.md", Type: tar.TypeReg})
			}),
			"file type": withEntries(ref, func(es []hostile.Entry) []hostile.Entry {
				es[1] = hostile.Entry{Name: es[1].Name, Type: tar.TypeSymlink, Link: "elsewhere"}
				return es
			}),
		}
		set := func(name string, mutate func(*cacheCase)) {
			c := ref
			c.opt.Severities, c.opt.Ignores = nil, nil
			mutate(&c)
			changes[name] = c
		}
		set("directory name", func(c *cacheCase) { c.dirName = "other" + filepath.Ext(c.dirName) })
		set("limits", func(c *cacheCase) { c.limits.MaxEntry = 1 << 10 })
		set("manifest limit", func(c *cacheCase) { c.limits.MaxManifest = 1 << 10 })
		set("profile", func(c *cacheCase) { c.opt.Profile.Public = true })
		set("schema base", func(c *cacheCase) { c.opt.Profile.SchemaBase = "https://x.dev" })
		set("severity", func(c *cacheCase) { c.opt.Severities = map[string]diag.Severity{"license-not-spdx": diag.Error} })
		set("ignores", func(c *cacheCase) { c.opt.Ignores = map[string][]config.Glob{"ref-missing": globs(t, "*")} })
		set("catalog", func(c *cacheCase) { c.opt.Catalog = indexCatalog(t, `{"packs": [{"name": "a", "typeIds": ["b"]}]}`) })
		set("build", func(c *cacheCase) { c.opt.CacheSalt = "build-2" })
		set("spec", func(c *cacheCase) { c.opt.Spec = spec.V2 })
		for name, c := range changes {
			if key(c) == refKey {
				t.Errorf("archive=%v: the key ignores the %s", archive, name)
			}
			c.materialise(t, base) // restore nothing: each case writes its own path
		}
		ref.materialise(t, base)
	}
}

// TestCacheKeyCoversEveryInput fails when a rule could see something the
// key does not digest: a new field on Pass, Pack or Options must be added
// to cacheInputs (or be shown here to be derived from keyed ones).
func TestCacheKeyCoversEveryInput(t *testing.T) {
	keyedBy := map[string]map[string]string{
		"Pass": {
			"Pack": "Display, Dir, Limits, Contents", "Manifest": "Contents (pack.json)", "Schemas": "Build (embedded)",
			"Profile": "Profile", "Catalog": "Catalog (its Key)", "Place": "Place", "patterns": "Patterns", "Spec": "Spec and Contents (auto reads engines)",
			"rule": "Rules", "diags": "the output", "json": "Contents", "files": "Contents", "cached": "Contents (the bytes files holds)", "scratch": "Contents (a file lent past the budget)", "refs": "Contents",
			"refsDone": "Contents", "bundle": "Contents", "bundleSet": "Contents", "jsonNames": "Contents", "chains": "Contents, Catalog and Spec (the one chain analysis of the manifest)",
			"fileRefs": "Contents", "fileRefsDone": "Contents",
		},
		"Pack": {
			"Display": "Display", "Dir": "Place", "Archive": "Contents.Archive", "Files": "Contents",
			"limits": "Limits", "archivePath": "Contents.Archive (its bytes)", "archiveID": "not an input (a re-open refuses another archive)",
			"mu": "not an input", "kept": "Contents (the bytes of files read, as first read)", "keepLeft": "not an input (how much more kept may hold)",
			"overlay": "Contents (Digest reads through it, as the rules do)",
		},
		"Options": {
			"Profile": "Profile", "Catalog": "Catalog (its Key)", "Severities": "Severity", "Ignores": "Ignores", "Patterns": "Patterns",
			"Cache": "not an input", "CacheSalt": "Build", "Spec": "Spec",
			"siblings": "Place (a memo of its SiblingPacks for one run)",
			"rules":    "Rules (All(), built once per run)",
		},
	}
	for typ, v := range map[string]any{"Pass": Pass{}, "Pack": pack.Pack{}, "Options": Options{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if _, ok := keyedBy[typ][rt.Field(i).Name]; !ok {
				t.Errorf("%s.%s is new: a rule may read it, so key it in cacheInputs and list it here", typ, rt.Field(i).Name)
			}
		}
	}
}

// TestRulesReadOnlyThroughThePass: the rules' files import nothing that
// reaches the file system, network, clock or randomness, so the Pass is
// all they read and the key covers it. Loaders (baseline, catalog) are
// not rules.
func TestRulesReadOnlyThroughThePass(t *testing.T) {
	diskReads := []string{"Abs", "Glob", "EvalSymlinks", "Walk", "WalkDir"}
	forbidden := []string{"os", "os/exec", "net", "net/http", "io/ioutil", "syscall", "time", "math/rand", "math/rand/v2", "runtime"}
	loaders := map[string]bool{"baseline.go": true, "packcatalog.go": true, "catalog.go": true, "run.go": true, "place.go": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || loaders[name] {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "filepath" && slices.Contains(diskReads, sel.Sel.Name) {
					t.Errorf("%s calls filepath.%s: rules must read only through the Pass", name, sel.Sel.Name)
				}
			}
			return true
		})
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); slices.Contains(forbidden, p) {
				t.Errorf("%s imports %s: rules must read only through the Pass, or the lint cache key misses the input", name, p)
			}
		}
	}
}

// randomCase draws a pack from the hostile fixtures' entries and random
// settings.
func randomCase(r *rand.Rand) cacheCase {
	fixtures := hostile.Archives()
	c := clean(r.IntN(2) == 0)
	c.entries = nil
	for range 1 + r.IntN(3) {
		f := fixtures[r.IntN(len(fixtures))]
		for _, e := range f.Entries {
			if r.IntN(4) > 0 {
				c.entries = append(c.entries, e)
			}
		}
	}
	if r.IntN(3) == 0 {
		c.dirName = "community.acme.demo" + filepath.Ext(c.dirName)
	}
	if r.IntN(4) == 0 {
		c.limits.MaxEntry = int64(r.IntN(64))
	}
	if r.IntN(4) == 0 {
		c.opt.Profile.Public = true
	}
	if r.IntN(4) == 0 {
		c.opt.Severities = map[string]diag.Severity{"archive-legacy-entry": diag.Error, "name-dir-mismatch": diag.Off}
	}
	if r.IntN(6) == 0 {
		c.opt.CacheSalt = "build-2"
	}
	return c
}

// TestCachePropertyAnyHistory: over random sequences of packs linted with
// one cache, written over each other at the same paths, every cached
// result equals the uncached one.
func TestCachePropertyAnyHistory(t *testing.T) {
	steps := 80
	if testing.Short() {
		steps = 30
	}
	r := rand.New(rand.NewPCG(1, 19))
	base, cacheDir := t.TempDir(), t.TempDir()
	for i := range steps {
		c := randomCase(r)
		t.Run(strconv.Itoa(i), func(t *testing.T) { assertSameAsUncached(t, base, cacheDir, c) })
	}
}

// entryTypes are the tar types a fuzzed entry may have, 'x' standing for a
// regular file with a PAX record and 'o' for one with an owner.
const entryTypes = "0125346xo"

// decodeCase reads a pack from fuzz bytes: a flags byte choosing the form
// and settings, then entries separated by NUL, each a type byte, a name
// up to a newline and the contents.
func decodeCase(data []byte) cacheCase {
	c := clean(len(data) > 0 && data[0]&1 != 0)
	if len(data) == 0 {
		return c
	}
	flags := data[0]
	if flags&2 != 0 {
		c.dirName = "community.acme.demo" + filepath.Ext(c.dirName)
	}
	if flags&4 != 0 {
		c.limits.MaxEntry = 8
	}
	if flags&8 != 0 {
		c.opt.Profile.Public = true
	}
	if flags&16 != 0 {
		c.opt.Severities = map[string]diag.Severity{"archive-legacy-entry": diag.Error}
	}
	if flags&32 != 0 {
		c.entries = nil // only the fuzzed entries, perhaps no pack.json
	}
	for _, raw := range strings.Split(string(data[1:]), "\x00") {
		if raw == "" {
			continue
		}
		name, body, _ := strings.Cut(raw[1:], "\n")
		e := hostile.Entry{Name: name, Type: entryTypes[int(raw[0])%len(entryTypes)], Data: []byte(body)}
		switch e.Type {
		case 'x':
			e.Type, e.PAX = tar.TypeReg, map[string]string{"comment": body}
		case 'o':
			e.Type, e.Owned = tar.TypeReg, true
		case tar.TypeSymlink, tar.TypeLink:
			e.Link, e.Data = body, nil
		}
		c.entries = append(c.entries, e)
	}
	return c
}

// encodeCase is decodeCase's inverse for the seeds.
func encodeCase(flags byte, entries []hostile.Entry) []byte {
	out := []byte{flags}
	for _, e := range entries {
		typ := e.Type
		body := string(e.Data)
		switch {
		case e.PAX != nil:
			typ = 'x'
		case e.Owned:
			typ = 'o'
		case e.Link != "":
			body = e.Link
		}
		out = append(out, byte(strings.IndexByte(entryTypes, typ)))
		out = append(out, e.Name+"\n"+body+"\x00"...)
	}
	return out
}

// FuzzCacheNeverChangesVerdict: whatever pack was linted before with the
// same cache, at the same path, a cached lint of any pack equals an
// uncached one.
func FuzzCacheNeverChangesVerdict(f *testing.F) {
	prime := encodeCase(0, nil)
	for _, fx := range hostile.Archives() {
		if fx.Name == "too-large" {
			continue // 5 MB seeds slow every fuzz iteration
		}
		extra := fx.Entries[min(2, len(fx.Entries)):]
		f.Add(prime, encodeCase(1, extra))
		f.Add(encodeCase(1, nil), encodeCase(1|4|16, extra))
		f.Add(prime, encodeCase(2|32, fx.Entries))
	}
	f.Fuzz(func(t *testing.T, prior, current []byte) {
		base, cacheDir := t.TempDir(), t.TempDir()
		first, second := decodeCase(prior), decodeCase(current)
		second.dirName = first.dirName // the same path, so only the key tells them apart
		if second.archive != first.archive {
			second.dirName = strings.TrimSuffix(first.dirName, ".tgz") + "-2" + filepath.Ext(second.dirName)
		}
		assertSameAsUncached(t, base, cacheDir, first)
		assertSameAsUncached(t, base, cacheDir, second)
	})
}

// indexCatalog is a catalog read from an index file with these contents.
func indexCatalog(t *testing.T, index string) *catalog.Catalog {
	t.Helper()
	path := filepath.Join(t.TempDir(), "index.json")
	if err := os.WriteFile(path, []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := catalog.LoadIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
