package build

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// maxCRLFNamed bounds the files a line-ending warning names.
const maxCRLFNamed = 5

// crlfFiles names the files the archive takes as they are (every one but
// pack.json, which goes in as canonical JSON) that hold a CRLF line
// ending: what git on Windows checks out with core.autocrlf=true. The
// registry's builder copies the same files byte for byte from its own
// checkout, which has LF, so its rebuild of such a pack differs from this
// build. Binary files (a NUL byte, a raw signature) are not text and are
// skipped. The names are sorted.
func (s *Source) crlfFiles() ([]string, error) {
	if s.pack.Archive != nil {
		return nil, nil // re-signing an archive keeps its bytes; no checkout made them
	}
	var out []string
	for _, f := range s.files {
		if strings.HasSuffix(f.Name, ".sig") { // s.files already leaves out pack.json and its signature
			continue
		}
		data, err := s.pack.ReadFile(f.Name)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(data, []byte("\r\n")) && !bytes.Contains(data, []byte{0}) {
			out = append(out, f.Name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// CRLFWarning is the warning for crlfFiles, or "" when there are none:
// what differs, why, and the fix.
func (s *Source) CRLFWarning() (string, error) {
	names, err := s.crlfFiles()
	if err != nil || len(names) == 0 {
		return "", err
	}
	shown := make([]string, 0, maxCRLFNamed)
	for _, n := range names[:min(len(names), maxCRLFNamed)] {
		shown = append(shown, s.pack.Path(n))
	}
	list := strings.Join(shown, ", ")
	if len(names) > maxCRLFNamed {
		list += fmt.Sprintf(" and %d more", len(names)-maxCRLFNamed)
	}
	return list + " have CRLF line endings (a Windows checkout: git's core.autocrlf), which the archive keeps; " +
		"the registry rebuilds the pack from its own checkout, with LF, so its archive and integrity would differ from this one. " +
		"Keep the pack's text files LF: a .gitattributes with '* text=auto eol=lf' (wop pack init writes one), " +
		"then 'git add --renormalize .', commit, and check the files out again", nil
}
