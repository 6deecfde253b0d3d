package catalog

// PackDir returns the folder holding the files of the catalog's pack name
// (a folder of packs or a registry checkout), for an editor to open what
// the pack defines. ok is false when the catalog holds no files for it (an
// index or a registry URL) or knows no such pack.
func (c *Catalog) PackDir(name string) (dir string, ok bool) {
	p := c.pack(name)
	if p == nil || p.dir == "" {
		return "", false
	}
	return p.dir, true
}
