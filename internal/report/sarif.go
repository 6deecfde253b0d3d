package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/Masterminds/semver/v3"

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
	Tool               sarifTool                `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                   `json:"columnKind"`
	Results            []sarifResult            `json:"results"`
	Properties         *sarifRunProperties      `json:"properties,omitempty"`
	Invocations        []sarifInvocation        `json:"invocations,omitempty"`
}

// sarifInvocation records how the run went; wop writes one only to carry
// a notification (an incomplete catalog). The findings are complete as far
// as they go, so the execution counts as successful.
type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications"`
}

// sarifNotification is a condition met while running, not a finding.
type sarifNotification struct {
	Descriptor sarifDescriptorRef `json:"descriptor"`
	Level      string             `json:"level"`
	Message    sarifMessage       `json:"message"`
	Properties map[string]int     `json:"properties,omitempty"`
}

type sarifDescriptorRef struct {
	ID string `json:"id"`
}

// sarifRunProperties is the run's property bag: the packs judged and the
// spec generation each was judged by.
type sarifRunProperties struct {
	Packs []PackSpec `json:"openwopPacks"`
}

// sarifDriverProperties is the tool's property bag: the OpenWOP spec
// versions its embedded files are pinned to.
type sarifDriverProperties struct {
	Spec map[string]string `json:"openwopSpec"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string                 `json:"name"`
	Version         string                 `json:"version"`
	SemanticVersion string                 `json:"semanticVersion,omitempty"`
	InformationURI  string                 `json:"informationUri"`
	Rules           []sarifRule            `json:"rules"`
	Properties      *sarifDriverProperties `json:"properties,omitempty"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	FullDescription      sarifMessage `json:"fullDescription"`
	Help                 sarifHelp    `json:"help"`
	HelpURI              string       `json:"helpUri"`
	DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
}

// sarifHelp is a rule's help: GitHub code scanning shows markdown where
// given, text otherwise.
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
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
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
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

// srcRoot is the uriBaseId relative artifact URIs hang from: the directory
// wop ran in, normally the repository root GitHub resolves them against.
const srcRoot = "%SRCROOT%"

func printSARIF(w io.Writer, in Input) error {
	index := map[string]int{}
	driver := sarifDriver{Name: in.Tool, Version: in.Version, SemanticVersion: semanticVersion(in.Version), InformationURI: repoURL, Rules: []sarifRule{}}
	for i, r := range in.Rules {
		index[r.ID] = i
		driver.Rules = append(driver.Rules, sarifRuleOf(r))
	}
	if in.Spec != nil {
		driver.Properties = &sarifDriverProperties{Spec: in.Spec}
	}
	run := sarifRun{Tool: sarifTool{driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	if len(in.Packs) > 0 {
		run.Properties = &sarifRunProperties{Packs: in.Packs}
	}
	if in.Incomplete != nil {
		run.Invocations = []sarifInvocation{{ExecutionSuccessful: true, ToolExecutionNotifications: []sarifNotification{{
			Descriptor: sarifDescriptorRef{ID: "catalog-incomplete"}, Level: "warning",
			Message: sarifMessage{in.Incomplete.Message}, Properties: map[string]int{"skipped": in.Incomplete.Skipped}}}}}
	}
	if in.BaseDir != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifact{srcRoot: {URI: fileURI(in.BaseDir) + "/"}}
	}
	for _, d := range in.Diags {
		// GitHub needs a region on every result; a whole-file finding is
		// shown on the file's first line.
		region := &sarifRegion{StartLine: 1}
		if d.Start.Line > 0 {
			region = &sarifRegion{StartLine: d.Start.Line, StartColumn: d.Start.Column}
		}
		loc := sarifPhysical{ArtifactLocation: artifactOf(d.File), Region: region}
		run.Results = append(run.Results, sarifResult{RuleID: d.Rule, RuleIndex: index[d.Rule], Level: sarifLevel(d.Severity),
			Message: sarifMessage{d.Message}, Locations: []sarifLocation{{loc}}})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifRuleOf describes a rule from the registry and, where loaded, its
// catalogue prose.
func sarifRuleOf(r diag.RuleInfo) sarifRule {
	full, help := r.Summary, r.Summary
	if r.Doc != "" {
		full, _, _ = strings.Cut(r.Doc, "\n\n") // the first paragraph
		full = strings.Join(strings.Fields(full), " ")
		help = r.Doc
	}
	helpURI := RuleDocURL(r.ID)
	return sarifRule{
		ID:                   r.ID,
		Name:                 r.ID,
		ShortDescription:     sarifMessage{r.Summary},
		FullDescription:      sarifMessage{full},
		Help:                 sarifHelp{Text: help + "\n\n" + helpURI, Markdown: help + "\n\n[" + r.ID + " in the rule catalogue](" + helpURI + ")"},
		HelpURI:              helpURI,
		DefaultConfiguration: sarifConfig{sarifLevel(r.Severity)},
	}
}

// artifactOf names a finding's file: an absolute path as a file:// URI, a
// relative one as a percent-encoded URI relative to %SRCROOT%.
func artifactOf(file string) sarifArtifact {
	if path.IsAbs(file) || filepath.IsAbs(file) {
		return sarifArtifact{URI: fileURI(file)}
	}
	return sarifArtifact{URI: (&url.URL{Path: file}).EscapedPath(), URIBaseID: srcRoot}
}

func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// semanticVersion is the version as SemVer without a leading "v" ("" when
// it is not one, e.g. a development build's "(devel)").
func semanticVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if _, err := semver.StrictNewVersion(v); err != nil {
		return ""
	}
	return v
}

// RuleDocURL is where a rule's documentation is: its section of
// docs/rules.md (SARIF's helpUri, the language server's codeDescription).
func RuleDocURL(id string) string { return repoURL + "/blob/main/docs/rules.md#" + id }
