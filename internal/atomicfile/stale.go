package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A temporary name wop may leave behind when killed (kill -9, a power cut)
// carries a deadline: <prefix><deadline>-<random>, <deadline> in Unix
// seconds. Its maker gives up on it by then, and the next run removes it
// once the deadline is StaleGrace past: by that time the run that made it
// has finished or been killed, so nothing can still be using it. Names are
// matched exactly, so nothing wop did not make is ever touched.
const (
	// StaleGrace is how long past its deadline a temporary name is kept.
	StaleGrace = time.Hour
	// tempLifetime is how long a Write or Set may take, from a temporary
	// file's creation to its rename; past it the rename is refused (see
	// checkDeadline), so a later run may remove the file.
	tempLifetime = 24 * time.Hour
	// maxDeadline is the last second of year 9999. wop's deadlines (now
	// plus a time.Duration, at most 292 years) stay far below it; above it
	// time.Unix wraps round into the past, so a name with a huge deadline
	// would look long stale.
	maxDeadline = 253402300799
	// tempMarker separates a temporary file's target name from its stamp.
	tempMarker = ".tmp-"
)

// StampPattern is the os.CreateTemp or os.MkdirTemp pattern for a temporary
// name with prefix that its maker gives up on at deadline (the random part
// is appended by CreateTemp/MkdirTemp).
func StampPattern(prefix string, deadline time.Time) string {
	return fmt.Sprintf("%s%d-", prefix, deadline.Unix())
}

// StampDeadline reads the deadline from a name StampPattern made with
// prefix (<prefix><unix seconds>-<digits>); ok is false for any other name.
func StampDeadline(name, prefix string) (deadline time.Time, ok bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return time.Time{}, false
	}
	secs, random, ok := strings.Cut(rest, "-")
	if !ok || random == "" || strings.Trim(random, "0123456789") != "" {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(secs, 10, 64)
	if err != nil || n <= 0 || n > maxDeadline || strconv.FormatInt(n, 10) != secs { // "+5", "007": not a name wop makes
		return time.Time{}, false
	}
	return time.Unix(n, 0), true
}

// RemoveStale removes the entries of dir that deadlineOf recognises as
// wop's own temporary names and whose deadline is StaleGrace past now.
// deadlineOf must check the entry's type as well as its name (a symbolic
// link is never wop's). A failure to remove one is left for the next run,
// as it costs only disk space.
func RemoveStale(dir string, now time.Time, deadlineOf func(fs.DirEntry) (time.Time, bool)) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		deadline, ok := deadlineOf(e)
		if ok && now.After(deadline.Add(StaleGrace)) {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// RemoveStaleTemps removes the temporary files Write and Set left in dir
// when a run was killed before its rename (.NAME.tmp-<deadline>-<random>),
// once their deadline is StaleGrace past. Only regular files named exactly
// so are touched.
func RemoveStaleTemps(dir string, now time.Time) {
	RemoveStale(dir, now, func(e fs.DirEntry) (time.Time, bool) {
		if !e.Type().IsRegular() {
			return time.Time{}, false
		}
		return tempDeadline(e.Name())
	})
}

// tempPattern is the os.CreateTemp pattern of a temporary file for path,
// made at now.
func tempPattern(path string, now time.Time) string {
	return StampPattern("."+filepath.Base(path)+tempMarker, now.Add(tempLifetime))
}

// tempDeadline reads the deadline from a temporary file's name
// (.NAME.tmp-<deadline>-<random>); ok is false for any other name.
func tempDeadline(name string) (time.Time, bool) {
	i := strings.LastIndex(name, tempMarker)
	if i < 2 || name[0] != '.' { // "." and a target name of at least one byte
		return time.Time{}, false
	}
	return StampDeadline(name, name[:i+len(tempMarker)])
}

// checkDeadline refuses to rename a temporary file into place once its
// deadline has passed: from then on another run may remove it as stale.
func checkDeadline(tmp string, now time.Time) error {
	deadline, ok := tempDeadline(filepath.Base(tmp))
	if ok && now.After(deadline) {
		return fmt.Errorf("%s: the write took longer than %v, so its temporary file may have been removed as stale; run again", filepath.Base(tmp), tempLifetime)
	}
	return nil
}
