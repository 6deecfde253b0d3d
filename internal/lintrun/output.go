package lintrun

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/pack"
)

// WriteOutput writes a file lint produces (--output, --write-baseline).
// An existing device or pipe (/dev/stdout, a FIFO) is written into; a
// regular file is replaced atomically.
func WriteOutput(path, flag string, data []byte) error {
	if info, err := os.Stat(path); err == nil && (info.Mode()&fs.ModeNamedPipe != 0 || info.Mode()&fs.ModeCharDevice != 0) {
		return writeInto(path, flag, data)
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", flag, err)
	}
	return nil
}

// CheckOutput refuses a file flag (--output, --write-baseline) that cannot
// name lint's output before lint runs: a directory (build's -o is one,
// lint's are files), or the name of a pack's own source, which the output
// would replace. example is a good name to suggest.
func CheckOutput(env *Env, flag, output, example string) error {
	if output == "" {
		return nil
	}
	if info, err := os.Stat(env.Abs(output)); err == nil && info.IsDir() {
		return inputf("%s %s is a directory; name the file to write, e.g. %s", flag, output, example)
	}
	switch base := filepath.Base(output); {
	case base == pack.ManifestName, base == ".wop.yaml", base == ".wop.yml",
		strings.HasSuffix(base, ".agf.yaml"), strings.HasSuffix(base, ".agf.yml"):
		return inputf("%s %s would replace a pack's source; name another file, e.g. %s", flag, output, example)
	}
	return nil
}

// writeInto writes into an existing device or pipe (/dev/stdout, a FIFO)
// instead of renaming a file over it: an atomic replace would swap the
// device itself for a regular file.
func writeInto(path, flag string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", flag, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", flag, err)
	}
	return f.Close()
}
