package publish

import (
	"encoding/json"
	"fmt"
	"io"
)

// Result is what `wop pack publish` did, as it reports it: the --format
// json shape, and the line (or lines, staged) of its text output.
type Result struct {
	Status    string `json:"status"` // published, already-published, dry-run, staged, already-staged
	Name      string `json:"name"`
	Version   string `json:"version"`
	Integrity string `json:"integrity"`
	// RegistryIntegrity is the registry's integrity for a version it held
	// already when it is not this archive's (the same tar, gzipped anew).
	RegistryIntegrity string       `json:"registryIntegrity,omitempty"`
	Registry          string       `json:"registry"`
	Archive           string       `json:"archive"`
	Staged            string       `json:"staged,omitempty"`
	Files             []StagedFile `json:"files,omitempty"` // with --stage: what the change touches
	Gate              string       `json:"gate,omitempty"`  // with --stage: the gate that passed, or why none ran
	Branch            string       `json:"branch,omitempty"`
	Spec              string       `json:"spec"` // the spec generation the archive belongs to: v1 or v2
}

// StagedFile is one file a staged change touches.
type StagedFile struct {
	Path string `json:"path"`
	Op   string `json:"op"` // added, modified, deleted
}

// WriteJSON writes r as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes what happened in words; an unknown status writes
// nothing.
func (r *Result) WriteText(w io.Writer) {
	switch r.Status {
	case "published":
		fmt.Fprintf(w, "published %s@%s to %s (%s)\n", r.Name, r.Version, r.Registry, r.Integrity)
	case "already-published":
		if r.RegistryIntegrity != "" { // set only when it is not this archive's
			fmt.Fprintf(w, "%s@%s is already published at %s with the same content (the registry's archive %s holds the tar of this one, %s, gzipped differently); nothing to do\n",
				r.Name, r.Version, r.Registry, r.RegistryIntegrity, r.Integrity)
			return
		}
		fmt.Fprintf(w, "%s@%s is already published at %s with the same content (%s); nothing to do\n", r.Name, r.Version, r.Registry, r.Integrity)
	case "dry-run":
		fmt.Fprintf(w, "dry run: %s@%s passes every check for %s (%s); nothing was sent\n", r.Name, r.Version, r.Registry, r.Integrity)
	case "staged":
		fmt.Fprintf(w, "staged %s@%s in %s (%s)\n", r.Name, r.Version, r.Staged, r.Integrity)
		for _, f := range r.Files {
			fmt.Fprintf(w, "  %-8s %s\n", f.Op, f.Path)
		}
		fmt.Fprintf(w, "gate: %s\n", r.Gate)
	case "already-staged":
		fmt.Fprintf(w, "%s@%s is already in %s with the same content (%s); nothing to do\n", r.Name, r.Version, r.Staged, r.Integrity)
	}
}
