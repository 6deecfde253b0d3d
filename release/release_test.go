package release_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// script runs a script of release/ with args in env and returns its
// stderr and exit status.
func script(t *testing.T, env []string, path string, args ...string) (stderr string, code int) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh: the release scripts run on Unix")
	}
	cmd := exec.Command("sh", append([]string{path}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return errOut.String(), ee.ExitCode()
	}
	must(t, err)
	return errOut.String(), 0
}

// TestCheckPins: check-pins passes a tree whose every pin is the tag's
// version, names each other pin by file and line, ignores placeholders,
// and refuses what is not a release tag.
func TestCheckPins(t *testing.T) {
	hook := "- id: wop-pack-lint-npm\n  additional_dependencies: [\"@wop-cli/wop@%s\"]\n"
	readme := "npm install -E -D @wop-cli/wop@%[1]s\n" +
		"go install github.com/wop-cli/wop/cmd/...@v%[1]s\n" +
		"    rev: v%[1]s   # a release tag of wop\n" +
		"      - uses: wop-cli/wop@v%[1]s\n" +
		"add `additional_dependencies: [\"@wop-cli/wop@X.Y.Z\"]` under the hook.\n"
	tests := []struct {
		name         string
		tag          string
		hook, readme string
		code         int
		want         []string
	}{
		{"all pinned", "v1.2.3", "1.2.3", "1.2.3", 0, []string{"every pin names 1.2.3"}},
		{"prerelease", "v1.2.3-rc.1", "1.2.3-rc.1", "1.2.3-rc.1", 0, nil},
		{"hook behind", "v1.2.3", "1.2.2", "1.2.3", 1, []string{".pre-commit-hooks.yaml:2: pins 1.2.2, but the release is v1.2.3: pin 1.2.3"}},
		{"readme behind", "v1.2.3", "1.2.3", "1.2.2", 1, []string{"README.md:1: pins 1.2.2", "README.md:2: pins 1.2.2", "README.md:3: pins 1.2.2", "README.md:4: pins 1.2.2"}},
		{"not a tag", "1.2.3", "1.2.3", "1.2.3", 2, []string{"not a release tag"}},
		{"no pins", "v1.2.3", "", "", 1, []string{"README.md: pins no version of wop"}},
	}
	src, err := os.ReadFile("check-pins")
	must(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			must(t, os.MkdirAll(filepath.Join(dir, "release"), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, "release", "check-pins"), src, 0o755))
			h, r := "", ""
			if tt.hook != "" {
				h = strings.ReplaceAll(hook, "%s", tt.hook)
				r = strings.ReplaceAll(readme, "%[1]s", tt.readme)
			}
			must(t, os.WriteFile(filepath.Join(dir, ".pre-commit-hooks.yaml"), []byte(h), 0o644))
			must(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte(r), 0o644))
			stderr, code := script(t, nil, filepath.Join(dir, "release", "check-pins"), tt.tag)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("no %q in\n%s", w, stderr)
				}
			}
			if tt.code == 0 && strings.Contains(stderr, "X.Y.Z") {
				t.Errorf("a placeholder counted as a pin:\n%s", stderr)
			}
		})
	}
}

// TestPrecompileSaysWhyItSkips: for a platform this machine cannot run,
// precompile-graphviz leaves the folder empty and writes the reason beside
// it, which release/snapshot reports; a release (strict) fails instead
// where QEMU is all that is missing.
func TestPrecompileSaysWhyItSkips(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	other := map[string]string{"amd64": "arm64", "arm64": "amd64"}[runtime.GOARCH]
	tests := []struct {
		name, goos, goarch string
		noQEMU, strict     bool
		code               int
		want               string
	}{
		{"darwin", "darwin", "arm64", false, false, 0, "cannot run a darwin_arm64 helper"},
		{"windows", "windows", "amd64", false, false, 0, "cannot run a windows_amd64 helper"},
		{"other Linux CPU without QEMU", "linux", other, true, false, 0, "on PATH (Debian: apt install qemu-user-static)"},
		{"other Linux CPU without QEMU, a release", "linux", other, true, true, 1, "a release needs it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if runtime.GOOS != "linux" || other == "" {
				t.Skip("the release builds on Linux, amd64 or arm64")
			}
			out := filepath.Join(t.TempDir(), tt.goos+"_"+tt.goarch)
			env := []string{"WOP_PRECOMPILE_STRICT=0"}
			if tt.strict {
				env[0] = "WOP_PRECOMPILE_STRICT=1"
			}
			if tt.noQEMU { // a PATH with the tools the script needs and no qemu
				bin := t.TempDir()
				for _, tool := range []string{"go", "rm", "mkdir", "mktemp", "find", "chmod", "mv"} {
					p, err := exec.LookPath(tool)
					must(t, err)
					must(t, os.Symlink(p, filepath.Join(bin, tool)))
				}
				env = append(env, "PATH="+bin)
			}
			stderr, code := script(t, env, "precompile-graphviz", "/nonexistent/wop-graphviz", tt.goos, tt.goarch, out)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, want %d and %q:\n%s", code, tt.code, tt.want, stderr)
			}
			if left, err := os.ReadDir(out); err != nil || len(left) != 0 {
				t.Errorf("%s holds %v (%v), want an empty folder", out, left, err)
			}
			reason, err := os.ReadFile(out + ".skipped")
			if tt.code == 0 && (err != nil || !strings.Contains(string(reason), tt.want)) {
				t.Errorf("%s.skipped: %q (%v), want the reason", out, reason, err)
			}
		})
	}
}

