//go:build unix

package npm_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitForSignal is the stand-in wop's "wait": it reports its pid in
// pidfile, then exits 130 on SIGINT, SIGTERM or SIGHUP, as wop does.
func waitForSignal(pidfile string) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	os.WriteFile(pidfile+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644)
	os.Rename(pidfile+".tmp", pidfile)
	fmt.Printf("got %v\n", <-sigs)
	return 130
}

// killSelf is the stand-in wop's "kill": it dies of SIGKILL.
func killSelf() int {
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	time.Sleep(time.Minute)
	return 0
}

// waitForPid waits for the stand-in wop to write its pid.
func waitForPid(t *testing.T, pidfile string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if raw, err := os.ReadFile(pidfile); err == nil {
			pid, err := strconv.Atoi(string(raw))
			must(t, err)
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the stand-in wop never started")
	return 0
}

// TestShimSignals: SIGTERM, SIGINT or SIGHUP sent to the shim alone, and Ctrl-C (SIGINT to
// the whole process group, as a terminal sends it), stop wop, which exits
// 130 and the shim with it, and no wop is left running; a wop that dies of
// a signal makes the shim die of the same one.
func TestShimSignals(t *testing.T) {
	h := needNode(t)
	shim := shimInstall(t, h, true)
	tests := []struct {
		name  string
		group bool // signal the process group, not the shim alone
		sig   syscall.Signal
		want  string
	}{
		{"SIGTERM to the shim", false, syscall.SIGTERM, "got terminated"},
		{"SIGINT to the shim", false, syscall.SIGINT, "got interrupt"},
		// A closed terminal or an ssh session ending hangs up the shim.
		{"SIGHUP to the shim", false, syscall.SIGHUP, "got hangup"},
		{"Ctrl-C to the process group", true, syscall.SIGINT, "got interrupt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			cmd := shimCmd(shim, "wait")
			cmd.Env = append(cmd.Env, "WOP_NPM_TEST_PIDFILE="+pidfile)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var out strings.Builder
			cmd.Stdout = &out
			cmd.WaitDelay = 5 * time.Second // an orphan holding stdout open must not hang Wait
			must(t, cmd.Start())
			wop := waitForPid(t, pidfile)
			t.Cleanup(func() { syscall.Kill(wop, syscall.SIGKILL) })
			target := cmd.Process.Pid
			if tt.group {
				target = -target
			}
			must(t, syscall.Kill(target, tt.sig))
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the shim did not exit after the signal")
			}
			if got := exitCode(t, err); got != 130 {
				t.Errorf("exit %d, want wop's 130", got)
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Errorf("wop printed %q, want %q", out.String(), tt.want)
			}
			if err := syscall.Kill(wop, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("wop (pid %d) still runs after the shim exited: an orphan", wop)
			}
		})
	}

	t.Run("wop dies of a signal", func(t *testing.T) {
		err := shimCmd(shim, "kill").Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("shim: %v", err)
		}
		if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Errorf("the shim ended with %v, want killed by SIGKILL as wop was", ws)
		}
	})
}
