//go:build unix

package stage

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and makes cancelling
// it kill the whole group: npm runs its script through a shell, and
// killing npm alone would leave the script running, holding our output
// pipe open and its working directory (the staging copy) in use.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
