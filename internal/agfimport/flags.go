package agfimport

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/suggest"
	"github.com/wop-cli/wop/internal/tarball"
)

// DiskSource reads AgentFormat files relative to the working directory
// (abs makes a name absolute) and names them as typed.
func DiskSource(abs func(string) string) agf.Source {
	return agf.Source{
		Read: func(name string) ([]byte, error) {
			return readCapped(abs(filepath.FromSlash(name)))
		},
		Display: func(name string) string { return name },
	}
}

// readCapped reads an AgentFormat file up to the per-file ceiling.
func readCapped(path string) ([]byte, error) {
	return safefile.Read(path, safefile.Options{Max: tarball.DefaultLimits.MaxEntry, FollowLinks: true})
}

// CheckModelClass refuses a --model-class the agent manifest schema does
// not allow before anything is read or written: the import would otherwise
// write an agent that lint then rejects.
func CheckModelClass(class string) error {
	if class == "" {
		return nil
	}
	classes, err := schema.ModelClasses()
	if err != nil {
		return &exitcode.InternalError{Err: fmt.Errorf("the modelClass list: %w", err)}
	}
	if slices.Contains(classes, class) {
		return nil
	}
	msg := fmt.Sprintf("--model-class %q is not an OpenWOP modelClass; use one of %s", class, strings.Join(classes, ", "))
	if near, ok := suggest.Nearest(class, classes, 2); ok {
		msg = fmt.Sprintf("--model-class %q is not an OpenWOP modelClass; did you mean %q? (one of %s)", class, near, strings.Join(classes, ", "))
	}
	return exitcode.Usagef("%s", msg)
}
