// Package action_test runs the GitHub Action's script, action/wop-action.sh,
// as a runner would, against a release served on loopback: archives named
// and checksummed as goreleaser names them, holding a wop built here.
package action_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const version = "0.9.0"

// runnerOSes and runnerArches are GitHub's names for the platforms wop is
// released for, as a runner sets RUNNER_OS and RUNNER_ARCH.
var (
	runnerOSes   = map[string]string{"linux": "Linux", "darwin": "macOS"}
	runnerArches = map[string]string{"amd64": "X64", "arm64": "ARM64"}
)

// runnerPlatform is this machine's platform as a runner names it.
func runnerPlatform(t *testing.T) (runnerOS, runnerArch string) {
	t.Helper()
	runnerOS, ok := runnerOSes[runtime.GOOS]
	if !ok {
		t.Skipf("the action's script is tested on Linux and macOS runners; this is %s", runtime.GOOS)
	}
	runnerArch, ok = runnerArches[runtime.GOARCH]
	if !ok {
		t.Skipf("no wop release for %s", runtime.GOARCH)
	}
	return runnerOS, runnerArch
}

// release is what the loopback server serves under /v0.9.0/.
type release map[string][]byte

// buildRelease builds wop for this machine and packs it as goreleaser's
// archive for this platform, with checksums.txt listing it.
func buildRelease(t *testing.T) (rel release, archive string) {
	t.Helper()
	for _, tool := range []string{"bash", "curl", "tar", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	dir := t.TempDir()
	wop := filepath.Join(dir, "wop")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-X main.version="+version, "-o", wop, "../cmd/wop")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	bin, err := os.ReadFile(wop)
	must(t, err)
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		mode int64
		data []byte
	}{{"wop", 0o755, bin}, {"README.md", 0o644, []byte("# wop\n")}, {"LICENSE", 0o644, []byte("Apache-2.0\n")}} {
		must(t, tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}))
		_, err := tw.Write(f.data)
		must(t, err)
	}
	must(t, tw.Close())
	must(t, gz.Close())
	goos, goarch := runtime.GOOS, runtime.GOARCH
	archive = fmt.Sprintf("wop_%s_%s_%s.tar.gz", version, goos, goarch)
	other := fmt.Sprintf("wop_%s_windows_amd64.zip", version)
	rel = release{archive: buf.Bytes(), other: []byte("another platform's archive")}
	rel["checksums.txt"] = checksums(rel, archive, other)
	return rel, archive
}

// checksums is goreleaser's checksums.txt for names: "SHA256  NAME" lines.
func checksums(rel release, names ...string) []byte {
	var b strings.Builder
	for _, name := range names {
		sum := sha256.Sum256(rel[name])
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	return []byte(b.String())
}

func serve(t *testing.T, rel release) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, "/v"+version+"/")
		data, found := rel[name]
		if !ok || !found || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// repo writes a pack repository laid out as the Quickstart makes one (the
// pack at the root): clean, with a missing prompt (an error), or with a
// license that is not SPDX (a warning).
func repo(t *testing.T, kind string) string {
	t.Helper()
	dir := t.TempDir()
	must(t, os.CopyFS(dir, os.DirFS("../examples/community.example.support-agents")))
	breaks := map[string][2]string{
		"error":   {`"prompts/`, `"prompts/missing-`},
		"warning": {`"license": "Apache-2.0"`, `"license": "see the LICENSE file"`},
	}
	if b, ok := breaks[kind]; ok {
		manifest := filepath.Join(dir, "pack.json")
		raw, err := os.ReadFile(manifest)
		must(t, err)
		broken := bytes.Replace(raw, []byte(b[0]), []byte(b[1]), 1)
		if bytes.Equal(broken, raw) {
			t.Fatalf("the example has no %s to break", b[0])
		}
		must(t, os.WriteFile(manifest, broken, 0o644))
	}
	return dir
}

// run is one run of the script: its outputs and the runner's files.
type run struct {
	code                         int
	stdout, stderr               string
	path, output, summary, sarif string
	runnerTemp                   string
}

