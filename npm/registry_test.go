package npm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/graphviz"
)

// verdaccioBin finds the verdaccio that npm/install-verdaccio installed
// ($WOP_VERDACCIO names another), or skips the test.
func verdaccioBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("WOP_VERDACCIO")
	if bin == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skip("no user cache directory, so no verdaccio: " + err.Error())
		}
		bin = filepath.Join(cache, "wop-test", "verdaccio", "node_modules", ".bin", "verdaccio")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("verdaccio is not installed (%s): run npm/install-verdaccio to test the npm packages against a registry", bin)
	}
	return bin
}

const verdaccioConfig = `storage: %[1]s/storage
auth:
  htpasswd:
    file: %[1]s/htpasswd
uplinks: {}
packages:
  '**':
    access: $all
    publish: $authenticated
max_body_size: 200mb
web:
  enable: false
log: { type: stdout, format: pretty, level: warn }
`

// startVerdaccio runs verdaccio on a loopback port until the test ends and
// returns its URL, with a user whose token is in the npmrc it writes.
func startVerdaccio(t *testing.T, bin, dir string) (url, npmrc string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := ln.Addr().String()
	ln.Close()
	url = "http://" + addr + "/"
	must(t, os.MkdirAll(dir, 0o755))
	cfg := filepath.Join(dir, "config.yaml")
	must(t, os.WriteFile(cfg, fmt.Appendf(nil, verdaccioConfig, dir), 0o644))
	var log bytes.Buffer
	cmd := exec.Command(bin, "--config", cfg, "--listen", addr)
	cmd.Stdout, cmd.Stderr = &log, &log
	must(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("verdaccio's log:\n%s", log.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(url + "-/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("verdaccio did not answer on %s within 60 s: %v\n%s", url, err, log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}

	// npm adduser's request, without its prompts.
	body, _ := json.Marshal(map[string]any{"name": "wop-test", "password": "wop-test-password", "type": "user", "roles": []string{}})
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPut, url+"-/user/org.couchdb.user:wop-test", bytes.NewReader(body))
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer resp.Body.Close()
	var user struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&user); err != nil || user.Token == "" {
		t.Fatalf("adding a user to verdaccio: %s %v", resp.Status, err)
	}
	npmrc = filepath.Join(dir, "npmrc")
	must(t, os.WriteFile(npmrc, []byte("//"+addr+"/:_authToken="+user.Token+"\n"), 0o600))
	return url, npmrc
}

// session runs commands as a user of the registry would, logging each with
// its time, in a fresh npm cache.
type session struct {
	t   *testing.T
	ctx context.Context // ends a little before the test's deadline
	env []string
}

// run runs name args in dir and returns stdout, stderr and the exit code.
func (s session) run(dir, name string, args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	cmd := exec.CommandContext(s.ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = s.env
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	if s.ctx.Err() != nil {
		s.t.Fatalf("%s %s: stopped after %.0f s, near go test's -timeout: the machine is too busy for this test", name, strings.Join(args, " "), time.Since(start).Seconds())
	}
	code = exitCode(s.t, err)
	s.t.Logf("$ %s %s  # exit %d, %.2f s", filepath.Base(name), strings.Join(args, " "), code, time.Since(start).Seconds())
	return out.String(), errOut.String(), code
}

func (s session) ok(dir, name string, args ...string) string {
	s.t.Helper()
	out, errOut, code := s.run(dir, name, args...)
	if code != 0 {
		s.t.Fatalf("%s %s: exit %d\n%s%s", name, strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// registryInstall publishes the packages to a verdaccio on loopback with
// the release's script (releasePublish) and uses them as a pack author
// would: npm install -D -E (an exact pin in package.json), npx wop (hints
// saying "npx wop ...", otherwise the same
// output and exit code as the binary, on a clean and a broken pack), only
// this platform's package installed, npm ci --omit=optional failing with the
// message that says what to do, and npx of the package without installing it.
func registryInstall(t *testing.T, h host, b built, npm, verdaccio string) {
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skip("npx is not on PATH")
	}
	tmp := t.TempDir()
	version := b.version
	url, npmrc := startVerdaccio(t, verdaccio, filepath.Join(tmp, "registry"))
	ctx := t.Context()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-30*time.Second))
		t.Cleanup(cancel)
	}
	s := session{t, ctx, append(os.Environ(),
		"npm_config_registry="+url, "npm_config_userconfig="+npmrc, "npm_config_cache="+filepath.Join(tmp, "npm-cache"),
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false",
		"WOP_CACHE_DIR="+filepath.Join(tmp, "wop-cache"), "NO_COLOR=1")}

	releasePublish(t, s, h, b, npm) // as the release workflow publishes

	proj := filepath.Join(tmp, "project")
	lintTargets(t, proj)
	must(t, os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name": "packs", "version": "1.0.0", "private": true}`+"\n"), 0o644))
	s.ok(proj, npm, "install", "-D", "-E", "@wop-cli/wop@"+version)
	var manifest struct{ DevDependencies map[string]string }
	raw, err := os.ReadFile(filepath.Join(proj, "package.json"))
	must(t, err)
	must(t, json.Unmarshal(raw, &manifest))
	if got := manifest.DevDependencies["@wop-cli/wop"]; got != version {
		t.Errorf("package.json pins @wop-cli/wop at %q, want exactly %q", got, version)
	}
	entries, err := os.ReadDir(filepath.Join(proj, "node_modules", "@wop-cli"))
	must(t, err)
	var installed []string
	for _, e := range entries {
		installed = append(installed, "@wop-cli/"+e.Name())
	}
	if want := []string{"@wop-cli/wop", h.pkg()}; !slices.Equal(installed, want) {
		t.Errorf("installed %q, want only %q", installed, want)
	}

	// First, cold: nothing in the lint cache yet.
	asNpx := session{t, ctx, append(slices.Clip(s.env), "WOP_INVOKED_AS=npx wop")} // the binary as the shim starts it
	for _, target := range []string{"example", "broken"} {
		out, errOut, code := s.run(proj, npx, "wop", "pack", "lint", target)
		wantOut, wantErr, wantCode := asNpx.run(proj, b.wop, "pack", "lint", target)
		if out != wantOut || errOut != wantErr || code != wantCode {
			t.Errorf("npx wop pack lint %s: exit %d\n%s%s\nthe binary: exit %d\n%s%s", target, code, out, errOut, wantCode, wantOut, wantErr)
		}
		t.Logf("lint %s: exit %d, %d lines", target, code, strings.Count(out, "\n"))
	}
	if got, want := s.ok(proj, npx, "wop", "--version"), s.ok(proj, b.wop, "--version"); got != want || !strings.Contains(got, version) {
		t.Errorf("npx wop --version: %q; the binary: %q", got, want)
	}
	drawSeeded(t, s, proj, npx, h.pkg())
	if _, errOut, _ := s.run(proj, npx, "wop", "pack", "init", "community.trial.notes"); !strings.Contains(errOut, "then run 'npx wop pack lint community.trial.notes'") {
		t.Errorf("npx wop pack init: the hint does not name npx wop:\n%s", errOut)
	}

	must(t, os.RemoveAll(filepath.Join(proj, "node_modules")))
	s.ok(proj, npm, "ci", "--omit=optional")
	_, errOut, code := s.run(proj, npx, "wop", "--version")
	if code != 2 || !strings.Contains(errOut, h.pkg()+", which holds wop for "+h.Key+", is not installed") || !strings.Contains(errOut, "npm install --include=optional") {
		t.Errorf("after npm ci --omit=optional, npx wop: exit %d\n%s", code, errOut)
	}
	t.Logf("npx wop without its platform package says:\n%s", errOut)

	bare := filepath.Join(tmp, "bare") // no package.json, nothing installed
	lintTargets(t, bare)
	out, errOut, code := s.run(bare, npx, "--yes", "@wop-cli/wop@"+version, "pack", "lint", "example")
	wantOut, _, wantCode := s.run(bare, b.wop, "pack", "lint", "example")
	if out != wantOut || code != wantCode {
		t.Errorf("npx @wop-cli/wop pack lint: exit %d\n%s%s\nthe binary: exit %d\n%s", code, out, errOut, wantCode, wantOut)
	}
	// Outside a project a bare "npx wop" would fetch the unrelated package
	// "wop": the hint repeats the scoped package at its version.
	_, errOut, _ = s.run(bare, npx, "--yes", "@wop-cli/wop@"+version, "pack", "init", "community.trial.notes")
	if want := "then run 'npx @wop-cli/wop@" + version + " pack lint community.trial.notes'"; !strings.Contains(errOut, want) {
		t.Errorf("npx @wop-cli/wop pack init: the hint does not say %q:\n%s", want, errOut)
	}
}

// drawSeeded: the installed wop draws a chain as SVG, and its helper's
// cache then holds the compiled Graphviz the platform package carries (when
// the build made one). wazero would compile the same bytes, so this shows
// the package's module fits; that it is copied rather than compiled is
// internal/graphviz's tests' to show.
func drawSeeded(t *testing.T, s session, proj, npx, pkg string) {
	chains := filepath.Join(proj, "chains")
	must(t, os.CopyFS(chains, os.DirFS("../examples/community.example.text-chains")))
	svg := s.ok(proj, npx, "wop", "pack", "graph", "chains", "--format", "svg")
	if !strings.HasPrefix(svg, "<?xml") || !strings.Contains(svg, "</svg>") {
		t.Errorf("npx wop pack graph --format svg:\n%.300s", svg)
	}
	seed := filepath.Join(proj, "node_modules", filepath.FromSlash(pkg), "bin", graphviz.PrecompiledDir)
	if _, err := os.Stat(seed); err != nil {
		t.Logf("no compiled Graphviz in the package (%v): the drawing compiled it", err)
		return
	}
	cacheEnv := ""
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "WOP_CACHE_DIR="); ok {
			cacheEnv = v
		}
	}
	err := filepath.WalkDir(seed, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(seed, path)
		want, err := os.ReadFile(path)
		must(t, err)
		got, err := os.ReadFile(filepath.Join(cacheEnv, "graphviz", rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("the drawing's cache lacks the seed's %s: %v", rel, err)
		}
		return nil
	})
	must(t, err)
}

// lintTargets writes into dir a bundled example (example/) and a copy of it
// whose manifest names a prompt that is not there (broken/).
func lintTargets(t *testing.T, dir string) {
	t.Helper()
	example := filepath.Join(dir, "example")
	must(t, os.CopyFS(example, os.DirFS("../examples/community.example.support-agents")))
	must(t, os.CopyFS(filepath.Join(dir, "broken"), os.DirFS(example)))
	manifest := filepath.Join(dir, "broken", "pack.json")
	raw, err := os.ReadFile(manifest)
	must(t, err)
	broken := bytes.Replace(raw, []byte(`"prompts/`), []byte(`"prompts/missing-`), 1)
	if bytes.Equal(broken, raw) {
		t.Fatal("the example names no prompt to break")
	}
	must(t, os.WriteFile(manifest, broken, 0o644))
}
