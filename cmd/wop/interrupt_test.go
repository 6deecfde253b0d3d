package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bigPack writes a pack whose build takes seconds: 45 MB of incompressible
// prompts.
func bigPack(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "community.acme.big")
	os.MkdirAll(filepath.Join(dir, "prompts"), 0o755)
	manifest := `{"name":"community.acme.big","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
	  "runtime":{"language":"remote","entry":"pack.json"},
	  "agents":[{"agentId":"community.acme.big.a","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`
	os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644)
	buf := make([]byte, 4500<<10)
	for i := range 10 {
		rand.Read(buf)
		if err := os.WriteFile(filepath.Join(dir, "prompts", fmt.Sprintf("p%d.md", i)), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestInterrupt runs wop as a process (this test binary, which TestMain
// puts on PATH as wop, running main's signal handling), interrupts a long
// build, and checks the exit status, the time to exit and that no
// temporary file is left.
func TestInterrupt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on Windows")
	}
	wop, err := exec.LookPath("wop")
	if err != nil {
		t.Fatal(err)
	}
	src := bigPack(t)
	for _, signals := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d signals", signals), func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(wop, "pack", "build", src, "--unsigned", "--no-lint", "-o", out)
			cmd.Env = append(os.Environ(), "NO_COLOR=1", "WOP_CACHE_DIR=off")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Signal once the archive's temporary file exists: the write
			// is under way and must be cleaned up.
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if tmp, _ := os.ReadDir(out); len(tmp) > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the build never started writing")
				}
			}
			sent := time.Now()
			for range signals {
				cmd.Process.Signal(syscall.SIGINT)
			}
			err := cmd.Wait()
			took := time.Since(sent)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Fatalf("exit: %v, want status 130", err)
			}
			// At once for a person; loose enough for a loaded CI machine
			// (200 ms failed about one run in 80 under the race detector),
			// and still far below the seconds the build would run on.
			if took > time.Second {
				t.Errorf("took %v to exit after Ctrl-C", took)
			}
			// A second Ctrl-C kills at once, so only the first promises to
			// remove the temporary files; neither leaves a final one.
			for _, e := range ls(out) {
				if signals == 1 || !strings.HasPrefix(e, ".") {
					t.Errorf("left behind: %s", e)
				}
			}
		})
	}
}

func ls(dir string) []string {
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
