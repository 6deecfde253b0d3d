//go:build !unix

package stage

import "os/exec"

// ownGroup leaves cmd as it is: without Unix process groups, cancelling
// kills the step's own process, and run's WaitDelay bounds the wait for
// its children's output.
func ownGroup(*exec.Cmd) {}
