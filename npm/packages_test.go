package npm_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/graphviz"
)

// built is a single-platform build packed as the release packs it.
type built struct {
	tarballs string // the directory npm/build.js packed into
	wop      string // this machine's wop, as built
	version  string
}

// goOSArch is Go's name for a platform package's binaries directory.
func goOSArch(h host, key string) string {
	return h.Platforms[key].Goos + "_" + h.Platforms[key].Goarch
}

// needNpm skips the test where npm is not on PATH.
func needNpm(t *testing.T) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH: the npm packages are not tested here")
	}
	return npm
}

// buildPackages builds wop and its helpers for this machine (the release
// builds them for every platform; the other platforms' packages get a
// placeholder file here) and runs npm/build.js into out.
func buildPackages(t *testing.T, h host, version, out string) built {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bins := t.TempDir()
	for key, p := range h.Platforms {
		dir := filepath.Join(bins, goOSArch(h, key))
		must(t, os.MkdirAll(dir, 0o755))
		exe := ""
		if p.Goos == "windows" {
			exe = ".exe"
		}
		for _, name := range []string{"wop", "wop-sigstore", "wop-graphviz"} {
			if key != h.Key {
				must(t, os.WriteFile(filepath.Join(dir, name+exe), []byte("not built by this test\n"), 0o755))
				continue
			}
			cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags", "-X main.version="+version, "-o", filepath.Join(dir, name+exe), "../cmd/"+name)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build %s: %v\n%s", name, err, out)
			}
		}
	}
	precompile(t, h, filepath.Join(bins, goOSArch(h, h.Key)))
	runBuild(t, "--version", version, "--binaries", bins, "--out", out)
	exe := ""
	if strings.HasPrefix(h.Key, "win32") {
		exe = ".exe"
	}
	return built{tarballs: out, wop: filepath.Join(bins, goOSArch(h, h.Key), "wop"+exe), version: version}
}

// precompile compiles Graphviz for this machine's wop-graphviz in dir into
// dir/wop-graphviz-precompiled, as the release does (goreleaser's hook).
func precompile(t *testing.T, h host, dir string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		return // the release builds on a Unix machine
	}
	goos, goarch, _ := strings.Cut(goOSArch(h, h.Key), "_")
	cmd := exec.Command("sh", "../release/precompile-graphviz", filepath.Join(dir, "wop-graphviz"), goos, goarch, filepath.Join(dir, graphviz.PrecompiledDir))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release/precompile-graphviz: %v\n%s", err, out)
	}
}

