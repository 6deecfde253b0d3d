//go:build !unix

package npm_test

// The signal tests are POSIX-only; these keep the stand-in wop compiling.
func waitForSignal(string) int { return 130 }

func killSelf() int { return 137 }
