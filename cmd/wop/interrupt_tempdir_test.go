package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// stageCheckout writes a pull-request registry checkout whose index
// builder runs for a long time (a shell that starts a child), and a pack to
// stage into it signed by a key the checkout knows.
func stageCheckout(t *testing.T, wop string) (dir string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"clone/package.json": `{"name": "test-registry", "private": true,
 "scripts": {"build:index": "sleep 30; echo never", "check": "true"}}`,
		"clone/registry/.well-known/openwop-registry.json": `{"name": "test registry", "url": "https://packs.example.test",
 "supportedNamespaces": ["community"],
 "endpoints": {"versionManifest": "/v1/packs/{name}/-/{version}.json", "versionTarball": "/v1/packs/{name}/-/{version}.tgz", "publicKey": "/keys/{keyId}.pub"},
 "writeApi": {"supported": false, "publishMethod": "github-pull-request"},
 "signingKeys": [{"keyId": "acme-1", "algorithm": "ed25519", "publicKeyUrl": "/keys/acme-1.pub", "permittedNamespaces": ["community.acme.*"], "status": "active"}]}`,
		"clone/registry/v1/index.json":  `{"packCount": 0, "packs": null}`,
		"clone/packs/README.md":         "Pack sources.\n",
		"clone/registry/keys/README.md": "Publishers' public keys.\n",
		"good/pack.json": `{"name": "community.acme.demo", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "runtime": {"language": "remote", "entry": "pack.json"},
 "agents": [{"agentId": "community.acme.demo.a", "persona": "A", "modelClass": "general", "systemPrompt": "Hi."}]}`,
	}
	filetree.Write(t, dir, files)
	keygen := exec.Command(wop, "key", "generate", "--key-id", "acme-1", "-o", filepath.Join(dir, "keys"))
	if out, err := keygen.CombinedOutput(); err != nil {
		t.Fatalf("key generate: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(filepath.Join(dir, "keys", "acme-1.pub.pem"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "clone", "registry", "keys", "acme-1.pub"), pub, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// stageTest skips where a stage test cannot run (no signals or locks on
// Windows, no npm to run the checkout's scripts) and returns wop and a
// folder holding a checkout, a pack and its key (stageCheckout).
func stageTest(t *testing.T) (wop, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT or flock on Windows")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("stage runs the checkout's scripts with npm, which is not installed")
	}
	wop, err := exec.LookPath("wop")
	if err != nil {
		t.Fatal(err)
	}
	return wop, stageCheckout(t, wop)
}

// stageCmd stages the pack into the checkout, with tmp as $TMPDIR.
func stageCmd(wop, dir, tmp string) *exec.Cmd {
	cmd := exec.Command(wop, "pack", "publish", "good", "--key", "keys/acme-1.pem", "--key-id", "acme-1", "-o", "out", "--stage", "clone")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "WOP_CACHE_DIR=off", "TMPDIR="+tmp, "WOP_REGISTRY=http://127.0.0.1:1")
	return cmd
}

// TestInterruptStageRemovesCopy: Ctrl-C while the checkout's generator
// runs stops it (and the child its shell started, which holds wop's output
// pipe), and wop removes its wop-stage-* copy of the checkout from the
// temporary directory before it exits 130.
func TestInterruptStageRemovesCopy(t *testing.T) {
	wop, dir := stageTest(t)
	tmp := t.TempDir()
	cmd := stageCmd(wop, dir, tmp)
	// A file, not a buffer, so the test can read it while wop writes.
	stderrPath := filepath.Join(t.TempDir(), "stderr")
	stderrFile, err := os.Create(stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	defer stderrFile.Close()
	cmd.Stderr = stderrFile
	stderr := func() string { b, _ := os.ReadFile(stderrPath); return string(b) }
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Signal once the generator runs: the copy exists by then.
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(stderr(), "running npm run build:index"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the generator never started; stderr:\n%s", stderr())
		}
	}
	time.Sleep(300 * time.Millisecond) // npm has started its shell and sleep
	if got := ls(tmp); len(got) != 1 || !strings.HasPrefix(got[0], "wop-stage-") {
		t.Fatalf("temporary directory holds %v, want the staging copy", got)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want status 130; stderr:\n%s", err, stderr())
	}
	if got := ls(tmp); len(got) != 0 {
		t.Errorf("left behind in the temporary directory: %v", got)
	}
}

