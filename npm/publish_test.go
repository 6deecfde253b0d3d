package npm_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// releasePublish publishes the tarballs to the registry s uses with
// release/publish npm, the release workflow's step: a set missing a
// platform package publishes nothing; the whole set goes out platform
// packages first and @wop-cli/wop last (the order npm was called in, seen
// through a wrapper on PATH); run again, it skips what the registry has.
func releasePublish(t *testing.T, s session, h host, b built, npm string) {
	t.Helper()
	script, err := filepath.Abs("../release/publish")
	must(t, err)
	tmp := t.TempDir()
	log := filepath.Join(tmp, "npm-calls")
	wrapper := filepath.Join(tmp, "bin")
	must(t, os.MkdirAll(wrapper, 0o755))
	must(t, os.WriteFile(filepath.Join(wrapper, "npm"), []byte("#!/bin/sh\necho \"$*\" >>'"+log+"'\nexec '"+npm+"' \"$@\"\n"), 0o755))
	s.env = slices.Clone(s.env) // the wrapper is for these runs only
	for i, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			s.env[i] = "PATH=" + wrapper + string(os.PathListSeparator) + v
		}
	}
	published := func() []string {
		raw, _ := os.ReadFile(log)
		var names []string
		for line := range strings.Lines(string(raw)) {
			if rest, ok := strings.CutPrefix(line, "publish "); ok {
				tarball := filepath.Base(strings.Fields(rest)[0])
				names = append(names, tarball)
			}
		}
		return names
	}

	// One platform package left out: the script stops before publishing.
	partial := filepath.Join(tmp, "partial")
	must(t, os.CopyFS(partial, os.DirFS(b.tarballs)))
	left := platformPackages(h)[0]
	must(t, os.Remove(filepath.Join(partial, tarballName(left, b.version))))
	_, errOut, code := s.run(tmp, "sh", script, "npm", partial, "--tag", "test")
	if code != 1 || !strings.Contains(errOut, tarballName(left, b.version)+" is missing") || len(published()) != 0 {
		t.Fatalf("release/publish without %s: exit %d, published %q\n%s", left, code, published(), errOut)
	}

	s.ok(tmp, "sh", script, "npm", b.tarballs, "--tag", "test")
	var want []string
	for _, p := range platformPackages(h) {
		want = append(want, tarballName(p, b.version))
	}
	got := published()
	if len(got) != len(want)+1 || !slices.Equal(slices.Sorted(slices.Values(got[:len(want)])), want) || got[len(want)] != tarballName("@wop-cli/wop", b.version) {
		t.Fatalf("release/publish npm published, in order, %q; want the platform packages %q, then @wop-cli/wop", got, want)
	}

	_, errOut, code = s.run(tmp, "sh", script, "npm", b.tarballs, "--tag", "test")
	if code != 0 || len(published()) != len(want)+1 || strings.Count(errOut, "is already published: skipping it") != len(want)+1 {
		t.Errorf("release/publish npm, again: exit %d, npm publish ran %d times in all\n%s", code, len(published()), errOut)
	}
}
