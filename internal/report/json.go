package report

import (
	"encoding/json"
	"io"

	"github.com/wop-cli/wop/internal/diag"
)

// JSONVersion is the version of the json output shape; it changes only on a
// breaking change. The shape is documented in docs/json-output.md.
const JSONVersion = 1

type jsonReport struct {
	Version     int               `json:"version"`
	Tool        string            `json:"tool"`
	ToolVersion string            `json:"toolVersion"`
	Spec        map[string]string `json:"spec,omitempty"`
	Packs       []PackSpec        `json:"packs,omitempty"`
	Catalog     *Incomplete       `json:"catalogIncomplete,omitempty"`
	Diagnostics []jsonDiagnostic  `json:"diagnostics"`
	Summary     jsonSummary       `json:"summary"`
}

// jsonSummary is the counts of the diagnostics printed, and of the
// findings the configuration's ignore lists dropped.
type jsonSummary struct {
	diag.Counts
	Ignored int `json:"ignored"`
}

type jsonDiagnostic struct {
	Rule     string        `json:"rule"`
	Severity diag.Severity `json:"severity"`
	File     string        `json:"file"`
	Pointer  string        `json:"pointer"`
	Line     int           `json:"line"`   // 1-based; 0 when the finding is about the whole file
	Column   int           `json:"column"` // 1-based, in code points; 0 when unknown
	Message  string        `json:"message"`
}

func printJSON(w io.Writer, in Input) error {
	r := jsonReport{Version: JSONVersion, Tool: in.Tool, ToolVersion: in.Version, Spec: in.Spec, Packs: in.Packs,
		Catalog: in.Incomplete, Diagnostics: []jsonDiagnostic{}, Summary: jsonSummary{Counts: diag.Count(in.Diags), Ignored: in.Ignored}}
	for _, d := range in.Diags {
		r.Diagnostics = append(r.Diagnostics, jsonDiagnostic{Rule: d.Rule, Severity: d.Severity, File: d.File, Pointer: d.Pointer,
			Line: d.Start.Line, Column: d.Start.Column, Message: d.Message})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
