package catalog

// loadFolder reads a folder of packs as Open does, at once (not lazily).
func loadFolder(dir, cacheDir string) (*Catalog, error) {
	c := newCatalog(dir)
	if err := c.addFolder(dir, cacheDir, false); err != nil {
		return nil, err
	}
	return c, nil
}
