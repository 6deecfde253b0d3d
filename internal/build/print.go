package build

import (
	"fmt"
	"io"
)

// WriteList prints what the archive would hold (build --list): each entry
// with its size, then the totals and the integrity the archive would have.
func (p *Plan) WriteList(w io.Writer) error {
	sum, err := p.Hash()
	if err != nil {
		return err
	}
	var total int64
	for _, e := range p.Entries() {
		fmt.Fprintf(w, "%10d  %s\n", e.Size, e.Name)
		total += e.Size
	}
	fmt.Fprintf(w, "%d files, %d bytes: %s.tgz\n%s\n%s\n", len(p.Files), total, p.BaseName(), sum.SRI, sum.Hex)
	return nil
}

// WriteText prints the files a build wrote and its integrity; rel names a
// path for the user.
func (r *Result) WriteText(w io.Writer, rel func(string) string) {
	fmt.Fprintf(w, "wrote %s\n", rel(r.Archive))
	for _, p := range []string{r.Signature, r.Bundle} {
		if p != "" {
			fmt.Fprintf(w, "wrote %s\n", rel(p))
		}
	}
	fmt.Fprintf(w, "wrote %s\nwrote %s\n%s\n%s\n", rel(r.Manifest), rel(r.Sidecar), r.Integrity.SRI, r.Integrity.Hex)
}
