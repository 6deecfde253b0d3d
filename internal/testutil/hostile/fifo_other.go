//go:build !unix

package hostile

// mkfifo is a no-op where FIFOs do not exist.
func mkfifo(string) error { return nil }