func runAction(t *testing.T, url, dir string, env ...string) run {
	t.Helper()
	runnerOS, runnerArch := runnerPlatform(t)
	script, err := filepath.Abs("wop-action.sh")
	must(t, err)
	tmp := t.TempDir()
	files := map[string]string{}
	for _, f := range []string{"GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		files[f] = filepath.Join(tmp, f)
		must(t, os.WriteFile(files[f], nil, 0o644))
	}
	runnerTemp := filepath.Join(tmp, "runner-temp")
	must(t, os.MkdirAll(runnerTemp, 0o755))
	cmd := exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RUNNER_OS="+runnerOS, "RUNNER_ARCH="+runnerArch, "RUNNER_TEMP="+runnerTemp,
		"GITHUB_PATH="+files["GITHUB_PATH"], "GITHUB_OUTPUT="+files["GITHUB_OUTPUT"], "GITHUB_STEP_SUMMARY="+files["GITHUB_STEP_SUMMARY"],
		"WOP_ACTION_RELEASES="+url, "WOP_ACTION_REF=v"+version, "WOP_CACHE_DIR="+filepath.Join(tmp, "cache"), "NO_COLOR=1")
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	r := run{stdout: out.String(), stderr: errOut.String(), runnerTemp: runnerTemp}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else {
		must(t, err)
	}
	read := func(p string) string { b, _ := os.ReadFile(p); return string(b) }
	r.path, r.output, r.summary = read(files["GITHUB_PATH"]), read(files["GITHUB_OUTPUT"]), read(files["GITHUB_STEP_SUMMARY"])
	r.sarif = read(filepath.Join(dir, "wop.sarif"))
	return r
}

// TestLint: the good archive is installed (on the job's PATH, the version
// asked for) and lints: annotations, SARIF, the step summary and the exit
// status at each fail-on threshold, and against a previous release.
func TestLint(t *testing.T) {
	rel, _ := buildRelease(t)
	url := serve(t, rel)
	previous := repo(t, "clean") // the release before: same version, other contents
	tests := []struct {
		name     string
		pack     string
		env      []string
		wantCode int
		want     []string // in the stdout and the summary together
	}{
		{"clean", "clean", nil, 0, []string{"no findings.", "fail-on error: exit 0"}},
		{"errors", "error", nil, 1, []string{"::error file=pack.json,line=", "| error | `ref-missing` |", "1 error"}},
		{"errors, fail-on none", "error", []string{"WOP_ACTION_FAIL_ON=none"}, 0, []string{"::error file=pack.json,line=", "fail-on none: exit 1"}},
		{"warnings, fail-on error", "warning", nil, 0, []string{"::warning file=pack.json,line=", "| warning | `license-not-spdx` |"}},
		{"warnings, fail-on warning", "warning", []string{"WOP_ACTION_FAIL_ON=warning"}, 1, []string{"::warning file=pack.json,line=", "fail-on warning: exit 1"}},
		{"version given, action pinned by commit", "clean", []string{"WOP_ACTION_REF=0123456789abcdef0123456789abcdef01234567", "WOP_ACTION_VERSION=" + version}, 0, []string{"no findings."}},
		{"against the previous release", "warning", []string{"WOP_ACTION_AGAINST=" + previous}, 1, []string{"title=published-version-mutated::version 1.0.0 was already released"}},
		{"nothing to lint, fail-on none", "clean", []string{"WOP_ACTION_PATH=packs", "WOP_ACTION_FAIL_ON=none"}, 2, []string{"fail-on none: exit 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runAction(t, url, repo(t, tt.pack), tt.env...)
			if r.code != tt.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.wantCode, r.stdout, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stdout+r.summary, w) {
					t.Errorf("no %q in the output or the step summary:\n%s\n---\n%s", w, r.stdout, r.summary)
				}
			}
			if (tt.wantCode != 0 || tt.pack != "clean") && strings.Contains(r.summary, "no findings") {
				t.Errorf("exit %d for a %s pack, yet the step summary says there are no findings:\n%s", tt.wantCode, tt.pack, r.summary)
			}
			install := strings.TrimSpace(r.path)
			out, err := exec.Command(filepath.Join(install, "wop"), "--version").Output()
			if err != nil || !strings.Contains(string(out), version) || !strings.HasPrefix(install, r.runnerTemp) {
				t.Errorf("GITHUB_PATH names %q, whose wop --version says %q (%v)", install, out, err)
			}
			if !strings.Contains(r.output, fmt.Sprintf("exit-code=%d\n", min(tt.wantCode, 2))) && tt.name != "errors, fail-on none" {
				t.Errorf("GITHUB_OUTPUT:\n%s", r.output)
			}
			if tt.wantCode == 2 {
				if r.sarif != "" || strings.Contains(r.output, "sarif=") {
					t.Errorf("lint did not run, yet a SARIF report is there: %q", r.output)
				}
				return
			}
			var sarif struct {
				Version string
				Runs    []struct{ Results []json.RawMessage }
			}
			if err := json.Unmarshal([]byte(r.sarif), &sarif); err != nil || sarif.Version != "2.1.0" || len(sarif.Runs) != 1 {
				t.Fatalf("wop.sarif is not a SARIF 2.1.0 report (%v):\n%.300s", err, r.sarif)
			}
			if wantResults := tt.pack != "clean"; (len(sarif.Runs[0].Results) > 0) != wantResults || !strings.Contains(r.output, "sarif=wop.sarif\n") {
				t.Errorf("SARIF results %d for a %s pack; GITHUB_OUTPUT:\n%s", len(sarif.Runs[0].Results), tt.pack, r.output)
			}
		})
	}
}

