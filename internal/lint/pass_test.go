package lint

import (
	"bytes"
	"fmt"
	"runtime"
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
		got, want := findPlaceholder([]byte(src)), placeholder().FindIndex([]byte(src))
		if len(got) != len(want) || len(got) == 2 && (got[0] != want[0] || got[1] != want[1]) {
			t.Errorf("findPlaceholder(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestLargePackMakesNoGarbagePerFile: the rules that look at every file
// (encoding, placeholders, private keys) borrow a file past the cache
// budget in one reused buffer instead of each reading it anew, so linting
// a pack allocates about the budget plus one file, not its size several
// times over (which is what let a 50 MB pack's heap grow to the memory
// limit). Findings in those files are still reported where they are.
func TestLargePackMakesNoGarbagePerFile(t *testing.T) {
	dir := t.TempDir()
	const size = 1 << 20
	files := map[string]string{
		"pack.json": `{"name":"community.acme.big","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
"runtime":{"language":"remote","entry":"pack.json"},
"agents":[{"agentId":"community.acme.big.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/p00.md"}]}`,
	}
	line := "Answer in one short sentence.\n"
	for i := range 2 * cacheBudget / size {
		files[fmt.Sprintf("prompts/p%02d.md", i)] = strings.Repeat(line, size/len(line))
	}
	files["prompts/p97.md"] = strings.Repeat(line, size/len(line)) + "TODO: the real prompt\n"
	files["prompts/p98.md"] = strings.Repeat(line, size/len(line)) + "caf\xe9\n"
	files["prompts/p99.md"] = strings.Repeat(line, size/len(line)) + "-----BEGIN OPENSSH PRIVATE KEY-----\n"
	filetree.Write(t, dir, files)
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(pk, Options{}); err != nil { // one-time set-up (embedded schemas) out of the count
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ds, err := Run(pk, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	// Reading each file past the budget once for each of three rules
	// allocated 48 MB here; the rest of a run (positions of findings, the
	// referenced prompt) is a few MB.
	if alloc, max := after.TotalAlloc-before.TotalAlloc, uint64(cacheBudget+12*size); alloc > max {
		t.Errorf("linting a %d MB pack allocated %d MB, want at most %d MB (the file cache's budget plus a few files)",
			len(files)*size>>20, alloc>>20, max>>20)
	}
	want := map[string]string{"placeholder-left": "p97.md", "encoding-not-utf8": "p98.md", "private-key-in-pack": "p99.md"}
	for _, d := range ds {
		atLine := d.Start.Line > size/len(line) || d.Rule == "private-key-in-pack" // a whole-file finding
		if file, ok := want[d.Rule]; ok && strings.HasSuffix(d.File, file) && atLine {
			delete(want, d.Rule)
		}
	}
	if len(want) != 0 {
		t.Errorf("findings in files past the cache budget not reported at their line: %v\ngot: %v", want, ds)
	}
}
