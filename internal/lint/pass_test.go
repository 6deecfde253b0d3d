package lint

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestFileCacheStaysWithinBudget: a pack larger than the pass's file cache
// is read whole by the rules that look at every file, but the cache holds
// at most cacheBudget bytes, and a file past the budget is still linted
// (its placeholder found) and read again with the same contents.
func TestFileCacheStaysWithinBudget(t *testing.T) {
	dir := t.TempDir()
	chunk := strings.Repeat("Answer in one short sentence.\n", cacheBudget/30/3+1)
	files := map[string]string{
		"pack.json": `{"name":"community.acme.big","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
"runtime":{"language":"remote","entry":"pack.json"},
"agents":[{"agentId":"community.acme.big.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/a.md"}]}`,
		"prompts/a.md": chunk, "prompts/b.md": chunk, "prompts/c.md": chunk, "prompts/d.md": chunk + "TODO: the real prompt\n",
	}
	filetree.Write(t, dir, files)
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	p := &Pass{Pack: pk, files: map[string]fileRead{}, json: map[string]*jsonFile{}}
	for range 2 {
		for _, name := range []string{"prompts/a.md", "prompts/b.md", "prompts/c.md", "prompts/d.md"} {
			data, err := p.ReadFile(name)
			if err != nil || !bytes.Equal(data, []byte(files[name])) {
				t.Fatalf("ReadFile(%s): %d bytes, %v", name, len(data), err)
			}
		}
	}
	if p.cached > cacheBudget || len(p.files) == 4 {
		t.Errorf("the file cache holds %d bytes in %d files; its budget is %d", p.cached, len(p.files), cacheBudget)
	}
	ds, err := Run(pk, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, d := range ds {
		found = found || d.Rule == "placeholder-left" && strings.HasSuffix(d.File, "d.md")
	}
	if !found {
		t.Errorf("the placeholder in a file past the cache budget was not reported: %v", ds)
	}
}

// TestFindPlaceholder: the literal pre-check never changes what the
// regexp finds.
func TestFindPlaceholder(t *testing.T) {
	for _, src := range []string{"", "TODO:", "x TODO: y", "XTODO: y", "TODO", "todo: x", "a\nTODO:\n", "TODO:TODO:", "_TODO:"} {
		got, want := findPlaceholder([]byte(src)), placeholder.FindIndex([]byte(src))
		if len(got) != len(want) || len(got) == 2 && (got[0] != want[0] || got[1] != want[1]) {
			t.Errorf("findPlaceholder(%q) = %v, want %v", src, got, want)
		}
	}
}
