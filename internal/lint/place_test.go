package lint

import (
	"fmt"
	"io/fs"
	"testing"
	"testing/fstest"
)

// countingFS counts the files and directories opened or stat'ed through it.
type countingFS struct {
	fstest.MapFS
	touched int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.touched++
	return c.MapFS.Open(name)
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) {
	c.touched++
	return c.MapFS.Stat(name)
}

// TestPacksInDoesNotReadEverySibling: one pack's place in a folder of 1,000
// packs costs a few directory entries, not a look at every sibling, so a
// cached lint of one pack there does not pay for the other 999
// (bench/scale.sh measures the whole run).
func TestPacksInDoesNotReadEverySibling(t *testing.T) {
	tests := []struct {
		name      string
		packs     int
		others    int // sibling directories without a pack.json
		want      int
		maxTouchs int
	}{
		{"alone", 1, 0, 1, 3},
		{"no pack among other folders", 0, 40, 0, 45},
		{"two packs", 2, 0, 2, 4},
		{"1,000 packs", 1000, 0, 2, 20},
		{"1,000 packs after other folders", 1000, 10, 2, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := &countingFS{MapFS: fstest.MapFS{}}
			for i := range tt.packs {
				fsys.MapFS[fmt.Sprintf("p%04d/pack.json", i)] = &fstest.MapFile{Data: []byte("{}")}
			}
			for i := range tt.others {
				fsys.MapFS[fmt.Sprintf("a%04d/README.md", i)] = &fstest.MapFile{}
			}
			if got := packsIn(fsys, 2); got != tt.want {
				t.Errorf("packsIn = %d, want %d", got, tt.want)
			}
			if fsys.touched > tt.maxTouchs {
				t.Errorf("looked at %d files among %d folders, want at most %d", fsys.touched, tt.packs+tt.others, tt.maxTouchs)
			}
		})
	}
}
