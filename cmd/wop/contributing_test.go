package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestContributingListsEveryFuzzTarget: CONTRIBUTING.md's fuzz table is
// how a contributor finds what to run, so each package's row names exactly
// its fuzz targets (FuzzHintsIn was once missing).
func TestContributingListsEveryFuzzTarget(t *testing.T) {
	raw, err := os.ReadFile("../../CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string][]string{}
	for _, m := range regexp.MustCompile(`(?m)^\| (\S+) \| (Fuzz[^|]*) \|$`).FindAllStringSubmatch(string(raw), -1) {
		listed[m[1]] = strings.Split(m[2], ", ")
	}
	found := map[string][]string{}
	fuzzFunc := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return skipOutsideModule(path, d.Name())
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../../")))
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(src), -1) {
			found[pkg] = append(found[pkg], m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg, targets := range found {
		slices.Sort(targets)
		if !slices.Equal(listed[pkg], targets) {
			t.Errorf("CONTRIBUTING.md lists %v for %s; its fuzz targets are %v", listed[pkg], pkg, targets)
		}
	}
	for pkg := range listed {
		if found[pkg] == nil {
			t.Errorf("CONTRIBUTING.md lists fuzz targets for %s, which has none", pkg)
		}
	}
}

// skipOutsideModule skips what the go tool leaves out of this module:
// testdata, dot and underscore folders, and a folder holding its own go.mod
// (bench/out/base-src, a copy of main that bench scripts unpack).
func skipOutsideModule(path, name string) error {
	if path == "../.." {
		return nil
	}
	if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return filepath.SkipDir
	}
	if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
		return filepath.SkipDir
	}
	return nil
}
