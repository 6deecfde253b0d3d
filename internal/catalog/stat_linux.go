package catalog

import (
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/pack"
	"golang.org/x/sys/unix"
)

// statManifests stats <dir>/<name>/pack.json for each name, relative to an
// open dir: the kernel walks two path components, not the dozen of an
// absolute path; the stats were most of a pre-commit lint's time in a
// checkout of a thousand packs. One goroutine: spreading them over the
// CPUs cost more CPU (threads woken for blocking calls) than it saved of
// wall time. Names without a manifest are left out.
func statManifests(dir string, names []string) ([]string, []stamp, error) {
	dir = filepath.Clean(dir)
	d, err := os.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	defer d.Close()
	fd := int(d.Fd())
	var out []string
	var stamps []stamp
	for _, name := range names {
		rel := name + "/" + pack.ManifestName
		var st unix.Stat_t
		if unix.Fstatat(fd, rel, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		s := stamp{}
		if st.Mode&unix.S_IFMT != unix.S_IFLNK || unix.Fstatat(fd, rel, &st, 0) == nil {
			s = stamp{size: st.Size, mtime: st.Mtim.Nano(), ok: true}
		} // else a dangling link: no stamp, so no snapshot
		// dir is clean and name one component: a Join per name cleaned
		// the same path a thousand times.
		out, stamps = append(out, dir+"/"+rel), append(stamps, s)
	}
	return out, stamps, nil
}
