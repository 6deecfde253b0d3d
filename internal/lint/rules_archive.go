package lint

// archiveRule reports the reader's issues of one kind when linting a .tgz:
// the reader tolerates or refuses these shapes, lint says so per entry.
func archiveRule(id string) func(*Pass) {
	return func(p *Pass) {
		if p.Pack.Archive == nil {
			return
		}
		for _, is := range p.Pack.Archive.Issues {
			if is.Rule != id {
				continue
			}
			if is.Entry == "" {
				p.ReportFilef(".", "%s", is.Message)
				continue
			}
			p.ReportFilef(is.Entry, "%s", is.Message)
		}
	}
}
