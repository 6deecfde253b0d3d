package lint

import (
	"io/fs"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
)

// TestNearestFile: a missing ref's near spelling in its own folder wins
// over one elsewhere in the pack; two as near in a folder mean no guess
// (and no look further), and so do two as near in the whole pack; only
// regular files are offered.
func TestNearestFile(t *testing.T) {
	files := []pack.File{
		{Name: "prompts/notes.md"}, {Name: "docs/note.md"},
		{Name: "schemas/task.json"}, {Name: "schemas/tusk.json"}, {Name: "other/tasks.json"},
		{Name: "guides/intro.md", Mode: fs.ModeSymlink},
		{Name: "readme/setup.md"},
	}
	p := &Pass{Pack: &pack.Pack{Files: files}}
	for _, tt := range []struct {
		target, want string
		ok           bool
	}{
		{"prompts/note.md", "prompts/notes.md", true}, // its folder first, though docs/note.md is as near
		{"schemas/tesk.json", "", false},              // task and tusk: rivals
		{"guides/intro.mdx", "", false},               // a link is no file to offer
		{"readme/stup.md", "readme/setup.md", true},   // a letter off
		{"prompts/assistant.md", "", false},           // nothing near
		{"prompt/notes.md", "prompts/notes.md", true}, // no file in its folder: the whole pack
		{"schema/tesk.json", "", false},               // the whole pack, where task and tusk are rivals
	} {
		got, ok := nearestFile(p, tt.target)
		if got != tt.want || ok != tt.ok {
			t.Errorf("nearestFile(%q) = %q, %v; want %q, %v", tt.target, got, ok, tt.want, tt.ok)
		}
	}
}
