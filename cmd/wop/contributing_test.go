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
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
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
