//go:build !unix

package lsp

import "errors"

// mkfifo: Windows has no named pipes in the file system, so the tests that
// need one skip, saying so.
func mkfifo(string) error { return errors.ErrUnsupported }
