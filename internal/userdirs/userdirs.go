// Package userdirs says where wop keeps its cache and user settings, and
// what identifies the running binary: what the process environment gives
// every command.
package userdirs

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/safefile"
)

// BuildID identifies the running binary (its size and mtime): caches keyed
// on it never outlive the rules that filled them. "" if it cannot be read.
func BuildID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	info, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d-%d", info.Size(), info.ModTime().UnixNano())
}

// CacheDir is $WOP_CACHE_DIR, else wop under the user cache directory.
// A relative WOP_CACHE_DIR is ignored with a warning, as the XDG base
// directory rules ignore a relative XDG_CACHE_HOME: it would put a cache
// wherever wop happens to run, inside a pack folder for one.
//
// A cache another user can write is no cache: lint's verdicts there let
// build skip its gate, and the SVG helper runs the compiled code it finds
// there. A directory owned by another user, or writable by every user,
// turns caching off with a warning (compare git's safe.directory).
func CacheDir(getenv func(string) string, warn io.Writer) string {
	dir := getenv("WOP_CACHE_DIR")
	switch {
	case dir == "off":
		return ""
	case dir != "" && filepath.IsAbs(dir):
	case dir != "":
		fmt.Fprintf(warn, "wop: warning: WOP_CACHE_DIR=%q is not an absolute path; using the default cache directory (set an absolute path, or WOP_CACHE_DIR=off)\n", dir)
		dir = ""
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, "wop")
	}
	if why := othersCanWrite(dir, os.Getuid()); why != "" {
		fmt.Fprintf(warn, "wop: warning: the cache directory %s %s: caching is off (use a directory only you can write, or set WOP_CACHE_DIR)\n", dir, why)
		return ""
	}
	return dir
}

// othersCanWrite says why users other than uid can write dir ("" when
// they cannot, when dir does not exist yet, as wop makes it its own, or on
// a system without Unix owners).
func othersCanWrite(dir string, uid int) string {
	info, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	owner, ok := safefile.OwnerUID(info)
	if !ok || uid < 0 {
		return "" // no owners or Unix modes to judge by (Windows)
	}
	if owner != uid {
		return fmt.Sprintf("belongs to another user (uid %d)", owner)
	}
	if info.Mode().Perm()&0o002 != 0 {
		return fmt.Sprintf("is writable by every user (mode %04o)", info.Mode().Perm())
	}
	return ""
}

// ConfigDir is where wop keeps user settings (credentials): the user
// config directory, "" if there is none.
func ConfigDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return dir
}
