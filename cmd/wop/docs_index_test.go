package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsIndexListsEveryPage: docs/README.md links every page of docs/,
// and every page it links exists, so a new page cannot go unlisted.
func TestDocsIndexListsEveryPage(t *testing.T) {
	index, err := os.ReadFile("../../docs/README.md")
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+\.md)(#[^)]*)?\)`).FindAllStringSubmatch(string(index), -1) {
		linked[m[1]] = true
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if name := filepath.Base(p); name != "README.md" && !linked[name] {
			t.Errorf("docs/README.md does not list docs/%s", name)
		}
	}
	for name := range linked {
		if _, err := os.Stat(filepath.Join("../../docs", name)); err != nil && !strings.HasPrefix(name, "../") {
			t.Errorf("docs/README.md links %s, which does not exist", name)
		}
	}
}
