// Package release_test runs the release's scripts (check-pins, publish,
// precompile-graphviz) on fixtures and loopback stand-ins, and checks the
// GitHub workflows and the Action (.github/workflows, action.yml) pin
// every third-party action by commit.
package release_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// pinned is a third-party action named by a full commit, its tag in a
// trailing comment: owner/repo[/path]@<40 hex> # vX.Y.Z.
var (
	pinned     = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(/[^@]+)?@[0-9a-f]{40}$`)
	tagComment = regexp.MustCompile(`^# v\d+(\.\d+)*$`)
)

// checkUses says what is wrong with one `uses:` value and its line comment,
// or nil: a local action (./) needs no pin; a Docker image needs a digest.
func checkUses(uses, comment string) error {
	switch {
	case strings.HasPrefix(uses, "./"):
		return nil
	case strings.HasPrefix(uses, "docker://"):
		if !strings.Contains(uses, "@sha256:") {
			return fmt.Errorf("%s: name the image by digest (docker://IMAGE@sha256:...), not by a tag that can move", uses)
		}
		return nil
	case !pinned.MatchString(uses):
		return fmt.Errorf("%s: pin the action by its full 40-hex commit (OWNER/REPO@SHA # vX.Y.Z): a tag or branch can be moved to other code", uses)
	case !tagComment.MatchString(comment):
		return fmt.Errorf("%s: say which release the commit is in a trailing comment (# vX.Y.Z), got %q", uses, comment)
	}
	return nil
}

// usesIn walks a workflow or action.yml and calls f with every `uses:`
// value node and its line.
func usesIn(n *yaml.Node, f func(v *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k, v := n.Content[i], n.Content[i+1]; k.Value == "uses" && v.Kind == yaml.ScalarNode {
				f(v)
			}
		}
	}
	for _, c := range n.Content {
		usesIn(c, f)
	}
}

func TestCheckUses(t *testing.T) {
	sha := "11bd71901bbe5b1630ceea73d27597364c9af683"
	tests := []struct {
		uses, comment string
		ok            bool
	}{
		{"actions/checkout@" + sha, "# v4.2.2", true},
		{"github/codeql-action/upload-sarif@" + sha, "# v4", true},
		{"./", "", true},
		{"./.github/actions/x", "", true},
		{"docker://alpine@sha256:" + strings.Repeat("a", 64), "", true},
		{"actions/checkout@v4", "", false},
		{"actions/checkout@main", "", false},
		{"actions/checkout@" + sha[:7], "# v4.2.2", false},
		{"actions/checkout@" + strings.ToUpper(sha), "# v4.2.2", false},
		{"actions/checkout@" + sha, "", false},
		{"actions/checkout@" + sha, "# latest", false},
		{"docker://alpine:3.20", "", false},
	}
	for _, tt := range tests {
		if err := checkUses(tt.uses, tt.comment); (err == nil) != tt.ok {
			t.Errorf("checkUses(%q, %q) = %v, want ok %v", tt.uses, tt.comment, err, tt.ok)
		}
	}
}

// TestActionsPinnedByCommit: every `uses:` in .github/workflows and
// action.yml passes checkUses.
func TestActionsPinnedByCommit(t *testing.T) {
	files, err := filepath.Glob("../.github/workflows/*.y*ml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows under .github/workflows: %v", err)
	}
	n := 0
	for _, file := range append(files, "../action.yml") {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		usesIn(&doc, func(v *yaml.Node) {
			n++
			if err := checkUses(v.Value, v.LineComment); err != nil {
				t.Errorf("%s:%d: %v", strings.TrimPrefix(file, "../"), v.Line, err)
			}
		})
	}
	if n == 0 {
		t.Error("no uses: found: the walk is broken")
	}
}
