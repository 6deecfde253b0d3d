package cli

import (
	"testing"
	"testing/fstest"
)

// TestLongHelp: a help file's text is the command's Long text as it was
// inline: without the final newline cobra adds, inner lines untouched.
func TestLongHelp(t *testing.T) {
	files := fstest.MapFS{"help/x.txt": {Data: []byte("First line.\n\nExit status: 0 ok.\n")}}
	if got, want := LongHelp(files, "x"), "First line.\n\nExit status: 0 ok."; got != want {
		t.Errorf("LongHelp = %q, want %q", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("a missing help file did not panic")
		}
	}()
	LongHelp(files, "missing")
}
