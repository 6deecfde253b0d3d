package packcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// writeManyPacks writes n small packs named private.acme.pN under root;
// pack bad (if in range) names a prompt that does not exist.
func writeManyPacks(t *testing.T, root string, n, bad int) []string {
	t.Helper()
	var dirs []string
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("p%d", i))
		ref := "prompts/a.md"
		if i == bad {
			ref = "prompts/missing.md"
		}
		manifest := fmt.Sprintf(`{"name":"private.acme.p%d","version":"1.0.%d","engines":{"openwop":">=1.1.0 <2.0.0"},
  "runtime":{"language":"remote","entry":"pack.json"},
  "agents":[{"agentId":"private.acme.p%d.a","persona":"A","modelClass":"general","systemPromptRef":%q}]}`, i, i, i, ref)
		for name, data := range map[string]string{"pack.json": manifest, "prompts/a.md": fmt.Sprintf("Prompt %d.\n", i)} {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, fmt.Sprintf("p%d", i))
	}
	return dirs
}

// buildRun is what one `wop pack build DIR...` printed and wrote.
type buildRun struct {
	out, errOut string
	files       map[string]string
	err         error
}

func runManyBuild(t *testing.T, root string, dirs []string, procs int) buildRun {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &cli.Env{Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }, WorkDir: root}
	outDir := fmt.Sprintf("out%d", procs)
	o := &buildOptions{env: env, outDir: outDir, dirs: dirs}
	o.keys.spec, o.keys.unsigned = "auto", true
	old := runtime.GOMAXPROCS(procs)
	err := runBuild(context.Background(), o)
	runtime.GOMAXPROCS(old)
	run := buildRun{out: out.String(), errOut: errOut.String(), files: map[string]string{}, err: err}
	entries, _ := os.ReadDir(filepath.Join(root, outDir))
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, outDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		run.files[e.Name()] = string(data)
	}
	return run
}

// TestBuildManyIgnoresGOMAXPROCS: building many packs concurrently prints
// the same bytes in the same order, and writes the same files, with one
// thread or eight; the bad pack fails alone, its error after the output of
// the packs before it.
func TestBuildManyIgnoresGOMAXPROCS(t *testing.T) {
	root := t.TempDir()
	dirs := writeManyPacks(t, root, 12, 5)
	one := runManyBuild(t, root, dirs, 1)
	eight := runManyBuild(t, root, dirs, 8)
	if !errors.Is(one.err, cli.ErrFindings) || !errors.Is(eight.err, cli.ErrFindings) {
		t.Fatalf("errors %v, %v; want ErrFindings (one bad pack)", one.err, eight.err)
	}
	eight.out = string(bytes.ReplaceAll([]byte(eight.out), []byte("out8/"), []byte("out1/")))
	if one.out != eight.out || one.errOut != eight.errOut {
		t.Errorf("output differs with GOMAXPROCS:\n%s%s\n---\n%s%s", one.out, one.errOut, eight.out, eight.errOut)
	}
	// Unsigned: .tgz, .json and .integrity for each good pack.
	if len(one.files) != 11*3 || len(eight.files) != len(one.files) {
		t.Fatalf("%d and %d files, want %d", len(one.files), len(eight.files), 11*3)
	}
	for name, data := range one.files {
		if eight.files[name] != data {
			t.Errorf("%s differs with GOMAXPROCS", name)
		}
	}
	if _, ok := one.files["private.acme.p5-1.0.5.tgz"]; ok {
		t.Error("the bad pack was built")
	}
	last := -1
	for i := range 12 {
		if i == 5 {
			continue
		}
		at := strings.Index(one.out, fmt.Sprintf("wrote out1/private.acme.p%d-1.0.%d.tgz\n", i, i))
		if at <= last {
			t.Errorf("pack %d missing or out of argument order:\n%s", i, one.out)
		}
		last = at
	}
	// Each pack's findings (warnings too) and summary, then its refusal.
	if want := "error ref-missing: agents[0].systemPromptRef \"prompts/missing.md\": file not found in the pack directory; add it or fix the path\n" +
		"1 error, 2 warnings, 1 info (hidden: wop pack lint --info shows it) in 1 pack\nwop: p5: lint found 1 error; not building\np6/"; !strings.Contains(one.errOut, want) {
		t.Errorf("stderr %q, want %q", one.errOut, want)
	}
}

