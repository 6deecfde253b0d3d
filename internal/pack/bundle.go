package pack

import (
	"path"
	"strings"
)

// topLevel and oneLevel are the reference builder's file set (FORMAT.md §2):
// what a registry build puts in an archive besides the files refs name.
var topLevel = map[string]bool{"pack.json": true, "README.md": true, "LICENSE": true, "index.mjs": true}

var oneLevel = map[string][]string{
	"schemas": {".json"},
	"keys":    {".pem", ".sig"},
	"prompts": {".md", ".txt"},
}

// InDefaultSet reports whether the reference builder bundles name by itself,
// whatever the manifest says.
func InDefaultSet(name string) bool {
	if topLevel[name] {
		return true
	}
	dir, file := path.Split(name)
	exts, ok := oneLevel[strings.TrimSuffix(dir, "/")]
	if !ok || file == "" {
		return false
	}
	for _, ext := range exts {
		if strings.HasSuffix(file, ext) {
			return true
		}
	}
	return false
}
