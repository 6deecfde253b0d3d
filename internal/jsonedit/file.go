package jsonedit

import (
	"bytes"
	"fmt"
	"os"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/safefile"
)

// maxEdit bounds a file edited in place (pack.json and its siblings are
// kilobytes).
const maxEdit = 16 << 20

// EditFile applies edit to the file at path and, when the text changed,
// replaces the file atomically with the same permissions. It reports whether
// the file changed. On any error the file is untouched.
func EditFile(path string, edit func([]byte) ([]byte, error)) (bool, error) {
	info, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	src, err := safefile.Read(path, safefile.Options{Max: maxEdit})
	if err != nil {
		return false, err
	}
	out, err := edit(src)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(out, src) {
		return false, nil
	}
	if err := atomicfile.Write(path, out, info.Mode().Perm()); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return true, nil
}