// TestBuildManyFailureLeavesNoTornSet: ten packs are rebuilt changed into
// the folder of their first build; the seventh cannot be published (a
// folder sits where its version manifest goes). It alone fails, keeping
// its previous archive and sidecar; the other nine are the new build's,
// whole; no temporary file is left.
func TestBuildManyFailureLeavesNoTornSet(t *testing.T) {
	root := t.TempDir()
	dirs := writeManyPacks(t, root, 10, -1)
	first := runManyBuild(t, root, dirs, 2)
	if first.err != nil {
		t.Fatal(first.err, first.errOut)
	}
	for i := range 10 {
		if err := os.WriteFile(filepath.Join(root, dirs[i], "prompts", "a.md"), []byte("Changed.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	blocked := filepath.Join(root, "out2", "private.acme.p6-1.0.6.json")
	if err := os.Remove(blocked); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(blocked, 0o755); err != nil {
		t.Fatal(err)
	}
	second := runManyBuild(t, root, dirs, 2)
	if !errors.Is(second.err, cli.ErrFindings) || !strings.Contains(second.errOut, "wop: p6: ") {
		t.Fatalf("err %v, stderr %q; want p6 to fail alone", second.err, second.errOut)
	}
	if strings.Count(second.errOut, "wop: ") != 1 {
		t.Errorf("stderr %q: more than p6 failed", second.errOut)
	}
	for i := range 10 {
		base := fmt.Sprintf("private.acme.p%d-1.0.%d", i, i)
		for _, ext := range []string{".tgz", ".integrity"} {
			changed := second.files[base+ext] != first.files[base+ext]
			if changed != (i != 6) {
				t.Errorf("%s: changed %v", base+ext, changed)
			}
		}
	}
	for name := range second.files {
		if strings.HasPrefix(name, ".") {
			t.Errorf("temporary file %s left", name)
		}
	}
}

// TestBuildManyStartsWithTheLargest: packs of different sizes (built
// largest first, see build.TestHeaviestFirst) print in argument order.
func TestBuildManyStartsWithTheLargest(t *testing.T) {
	root := t.TempDir()
	dirs := writeManyPacks(t, root, 3, -1)
	// p1 gets the largest manifest, p0 the next: order p1, p0, p2.
	for i, pad := range map[int]int{0: 200, 1: 400} {
		p := filepath.Join(root, dirs[i], "pack.json")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		padded := strings.Replace(string(data), `"runtime"`, `"description":"`+strings.Repeat("x", pad)+`","runtime"`, 1)
		if err := os.WriteFile(p, []byte(padded), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	env := &cli.Env{Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }, WorkDir: root}
	o := &buildOptions{env: env, outDir: "out", dirs: dirs}
	o.keys.spec, o.keys.unsigned = "auto", true
	if err := runBuild(context.Background(), o); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if a, b, c := strings.Index(out.String(), "p0-"), strings.Index(out.String(), "p1-"), strings.Index(out.String(), "p2-"); !(a < b && b < c) {
		t.Errorf("output out of argument order:\n%s", out.String())
	}
}

// TestBuildManyStopsWhenCancelled: after Ctrl-C a many-pack build starts
// no more packs (none is linted: the bad one's findings are not printed),
// writes nothing and says only that it was interrupted.
func TestBuildManyStopsWhenCancelled(t *testing.T) {
	root := t.TempDir()
	dirs := writeManyPacks(t, root, 4, 2)
	var out, errOut bytes.Buffer
	env := &cli.Env{Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }, WorkDir: root}
	o := &buildOptions{env: env, outDir: "out", dirs: dirs}
	o.keys.spec, o.keys.unsigned = "auto", true
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := runBuild(ctx, o); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if out.Len() > 0 || errOut.Len() > 0 {
		t.Errorf("printed %q %q", out.String(), errOut.String())
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "out")); len(entries) > 0 {
		t.Errorf("wrote %d files", len(entries))
	}
}
