// Package helperbin finds wop's helper binaries (wop-sigstore,
// wop-graphviz): programs installed with wop that carry what only a few
// commands need, so wop itself stays small and starts fast. Main is the
// helpers' own side: one request in, one answer out.
package helperbin

import (
	"os"
	"os/exec"
	"path/filepath"
)

// Locate finds the helper called name: the path $envVar names, else the
// one installed beside the running wop (executable is os.Executable, links
// resolved), else name on PATH. The copy beside wop comes first: it was
// installed with this wop, while one on PATH may be from another release.
// ok is false when there is none.
func Locate(name, envVar string, getenv func(string) string, executable func() (string, error)) (path string, ok bool) {
	if p := getenv(envVar); p != "" {
		return p, true
	}
	if exe, err := executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		p := filepath.Join(filepath.Dir(exe), name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p, true
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	return "", false
}