// openVSX is a stand-in for the Open VSX server's publish endpoint, as
// ovsx calls it (eclipse/openvsx cli/src/registry.ts): POST
// /api/-/publish?token=PAT, the .vsix as the body (ovsx 1.x also sends the
// token as a bearer header and first asks GET /api/version); the answer is the
// extension's JSON, or {"error": ...} for a version it already has.
type openVSX struct {
	token string
	mu    sync.Mutex
	got   []string // namespace.name@version/target, in upload order
	other []string // any other request
}

func (o *openVSX) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if r.Method == http.MethodGet && r.URL.Path == "/api/version" {
		// ovsx 1.x asks first, best-effort; a registry without it gets the
		// token as ?token= (and in an Authorization header besides).
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/api/-/publish" {
		o.other = append(o.other, r.Method+" "+r.URL.String())
		http.NotFound(w, r)
		return
	}
	if r.URL.Query().Get("token") != o.token && r.Header.Get("Authorization") != "Bearer "+o.token {
		w.WriteHeader(http.StatusForbidden)
		json.NewEncoder(w).Encode(map[string]string{"error": "Invalid access token."})
		return
	}
	body, _ := io.ReadAll(r.Body)
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": "not a .vsix: " + err.Error()})
		return
	}
	var pkg struct{ Name, Publisher, Version string }
	var target string
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		switch f.Name {
		case "extension/package.json":
			json.Unmarshal(data, &pkg)
		case "extension.vsixmanifest":
			if m := regexp.MustCompile(`TargetPlatform="([^"]+)"`).FindSubmatch(data); m != nil {
				target = string(m[1])
			}
		}
	}
	id := pkg.Publisher + "." + pkg.Name + "@" + pkg.Version + "/" + target
	if slices.Contains(o.got, id) {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": "Extension " + pkg.Publisher + "." + pkg.Name + " " + pkg.Version + " (" + target + ") is already published."})
		return
	}
	o.got = append(o.got, id)
	json.NewEncoder(w).Encode(map[string]any{"namespace": pkg.Publisher, "name": pkg.Name, "version": pkg.Version, "targetPlatform": target})
}

