package lint

import (
	"embed"
	"fmt"
	"strings"

	"golang.org/x/tools/txtar"
)

// The catalog holds one txtar per rule: its prose (the archive comment), a
// bad and a fixed example pack, and what wop prints for the bad one. Only
// --explain and the tests read it; linting never does.
//
//go:embed catalog/*.txtar
var catalogFS embed.FS

// ExampleFile is one file of a catalog example. A name ending in
// "@symlink" is a symbolic link whose target is Data.
type ExampleFile struct {
	Name string
	Data string
}

// RuleDoc is a rule's catalog entry.
type RuleDoc struct {
	Prose     string
	Bad, Good []ExampleFile
	// Catalog, when set, is a folder of packs the examples are linted
	// against (as --catalog), for rules that need other packs' facts.
	Catalog []ExampleFile
	Want    string // text output of linting Bad, this rule's findings only
	// TestLimits are reduced size ceilings for the example (a 5 MB file does
	// not belong in the binary), from a "test-limits:" line in the prose.
	TestLimits string
	// Spec is the --spec the examples are linted with (auto when empty),
	// from a "lint-spec:" line in the prose: a rule that only fires when a
	// tree is forced shows it.
	Spec string
}

// Explain returns the catalog entry of rule id.
func Explain(id string) (*RuleDoc, error) {
	raw, err := catalogFS.ReadFile("catalog/" + id + ".txtar")
	if err != nil {
		return nil, fmt.Errorf("rule %s has no catalog entry: this is a bug in wop", id)
	}
	return parseRuleDoc(raw), nil
}

func parseRuleDoc(raw []byte) *RuleDoc {
	a := txtar.Parse(raw)
	doc := &RuleDoc{}
	var prose []string
	for _, line := range strings.Split(string(a.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, "test-limits:"); ok {
			doc.TestLimits = strings.TrimSpace(v)
			continue
		}
		if v, ok := strings.CutPrefix(line, "lint-spec:"); ok {
			doc.Spec = strings.TrimSpace(v)
			continue
		}
		prose = append(prose, line)
	}
	doc.Prose = strings.Join(prose, "\n")
	for _, f := range a.Files {
		switch {
		case f.Name == "want":
			doc.Want = string(f.Data)
		case strings.HasPrefix(f.Name, "bad/"):
			doc.Bad = append(doc.Bad, ExampleFile{strings.TrimPrefix(f.Name, "bad/"), string(f.Data)})
		case strings.HasPrefix(f.Name, "catalog/"):
			doc.Catalog = append(doc.Catalog, ExampleFile{strings.TrimPrefix(f.Name, "catalog/"), string(f.Data)})
		case strings.HasPrefix(f.Name, "good/"):
			doc.Good = append(doc.Good, ExampleFile{strings.TrimPrefix(f.Name, "good/"), string(f.Data)})
		}
	}
	return doc
}
