package lintcache

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

var findings = []diag.Diagnostic{{Rule: "json-duplicate-key", Severity: diag.Error, File: "p/pack.json", Pointer: "/name", Start: diag.Position{Line: 1, Column: 2}, Message: "duplicate key"}}

func mustKey(t *testing.T, v any) string {
	t.Helper()
	k, err := Key(v)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestStoreLoadRoundTrip(t *testing.T) {
	c := Cache{Dir: t.TempDir()}
	key := mustKey(t, "a")
	if _, ok := c.Load(key); ok {
		t.Fatal("hit in an empty cache")
	}
	c.Store(key, findings)
	got, ok := c.Load(key)
	if !ok || !reflect.DeepEqual(got, findings) {
		t.Fatalf("Load = %v, %v", got, ok)
	}
	c.Store(key, nil)
	if got, ok := c.Load(key); !ok || len(got) != 0 {
		t.Fatalf("no findings must round-trip as a hit with none: %v, %v", got, ok)
	}
}

// TestUnrepresentableFindingsAreNotStored: a finding naming a file whose
// name is not UTF-8 would come back altered from JSON, so it is not cached.
func TestUnrepresentableFindingsAreNotStored(t *testing.T) {
	c := Cache{Dir: t.TempDir(), Warn: func(err error) { t.Error(err) }}
	key := mustKey(t, "a")
	bad := []diag.Diagnostic{{Rule: "path-unsafe", File: "p/00\x92.md", Message: "non-ASCII"}}
	c.Store(key, bad)
	if got, ok := c.Load(key); ok {
		t.Fatalf("hit with %+v", got)
	}
}

// TestBadEntriesAreMisses: whatever sits at an entry's path, only an
// entry written whole, in this format, for this key is a hit.
func TestBadEntriesAreMisses(t *testing.T) {
	c := Cache{Dir: t.TempDir()}
	key, other := mustKey(t, "a"), mustKey(t, "b")
	c.Store(key, findings)
	good, err := os.ReadFile(c.path(key))
	if err != nil {
		t.Fatal(err)
	}
	c.Store(other, nil)
	foreign, _ := os.ReadFile(c.path(other))
	var e entry
	if err := json.Unmarshal(good, &e); err != nil {
		t.Fatal(err)
	}
	reencode := func(edit func(*entry)) string {
		e2 := e
		edit(&e2)
		raw, _ := json.Marshal(e2)
		return string(raw)
	}
	bad := map[string]string{
		"empty":               "",
		"null":                "null",
		"empty object":        "{}",
		"empty array":         "[]",
		"garbage":             "\x00\xff not json",
		"truncated":           string(good[:len(good)/2]),
		"version 1 entry":     `{"Diags":[]}`,
		"foreign key":         string(foreign),
		"old format":          reencode(func(e *entry) { e.Format = "wop-lint-cache/1" }),
		"no format":           reencode(func(e *entry) { e.Format = "" }),
		"findings edited":     strings.Replace(string(good), "duplicate key", "fine", 1),
		"findings dropped":    reencode(func(e *entry) { e.Diags = json.RawMessage("[]") }),
		"findings null":       reencode(func(e *entry) { e.Diags = json.RawMessage("null") }),
		"findings missing":    reencode(func(e *entry) { e.Diags = nil }),
		"sum missing":         reencode(func(e *entry) { e.Sum = "" }),
		"findings not a list": reencode(func(e *entry) { e.Diags = json.RawMessage(`{"Rule":"x"}`) }),
	}
	for name, raw := range bad {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(c.path(key), []byte(raw), 0o644); err != nil {
				t.Fatal(err)
			}
			if got, ok := c.Load(key); ok {
				t.Fatalf("hit with %v", got)
			}
		})
	}
	if _, ok := c.Load("../../etc/passwd"); ok {
		t.Fatal("a malformed key was looked up")
	}
}

// TestUnwritableCacheWarns: a cache directory that cannot be written is a
// warning through Warn, never a failure or a panic.
func TestUnwritableCacheWarns(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var warned []error
	c := Cache{Dir: file, Warn: func(err error) { warned = append(warned, err) }}
	key := mustKey(t, "a")
	c.Store(key, findings)
	if len(warned) != 1 || !strings.Contains(warned[0].Error(), "lint cache") {
		t.Fatalf("warnings: %v", warned)
	}
	if _, ok := c.Load(key); ok {
		t.Fatal("hit from an unwritable cache")
	}
	Cache{Dir: file}.Store(key, findings) // no Warn: ignored quietly
}

// TestConcurrentWritersNeverTearEntries: many runs storing and loading the
// same keys at once only ever see a miss or the right findings.
func TestConcurrentWritersNeverTearEntries(t *testing.T) {
	c := Cache{Dir: t.TempDir(), Warn: func(err error) { t.Error(err) }}
	keys := []string{mustKey(t, "a"), mustKey(t, "b")}
	want := map[string][]diag.Diagnostic{keys[0]: findings, keys[1]: {}}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				k := keys[(i+j)%2]
				c.Store(k, want[k])
				if got, ok := c.Load(k); ok && !reflect.DeepEqual(got, want[k]) {
					t.Errorf("torn or foreign entry: %v", got)
				}
			}
		})
	}
	wg.Wait()
}

func TestKeyDigestsEveryField(t *testing.T) {
	type in struct {
		A string
		M map[string]int
	}
	k1 := mustKey(t, in{A: "x", M: map[string]int{"a": 1, "b": 2}})
	if k1 != mustKey(t, in{A: "x", M: map[string]int{"b": 2, "a": 1}}) {
		t.Error("map order changed the key")
	}
	for _, v := range []in{{A: "y", M: map[string]int{"a": 1, "b": 2}}, {A: "x", M: map[string]int{"a": 1}}} {
		if mustKey(t, v) == k1 {
			t.Errorf("%+v has the same key", v)
		}
	}
	if _, err := Key(make(chan int)); err == nil || errors.Unwrap(err) == nil {
		t.Errorf("unencodable inputs: %v", err)
	}
}

// TestStampMovesWithEdits: the stamp RunCached compares around a lint
// changes when a file is edited, replaced or removed.
func TestStampMovesWithEdits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pack.json", "{}")
	write("a.md", "a")
	load := func() *pack.Pack {
		pk, err := pack.Load(dir, tarball.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		return pk
	}
	pk := load()
	before := StampOf(pk)
	if !slices.Equal(StampOf(pk), before) {
		t.Fatal("the stamp of an untouched pack moved")
	}
	edits := map[string]func(){
		"grown":   func() { write("a.md", "ab") },
		"touched": func() { os.Chtimes(filepath.Join(dir, "a.md"), time.Now(), time.Unix(1, 0)) },
		"removed": func() { os.Remove(filepath.Join(dir, "a.md")) },
	}
	for _, name := range []string{"grown", "touched", "removed"} {
		prev := StampOf(pk)
		edits[name]()
		if slices.Equal(StampOf(pk), prev) {
			t.Errorf("%s: the stamp did not move", name)
		}
	}
}
