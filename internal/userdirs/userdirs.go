// Package userdirs says where wop keeps its cache and user settings, and
// what identifies the running binary: what the process environment gives
// every command.
package userdirs

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
func CacheDir(getenv func(string) string, warn io.Writer) string {
	dir := getenv("WOP_CACHE_DIR")
	switch {
	case dir == "off":
		return ""
	case dir != "" && filepath.IsAbs(dir):
		return dir
	case dir != "":
		fmt.Fprintf(warn, "wop: warning: WOP_CACHE_DIR=%q is not an absolute path; using the default cache directory (set an absolute path, or WOP_CACHE_DIR=off)\n", dir)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "wop")
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
