package verify

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
)

// WriteText writes the report as verify prints it: a header naming
// archive (as the user typed it), the pack and its integrity, then one
// line per check.
func (rep *Report) WriteText(w io.Writer, archive string) {
	header := fmt.Sprintf("%s: %s@%s", archive, rep.Name, rep.Version)
	if namesPack(archive, rep.Name, rep.Version) { // NAME@VERSION, or build's NAME-VERSION.tgz: once is enough
		header = archive
	}
	if rep.Integrity.SRI != "" { // a VERSION.json alone has no archive to hash
		header += "  " + rep.Integrity.SRI
	}
	fmt.Fprintln(w, header)
	for _, c := range rep.Checks {
		status := "ok  "
		if !c.OK {
			status = "FAIL"
		}
		msg := c.Message
		if c.OK && c.Name == "signature" {
			msg = "pack.json is signed by " + rep.SignedBy
		}
		fmt.Fprintf(w, "  %s %-16s %s\n", status, c.Name, msg)
	}
}

// namesPack reports whether what the user typed already names the pack and
// its version: NAME@VERSION (fetched from a registry) or a file named as
// build names it (NAME-VERSION.tgz, NAME-VERSION.json).
func namesPack(archive, name, version string) bool {
	if name == "" {
		return false
	}
	base := path.Base(filepath.ToSlash(archive))
	switch base {
	case name + "@" + version, name + "-" + version + ".tgz", name + "-" + version + ".json":
		return true
	}
	return false
}
