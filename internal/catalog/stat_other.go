//go:build !linux

package catalog

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/pack"
)

// statManifests stats <dir>/<name>/pack.json for each name (through a
// link); names without a manifest are left out.
func statManifests(dir string, names []string) ([]string, []stamp, error) {
	var out []string
	var stamps []stamp
	for _, name := range names {
		m := filepath.Join(dir, name, pack.ManifestName)
		info, err := os.Lstat(m)
		if err != nil {
			continue
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			if info, err = os.Stat(m); err != nil {
				out, stamps = append(out, m), append(stamps, stamp{})
				continue
			}
		}
		out, stamps = append(out, m), append(stamps, stamp{size: info.Size(), mtime: info.ModTime().UnixNano(), ok: true})
	}
	return out, stamps, nil
}
