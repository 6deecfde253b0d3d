//go:build unix

package scratch

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// aged backdates path past MinAge, as a leftover from an earlier run is.
func aged(t *testing.T, path string) {
	t.Helper()
	old := time.Now().Add(-2 * MinAge)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// TestHelperProcess is not a test: TestSweepAfterKill runs it as another
// process that makes a folder and a file, prints their paths and waits to
// be killed.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("SCRATCH_HELPER") != "1" {
		t.Skip("run by TestSweepAfterKill")
	}
	d, err := Dir("wop-stage-")
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := File("wop-against-*.tgz")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(d.Path, "pack.json"), []byte("{}"), 0o644)
	os.Stdout.WriteString(d.Path + "\n" + f.Path + "\n")
	time.Sleep(time.Minute)
}

// TestSweepAfterKill: a process holding a folder and a file is killed with
// SIGKILL; while it ran, Sweep left both; once it is dead, Sweep removes
// both.
func TestSweepAfterKill(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "SCRATCH_HELPER=1")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	var paths []string
	for len(paths) < 2 && lines.Scan() {
		paths = append(paths, lines.Text())
	}
	if len(paths) != 2 {
		t.Fatalf("helper printed %q", paths)
	}
	for _, p := range paths {
		aged(t, p)
	}
	Sweep("wop-stage-")
	Sweep("wop-against-")
	for _, p := range paths {
		if !exists(p) {
			t.Fatalf("%s removed while its maker runs", p)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	Sweep("wop-stage-")
	Sweep("wop-against-")
	for _, p := range paths {
		if exists(p) {
			t.Errorf("%s left after its maker was killed", p)
		}
	}
}

// TestSweepLeavesOthers: Sweep removes an old unlocked leftover and
// nothing else: not a young one, not a locked one, not a symbolic link or
// a name without the prefix.
func TestSweepLeavesOthers(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	leftover := filepath.Join(tmp, "wop-stage-1")
	young := filepath.Join(tmp, "wop-stage-2")
	other := filepath.Join(tmp, "not-wop-stage-3")
	target := filepath.Join(tmp, "kept")
	link := filepath.Join(tmp, "wop-stage-link")
	for _, d := range []string{leftover, young, other, target} {
		os.MkdirAll(filepath.Join(d, "sub"), 0o755)
	}
	os.Symlink(target, link)
	held, err := Dir("wop-stage-")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Remove()
	for _, p := range []string{leftover, other, target, held.Path} {
		aged(t, p)
	}
	Sweep("wop-stage-")
	if exists(leftover) {
		t.Error("an old unlocked leftover stayed")
	}
	for _, p := range []string{young, other, target, link, filepath.Join(target, "sub"), held.Path} {
		if !exists(p) {
			t.Errorf("%s removed", strings.TrimPrefix(p, tmp))
		}
	}
}

// TestRemove: Remove deletes the entry and may be called again.
func TestRemove(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	d, err := Dir("wop-stage-")
	if err != nil {
		t.Fatal(err)
	}
	f, w, err := File("wop-against-*.tgz")
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("data")
	w.Close()
	for _, x := range []*Temp{d, f} {
		if err := x.Remove(); err != nil || exists(x.Path) {
			t.Errorf("%s: %v, exists %v", x.Path, err, exists(x.Path))
		}
		if err := x.Remove(); err != nil {
			t.Errorf("second Remove: %v", err)
		}
	}
}

// TestSweepSkipsFIFO: a FIFO under the prefix (as if swapped in after the
// listing) neither hangs the sweep nor is removed.
func TestSweepSkipsFIFO(t *testing.T) {
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "wop-stage-fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	aged(t, fifo)
	sweepOne(fifo)
	if !exists(fifo) {
		t.Error("a FIFO was removed")
	}
}
