package atomicfile

import "os"

// Replace writes data over the existing file at path as Write does,
// keeping the file's permission bits: how bump, lint --fix and migrate
// rewrite a pack's files. A path that does not exist is an error.
func Replace(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	return Write(path, data, info.Mode().Perm())
}
