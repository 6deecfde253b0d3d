package report

import (
	"encoding/json"
	"io"

	"github.com/wop-cli/wop/internal/diag"
)

// SARIF 2.1.0, the subset GitHub code scanning reads. Structs, not maps, so
// the output is stable.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	HelpURI              string       `json:"helpUri"`
	DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

const repoURL = "https://github.com/wop-cli/wop"

func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

func printSARIF(w io.Writer, in Input) error {
	index := map[string]int{}
	driver := sarifDriver{Name: in.Tool, Version: in.Version, InformationURI: repoURL, Rules: []sarifRule{}}
	for i, r := range in.Rules {
		index[r.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{ID: r.ID, ShortDescription: sarifMessage{r.Summary},
			HelpURI: repoURL + "/blob/main/docs/rules.md#" + r.ID, DefaultConfiguration: sarifConfig{sarifLevel(r.Severity)}})
	}
	run := sarifRun{Tool: sarifTool{driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	for _, d := range in.Diags {
		loc := sarifPhysical{ArtifactLocation: sarifArtifact{URI: d.File}}
		if d.Start.Line > 0 {
			loc.Region = &sarifRegion{StartLine: d.Start.Line, StartColumn: d.Start.Column}
		}
		run.Results = append(run.Results, sarifResult{RuleID: d.Rule, RuleIndex: index[d.Rule], Level: sarifLevel(d.Severity),
			Message: sarifMessage{d.Message}, Locations: []sarifLocation{{loc}}})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}