// vsix writes a minimal .vsix as vsce packs one: the manifest naming the
// target platform and the extension's package.json.
func vsix(t *testing.T, path, target string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range map[string]string{
		"[Content_Types].xml":    `<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/></Types>`,
		"extension.vsixmanifest": `<?xml version="1.0" encoding="utf-8"?><PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011"><Metadata><Identity Language="en-US" Id="wop" Version="1.2.3" Publisher="wop-cli" TargetPlatform="` + target + `"/><DisplayName>wop</DisplayName></Metadata><Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation><Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true"/></Assets></PackageManifest>`,
		"extension/package.json": `{"name": "wop", "publisher": "wop-cli", "version": "1.2.3", "engines": {"vscode": "^1.82.0"}}`,
	} {
		w, err := zw.Create(name)
		must(t, err)
		io.WriteString(w, data)
	}
	must(t, zw.Close())
	must(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

// TestPublishOpenVSX: release/publish openvsx uploads every .vsix with the
// pinned ovsx to the registry OVSX_REGISTRY_URL names, with OVSX_PAT; a
// second run skips what is there; without a token nothing is sent.
func TestPublishOpenVSX(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not on PATH: ovsx cannot be installed")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat(filepath.Join(cache, "wop-release", "publishers", "node_modules", ".bin", "ovsx")); err != nil {
		t.Skip("ovsx is not installed: run release/install-publishers to test the Open VSX upload")
	}
	stand := &openVSX{token: "ovsx-test-token"}
	srv := httptest.NewServer(stand)
	defer srv.Close()
	dir := t.TempDir()
	targets := []string{"linux-x64", "darwin-arm64", "win32-x64"}
	for _, target := range targets {
		vsix(t, filepath.Join(dir, "wop-1.2.3-"+target+".vsix"), target)
	}
	env := []string{"OVSX_REGISTRY_URL=" + srv.URL, "OVSX_PAT=" + stand.token}

	stderr, code := script(t, []string{"OVSX_REGISTRY_URL=" + srv.URL, "OVSX_PAT="}, "publish", "openvsx", dir)
	if code != 2 || !strings.Contains(stderr, "OVSX_PAT is not set") || len(stand.got)+len(stand.other) != 0 {
		t.Fatalf("without a token: exit %d, sent %q %q\n%s", code, stand.got, stand.other, stderr)
	}
	stderr, code = script(t, env, "publish", "openvsx", dir)
	want := []string{"wop-cli.wop@1.2.3/darwin-arm64", "wop-cli.wop@1.2.3/linux-x64", "wop-cli.wop@1.2.3/win32-x64"}
	if code != 0 || !slices.Equal(slices.Sorted(slices.Values(stand.got)), want) || len(stand.other) != 0 {
		t.Fatalf("exit %d; uploaded %q, want %q; other requests %q\n%s", code, stand.got, want, stand.other, stderr)
	}
	stderr, code = script(t, env, "publish", "openvsx", dir)
	if code != 0 || len(stand.got) != len(want) {
		t.Errorf("again: exit %d, uploaded %q\n%s", code, stand.got, stderr)
	}
	stderr, code = script(t, []string{"OVSX_REGISTRY_URL=" + srv.URL, "OVSX_PAT=wrong"}, "publish", "openvsx", dir)
	if code == 0 {
		t.Errorf("a refused token: exit 0\n%s", stderr)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPackages: release/packages, run where goreleaser built (dist/),
// writes the npm tarballs from dist/artifacts.json's binaries, each Linux
// package with the compiled Graphviz the build left, and says it skips the
// extension where the tree has no editors/vscode/package.sh.
func TestPackages(t *testing.T) {
	for _, tool := range []string{"bash", "node", "npm", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	tree := t.TempDir()
	must(t, os.CopyFS(filepath.Join(tree, "npm"), os.DirFS("../npm")))
	lic, err := os.ReadFile("../LICENSE")
	must(t, err)
	must(t, os.WriteFile(filepath.Join(tree, "LICENSE"), lic, 0o644))
	var artifacts []map[string]string
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			exe := map[string]string{"windows": ".exe"}[goos]
			for _, name := range []string{"wop", "wop-sigstore", "wop-graphviz"} {
				p := filepath.Join(tree, "dist", name+"_"+goos+"_"+goarch, name+exe)
				must(t, os.MkdirAll(filepath.Dir(p), 0o755))
				must(t, os.WriteFile(p, []byte(name+" for "+goos+"/"+goarch+"\n"), 0o755))
				artifacts = append(artifacts, map[string]string{"type": "Binary", "goos": goos, "goarch": goarch, "path": p})
			}
			pre := filepath.Join(tree, "dist", "wop-graphviz-precompiled", goos+"_"+goarch)
			must(t, os.MkdirAll(pre, 0o755))
			if goos+"_"+goarch == "linux_arm64" {
				must(t, os.MkdirAll(filepath.Join(pre, "go-graphviz"), 0o755))
				must(t, os.WriteFile(filepath.Join(pre, "go-graphviz", "module"), []byte("compiled\n"), 0o644))
			}
		}
	}
	artifacts = append(artifacts, map[string]string{"type": "Archive", "path": "dist/x.tar.gz"})
	raw, err := json.Marshal(artifacts)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(tree, "dist", "artifacts.json"), raw, 0o644))

	out := filepath.Join(t.TempDir(), "out")
	script, err := filepath.Abs("packages")
	must(t, err)
	cmd := exec.Command("bash", script, "1.2.3", out)
	cmd.Dir = tree
	stderr, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("release/packages: %v\n%s", err, stderr)
	}
	if !strings.Contains(string(stderr), "skipping the VS Code extension") {
		t.Errorf("no word of the skipped extension:\n%s", stderr)
	}
	tarballs, err := filepath.Glob(filepath.Join(out, "npm", "*.tgz"))
	must(t, err)
	if len(tarballs) != 7 {
		t.Fatalf("npm tarballs %q, want @wop-cli/wop and six platform packages", tarballs)
	}
	for pkg, wantSeed := range map[string]bool{"wop-cli-wop-linux-arm64": true, "wop-cli-wop-linux-x64": false, "wop-cli-wop-win32-x64": false} {
		list, err := exec.Command("tar", "-tzf", filepath.Join(out, "npm", pkg+"-1.2.3.tgz")).Output()
		must(t, err)
		if got := strings.Contains(string(list), "package/bin/wop-graphviz-precompiled/go-graphviz/module"); got != wantSeed {
			t.Errorf("%s holds the compiled Graphviz: %v, want %v\n%s", pkg, got, wantSeed, list)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "vscode")); !os.IsNotExist(err) {
		t.Errorf("an empty vscode/ was left: %v", err)
	}
}