// TestInterruptBreakingRemovesArchive: Ctrl-C while breaking waits for its
// catalog (a server that never answers) removes the wop-against-*.tgz that
// git:REF was exported to, and wop exits 130.
func TestInterruptBreakingRemovesArchive(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on Windows")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	wop, err := exec.LookPath("wop")
	if err != nil {
		t.Fatal(err)
	}
	hung := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hung:
		}
	}))
	defer srv.Close()
	defer close(hung)

	dir := t.TempDir()
	manifest := `{"name": "community.acme.demo", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "runtime": {"language": "remote", "entry": "pack.json"},
 "agents": [{"agentId": "community.acme.demo.a", "persona": "A", "modelClass": "general", "systemPrompt": "Hi."}]}`
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	gitEnv := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "v1"}} {
		git := exec.Command("git", args...)
		git.Dir, git.Env = dir, gitEnv
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}

	tmp := t.TempDir()
	cmd := exec.Command(wop, "pack", "breaking", ".", "--against", "git:HEAD", "--catalog", srv.URL+"/index.json")
	cmd.Dir = dir
	cmd.Env = append(gitEnv, "NO_COLOR=1", "WOP_CACHE_DIR=off", "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Signal once the export exists: wop is waiting for the catalog then.
	for deadline := time.Now().Add(20 * time.Second); len(ls(tmp)) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("wop never exported git:HEAD")
		}
	}
	time.Sleep(200 * time.Millisecond) // past the export, into the catalog request
	if got := ls(tmp); len(got) != 1 || !strings.HasPrefix(got[0], "wop-against-") {
		t.Fatalf("temporary directory holds %v, want the exported archive", got)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want status 130", err)
	}
	if got := ls(tmp); len(got) != 0 {
		t.Errorf("left behind in the temporary directory: %v", got)
	}
}

// TestKilledStageCopyIsSwept: a stage killed with SIGKILL cannot remove
// its wop-stage-* copy; the next stage, once the copy is older than an
// hour, removes it, since no running wop holds its lock any more.
func TestKilledStageCopyIsSwept(t *testing.T) {
	wop, dir := stageTest(t)
	slow := `{"name": "test-registry", "private": true, "scripts": {"build:index": "sleep 3", "check": "true"}}`
	fast := `{"name": "test-registry", "private": true, "scripts": {"build:index": "true", "check": "true"}}`
	pkgJSON := filepath.Join(dir, "clone", "package.json")
	os.WriteFile(pkgJSON, []byte(slow), 0o644)
	tmp := t.TempDir()
	killed := stageCmd(wop, dir, tmp)
	if err := killed.Start(); err != nil {
		t.Fatal(err)
	}
	var copies []string
	for deadline := time.Now().Add(20 * time.Second); len(copies) == 0; time.Sleep(10 * time.Millisecond) {
		copies = ls(tmp)
		if time.Now().After(deadline) {
			killed.Process.Kill()
			t.Fatal("stage never made its copy")
		}
	}
	killed.Process.Kill()
	killed.Wait()
	if got := ls(tmp); len(got) != 1 || !strings.HasPrefix(got[0], "wop-stage-") {
		t.Fatalf("after kill -9 the temporary directory holds %v, want the copy", got)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(tmp, copies[0]), old, old)
	os.WriteFile(pkgJSON, []byte(fast), 0o644)
	out, _ := stageCmd(wop, dir, tmp).CombinedOutput()
	if got := ls(tmp); len(got) != 0 {
		t.Errorf("the next stage left %v in the temporary directory; its output:\n%s", got, out)
	}
}
