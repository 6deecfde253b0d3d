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
	return NewCheckoutFinder().Find(path)
}

// CheckoutFinder is FindCheckout for the packs of one run: the packs of a
// folder share every ancestor, so each directory is asked once whether it
// is a checkout's root. It is not safe for concurrent use.
type CheckoutFinder struct {
	roots map[string]string // a directory's answer: the checkout root, or ""
}

// NewCheckoutFinder returns a CheckoutFinder with an empty memo.
func NewCheckoutFinder() *CheckoutFinder {
	return &CheckoutFinder{roots: map[string]string{}}
}

// Find is FindCheckout, remembering the answer for every directory it
// passes.
func (f *CheckoutFinder) Find(path string) string {
	dir, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	var passed []string
	root := ""
	for {
		if r, ok := f.roots[dir]; ok {
			root = r
			break
		}
		passed = append(passed, dir)
		if IsCheckout(dir) {
			root = dir
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, p := range passed {
		f.roots[p] = root
	}
	return root
}