func runBuild(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("node", append([]string{"build.js"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node npm/build.js %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// tarFile is one file of an npm tarball.
type tarFile struct {
	mode int64
	data []byte
}

func readTarball(t *testing.T, path string) map[string]tarFile {
	t.Helper()
	f, err := os.Open(path)
	must(t, err)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	must(t, err)
	tr := tar.NewReader(gz)
	files := map[string]tarFile{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return files
		}
		must(t, err)
		data, err := io.ReadAll(tr)
		must(t, err)
		files[hdr.Name] = tarFile{hdr.Mode, data}
	}
}

// packageJSON is what the tests read of a package.json.
type packageJSON struct {
	Name                 string
	Version              string
	License              string
	Repository           struct{ Type, URL, Directory string }
	Engines              map[string]string
	Bin                  map[string]string
	OS                   []string `json:"os"`
	CPU                  []string `json:"cpu"`
	Scripts              map[string]string
	OptionalDependencies map[string]string
}

// tarballName is npm pack's file name for a package.
func tarballName(pkg, version string) string {
	return strings.NewReplacer("@", "", "/", "-").Replace(pkg) + "-" + version + ".tgz"
}

// TestPackages builds wop for this machine once and packs it as a release
// does, then checks the tarballs (checkTarballs), that a second run writes
// the same bytes, and, where verdaccio is installed, installs them from a
// registry on loopback (registryInstall).
func TestPackages(t *testing.T) {
	h := needNode(t)
	npm := needNpm(t)
	const version = "0.0.0-test.1"
	b := buildPackages(t, h, version, t.TempDir())
	t.Run("tarballs", func(t *testing.T) { checkTarballs(t, h, b) })
	t.Run("reproducible", func(t *testing.T) { checkReproducible(t, h, b) })
	t.Run("registry install", func(t *testing.T) { registryInstall(t, h, b, npm, verdaccioBin(t)) })
}

// checkTarballs: npm/build.js wrote the main package (the shim,
// optionalDependencies on every platform package at the same version) and
// one package per platform (os/cpu, both binaries, executable), none with
// an install script, every version the one given.
func checkTarballs(t *testing.T, h host, b built) {
	version := b.version

	main := readTarball(t, filepath.Join(b.tarballs, tarballName("@wop-cli/wop", version)))
	if got, want := slices.Sorted(maps.Keys(main)), []string{"package/LICENSE", "package/README.md", "package/bin/wop", "package/package.json"}; !slices.Equal(got, want) {
		t.Errorf("@wop-cli/wop holds %q, want %q", got, want)
	}
	shim, err := os.ReadFile("wop/bin/wop")
	must(t, err)
	if f := main["package/bin/wop"]; !bytes.Equal(f.data, shim) || f.mode&0o111 == 0 {
		t.Errorf("bin/wop is not the shim, executable (mode %o)", f.mode)
	}
	var pj packageJSON
	must(t, json.Unmarshal(main["package/package.json"].data, &pj))
	checkCommon(t, pj, "@wop-cli/wop", version)
	if pj.Bin["wop"] != "bin/wop" || pj.Engines["node"] == "" {
		t.Errorf("bin %v, engines %v", pj.Bin, pj.Engines)
	}
	want := map[string]string{}
	for _, p := range h.Platforms {
		want[p.Pkg] = version
	}
	if !maps.Equal(pj.OptionalDependencies, want) {
		t.Errorf("optionalDependencies %v, want %v", pj.OptionalDependencies, want)
	}

	for key, p := range h.Platforms {
		files := readTarball(t, filepath.Join(b.tarballs, tarballName(p.Pkg, version)))
		var pj packageJSON
		must(t, json.Unmarshal(files["package/package.json"].data, &pj))
		checkCommon(t, pj, p.Pkg, version)
		platform, arch, _ := strings.Cut(key, " ")
		if !slices.Equal(pj.OS, []string{platform}) || !slices.Equal(pj.CPU, []string{arch}) || len(pj.Bin) != 0 {
			t.Errorf("%s: os %v cpu %v bin %v, want [%s] [%s] and no bin", p.Pkg, pj.OS, pj.CPU, pj.Bin, platform, arch)
		}
		exe := ""
		if platform == "win32" {
			exe = ".exe"
		}
		for _, name := range []string{"wop", "wop-sigstore", "wop-graphviz"} {
			f, ok := files["package/bin/"+name+exe]
			if !ok || f.mode&0o111 == 0 {
				t.Errorf("%s: bin/%s%s missing or not executable (mode %o)", p.Pkg, name, exe, f.mode)
			}
		}
		if key == h.Key {
			wop, err := os.ReadFile(b.wop)
			must(t, err)
			if !bytes.Equal(files["package/bin/wop"+exe].data, wop) {
				t.Errorf("%s: bin/wop is not the wop built", p.Pkg)
			}
		}
		checkPrecompiled(t, files, filepath.Join(filepath.Dir(b.wop), graphviz.PrecompiledDir), key == h.Key && runtime.GOOS != "windows")
	}

}

// checkPrecompiled: the platform package of this machine carries the
// compiled Graphviz release/precompile-graphviz wrote into src, every file
// readable by all and none executable; the others, built elsewhere by a
// release, carry none.
func checkPrecompiled(t *testing.T, files map[string]tarFile, src string, want bool) {
	t.Helper()
	prefix := "package/bin/" + graphviz.PrecompiledDir + "/"
	var got []string
	for name, f := range files {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		got = append(got, name)
		data, err := os.ReadFile(filepath.Join(src, strings.TrimPrefix(name, prefix)))
		if err != nil || !bytes.Equal(data, f.data) || f.mode&0o777 != 0o644 {
			t.Errorf("%s: mode %o, not the file precompiled (%v)", name, f.mode, err)
		}
	}
	if want != (len(got) > 0) {
		t.Errorf("compiled Graphviz in the package: %q, want some: %v", got, want)
	}
}

// checkReproducible: the same inputs again, the same bytes.
func checkReproducible(t *testing.T, h host, b built) {
	version := b.version
	again := t.TempDir()
	bins := filepath.Dir(filepath.Dir(b.wop))
	runBuild(t, "--version", version, "--binaries", bins, "--out", again)
	for _, p := range append([]string{"@wop-cli/wop"}, platformPackages(h)...) {
		first, err := os.ReadFile(filepath.Join(b.tarballs, tarballName(p, version)))
		must(t, err)
		second, err := os.ReadFile(filepath.Join(again, tarballName(p, version)))
		must(t, err)
		if !bytes.Equal(first, second) {
			t.Errorf("%s: two runs wrote different tarballs", p)
		}
	}
}

// platformPackages are the platform packages' names, sorted.
func platformPackages(h host) []string {
	var pkgs []string
	for _, p := range h.Platforms {
		pkgs = append(pkgs, p.Pkg)
	}
	slices.Sort(pkgs)
	return pkgs
}

func checkCommon(t *testing.T, pj packageJSON, name, version string) {
	t.Helper()
	if pj.Name != name || pj.Version != version {
		t.Errorf("%s@%s, want %s@%s", pj.Name, pj.Version, name, version)
	}
	if pj.License != "Apache-2.0" || pj.Repository.URL != "git+https://github.com/wop-cli/wop.git" {
		t.Errorf("%s: license %q, repository %q", name, pj.License, pj.Repository.URL)
	}
	if len(pj.Scripts) != 0 {
		t.Errorf("%s has scripts %v: npm must install it with --ignore-scripts alike", name, pj.Scripts)
	}
}

// TestBuildRefusesBadInput: a version npm would refuse, or a platform's
// binary missing, stops npm/build.js with exit 2 before it packs anything.
func TestBuildRefusesBadInput(t *testing.T) {
	needNode(t)
	bins, out := t.TempDir(), t.TempDir()
	for _, tt := range []struct {
		version, want string
	}{
		{"v1.0.0", "is not a SemVer version"},
		{"1.0.0", "/wop is missing: @wop-cli/wop-"},
	} {
		cmd := exec.Command("node", "build.js", "--version", tt.version, "--binaries", bins, "--out", out)
		msg, err := cmd.CombinedOutput()
		if exitCode(t, err) != 2 || !strings.Contains(string(msg), tt.want) {
			t.Errorf("--version %s: %v, %s; want exit 2 and %q", tt.version, err, msg, tt.want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a refused build left %d entries in the output directory", len(entries))
	}
}