// TestRefuses: an archive whose bytes are not those checksums.txt lists,
// one it does not list, one without wop, an action pinned by commit
// without a version, a version that is not X.Y.Z and an unknown fail-on
// install nothing and fail the step, saying why.
func TestRefuses(t *testing.T) {
	rel, archive := buildRelease(t)
	tampered := maps.Clone(rel)
	tampered[archive] = append(bytes.Clone(rel[archive]), 0)
	unlisted := release{archive: rel[archive], "checksums.txt": checksums(rel, "wop_"+version+"_windows_amd64.zip")}
	var empty bytes.Buffer
	gz := gzip.NewWriter(&empty)
	must(t, tar.NewWriter(gz).Close())
	must(t, gz.Close())
	hollow := release{archive: empty.Bytes()}
	hollow["checksums.txt"] = checksums(hollow, archive)
	tests := []struct {
		name string
		rel  release
		env  []string
		want string
	}{
		{"tampered", tampered, nil, "checksums.txt says"},
		{"not in checksums.txt", unlisted, nil, "does not list " + archive},
		{"no version", rel, []string{"WOP_ACTION_REF=0123456789abcdef0123456789abcdef01234567"}, "give the version input"},
		{"no such release", release{}, nil, "could not download"},
		{"no wop in the archive", hollow, nil, "holds no wop"},
		{"not a release version", rel, []string{"WOP_ACTION_VERSION=../latest"}, "version ../latest is not a release version"},
		{"unknown fail-on", rel, []string{"WOP_ACTION_FAIL_ON=errors"}, "fail-on is errors: give error, warning or none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runAction(t, serve(t, tt.rel), repo(t, "clean"), tt.env...)
			if r.code != 1 || !strings.Contains(r.stderr, "::error title=wop action::") || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, want 1 and %q\nstderr:\n%s", r.code, tt.want, r.stderr)
			}
			left, _ := os.ReadDir(r.runnerTemp)
			if r.path != "" || len(left) != 0 || r.sarif != "" || r.summary != "" {
				t.Errorf("something was installed or written: GITHUB_PATH %q, RUNNER_TEMP %v, SARIF %d bytes, summary %q", r.path, left, len(r.sarif), r.summary)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestArchiveNamesAreGoreleasers: the script and this test name archives
// wop_VERSION_OS_ARCH.tar.gz (.zip on Windows) and read checksums.txt,
// which is goreleaser's default archive name for project wop; this holds
// .goreleaser.yaml to that, so a name_template there cannot leave the
// Action downloading archives no release has.
func TestArchiveNamesAreGoreleasers(t *testing.T) {
	raw, err := os.ReadFile("../.goreleaser.yaml")
	must(t, err)
	var cfg struct {
		ProjectName string `yaml:"project_name"`
		Archives    []struct {
			NameTemplate    string   `yaml:"name_template"`
			Formats         []string `yaml:"formats"`
			FormatOverrides []struct {
				Goos    string   `yaml:"goos"`
				Formats []string `yaml:"formats"`
			} `yaml:"format_overrides"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"checksum"`
	}
	must(t, yaml.Unmarshal(raw, &cfg))
	if cfg.ProjectName != "wop" || cfg.Checksum.NameTemplate != "checksums.txt" || len(cfg.Archives) != 1 {
		t.Fatalf("project_name %q, checksum name %q, %d archives: the Action wants wop, checksums.txt and one archive set", cfg.ProjectName, cfg.Checksum.NameTemplate, len(cfg.Archives))
	}
	a := cfg.Archives[0]
	if a.NameTemplate != "" || !slices.Equal(a.Formats, []string{"tar.gz"}) || len(a.FormatOverrides) != 1 ||
		a.FormatOverrides[0].Goos != "windows" || !slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"}) {
		t.Errorf("archives: %+v; action/wop-action.sh names wop_VERSION_OS_ARCH.tar.gz, .zip on Windows (goreleaser's default name)", a)
	}
}
