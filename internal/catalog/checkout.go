package catalog

import (
	"os"
	"path/filepath"
)

// DiscoveryPath is where a registry checkout keeps its discovery document,
// relative to the checkout root.
const DiscoveryPath = "registry/.well-known/openwop-registry.json"

// IsCheckout reports whether dir is a registry checkout: a packs/ folder
// next to registry/.well-known/openwop-registry.json.
func IsCheckout(dir string) bool {
	if st, err := os.Stat(filepath.Join(dir, "packs")); err != nil || !st.IsDir() {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(DiscoveryPath)))
	return err == nil && st.Mode().IsRegular()
}

// FindCheckout returns the registry checkout that contains path (a pack
// directory, pack.json or archive inside it), or "" when there is none.
func FindCheckout(path string) string {
	dir, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	for {
		if IsCheckout(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// loadCheckout reads a registry checkout's packs/ folder.
func loadCheckout(root, cacheDir string) (*Catalog, error) {
	c := newCatalog(root)
	if err := c.addFolder(filepath.Join(root, "packs"), cacheDir); err != nil {
		return nil, err
	}
	return c, nil
}
