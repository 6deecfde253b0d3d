package build

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

func planOf(t *testing.T, dir string, s Signing) *Plan {
	t.Helper()
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := NewPlan(pk, s)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// snapshot reads every non-temporary file in dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

// TestOutputSetNeverMixed builds a signed pack, then rebuilds it changed
// and unsigned over the same folder, and looks at the folder after every
// removal and rename: a kill at that moment would leave exactly that. Every
// file present must come from one build.
func TestOutputSetNeverMixed(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src, names(), time.Now())
	key := testKey(t)
	out, newOut := t.TempDir(), t.TempDir()
	if _, err := planOf(t, src, Signing{Spec: sign.SpecV1, Key: key}).Write(t.Context(), out); err != nil {
		t.Fatal(err)
	}
	oldSet := snapshot(t, out)
	if err := os.WriteFile(filepath.Join(src, "prompts", "a.md"), []byte("Be briefer.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := planOf(t, src, Signing{}).Write(t.Context(), newOut); err != nil {
		t.Fatal(err)
	}
	newSet := snapshot(t, newOut)
	if len(oldSet) != 4 || len(newSet) != 3 {
		t.Fatalf("old %d files, new %d", len(oldSet), len(newSet))
	}
	plan := planOf(t, src, Signing{})
	steps := 0
	plan.hook = func(string) {
		steps++
		var fromOld, fromNew []string
		for name, data := range snapshot(t, out) {
			switch data {
			case oldSet[name]:
				fromOld = append(fromOld, name)
			case newSet[name]:
				fromNew = append(fromNew, name)
			default:
				t.Errorf("step %d: %s is from neither build", steps, name)
			}
		}
		if len(fromOld) > 0 && len(fromNew) > 0 {
			t.Errorf("step %d: old %v beside new %v", steps, fromOld, fromNew)
		}
	}
	if _, err := plan.Write(t.Context(), out); err != nil {
		t.Fatal(err)
	}
	if steps != 4+3 {
		t.Errorf("%d steps, want 4 removals and 3 renames", steps)
	}
	if got := snapshot(t, out); len(got) != 3 || got[plan.BaseName()+".tgz"] != newSet[plan.BaseName()+".tgz"] {
		t.Errorf("final folder %v", keys(got))
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func testKey(t *testing.T) *sign.PrivateKey {
	t.Helper()
	kp, err := sign.Generate()
	if err != nil {
		t.Fatal(err)
	}
	k, err := sign.ParsePrivateKey(kp.PrivatePEM, "test-1")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestWriteRefusesAFileSwappedAfterListing: between the listing (which
// lint checked) and the write, a source file becomes a same-size link to a
// file outside the pack, or a FIFO. The build refuses, names the file, does
// not block, and leaves nothing behind.
func TestWriteRefusesAFileSwappedAfterListing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("FIFOs are Unix")
	}
	swaps := map[string]func(t *testing.T, p, outside string){
		"same-size link": func(t *testing.T, p, outside string) {
			os.Remove(p)
			if err := os.Symlink(outside, p); err != nil {
				t.Fatal(err)
			}
		},
		"FIFO": func(t *testing.T, p, _ string) {
			os.Remove(p)
			if err := mkfifo(p); err != nil {
				t.Fatal(err)
			}
		},
		"same-size file": func(t *testing.T, p, _ string) {
			os.Remove(p)
			os.WriteFile(p, []byte("Be quick.\n"), 0o644)
		},
	}
	for name, swap := range swaps {
		t.Run(name, func(t *testing.T) {
			src := t.TempDir()
			writeFixture(t, src, names(), time.Now().Add(-time.Hour))
			outside := filepath.Join(t.TempDir(), "secret")
			os.WriteFile(outside, []byte("secret!!!\n"), 0o644) // as long as prompts/a.md
			plan := planOf(t, src, Signing{})
			swap(t, filepath.Join(src, "prompts", "a.md"), outside)
			out := t.TempDir()
			done := make(chan error, 1)
			go func() {
				_, err := plan.Write(t.Context(), out)
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "prompts/a.md") {
					t.Fatalf("got %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("build blocked")
			}
			if left, _ := os.ReadDir(out); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

func TestWriteStopsWhenCancelled(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src, names(), time.Now())
	big := bytes.Repeat([]byte("x"), 4<<20)
	os.WriteFile(filepath.Join(src, "prompts", "big.md"), big, 0o644)
	plan := planOf(t, src, Signing{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out := t.TempDir()
	if _, err := plan.Write(ctx, out); err == nil {
		t.Fatal("cancelled write succeeded")
	}
	if left, _ := os.ReadDir(out); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestRebuildUnchangedLeavesFiles: rebuilding an unchanged pack over its
// own output leaves every file as it is (same inode: nothing written, and
// no temporary file), while a folder that differs in any way (an archive
// changed in place, a stale signature beside an unsigned build) gets the
// new set whole.
func TestRebuildUnchangedLeavesFiles(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src, names(), time.Now())
	out := t.TempDir()
	build := func() *Result {
		t.Helper()
		res, err := planOf(t, src, Signing{}).Write(t.Context(), out)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := build()
	stat := func(p string) os.FileInfo {
		t.Helper()
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	first := map[string]os.FileInfo{}
	for _, p := range []string{res.Archive, res.Manifest, res.Sidecar} {
		first[p] = stat(p)
	}
	want := snapshot(t, out)
	build()
	for p, info := range first {
		if !os.SameFile(info, stat(p)) {
			t.Errorf("%s was rewritten", filepath.Base(p))
		}
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 3 {
		t.Errorf("folder holds %d entries, want the 3 files", len(entries))
	}

	tgz, _ := os.ReadFile(res.Archive)
	tgz[len(tgz)/2] ^= 0xff
	if err := os.WriteFile(res.Archive, tgz, 0o644); err != nil {
		t.Fatal(err)
	}
	build()
	if os.SameFile(first[res.Archive], stat(res.Archive)) {
		t.Error("an archive changed in place was left")
	}
	sig := filepath.Join(out, strings.TrimSuffix(filepath.Base(res.Archive), ".tgz")+".sig")
	if err := os.WriteFile(sig, []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	build()
	if _, err := os.Stat(sig); err == nil {
		t.Error("a stale signature was left beside an unsigned build")
	}
	if got := snapshot(t, out); len(got) != len(want) {
		t.Errorf("folder %d files, want %d", len(got), len(want))
	} else {
		for name, data := range want {
			if got[name] != data {
				t.Errorf("%s differs from the first build", name)
			}
		}
	}
}

// TestRebuildRewritesOtherDeflateBytes: an archive in the output folder
// with this build's tar, in wop's gzip framing, but compressed otherwise
// (as another Go release's deflate would) is not this build: a rebuild
// writes this wop's bytes, so the folder holds what a build into an empty
// folder holds.
func TestRebuildRewritesOtherDeflateBytes(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src, names(), time.Now())
	out, fresh := t.TempDir(), t.TempDir()
	plan := planOf(t, src, Signing{})
	res, err := plan.Write(t.Context(), out)
	if err != nil {
		t.Fatal(err)
	}
	var tar, body bytes.Buffer
	if err := tarball.WriteTar(&tar, plan.Files); err != nil {
		t.Fatal(err)
	}
	fw, _ := flate.NewWriter(&body, flate.BestSpeed)
	fw.Write(tar.Bytes())
	fw.Close()
	other := append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff}, body.Bytes()...)
	other = binary.LittleEndian.AppendUint32(other, crc32.ChecksumIEEE(tar.Bytes()))
	other = binary.LittleEndian.AppendUint32(other, uint32(tar.Len()))
	if ours, _ := os.ReadFile(res.Archive); bytes.Equal(ours, other) {
		t.Fatal("level 1 gave this build's bytes: the test proves nothing")
	}
	// The whole set as that other wop wrote it: its archive, and the
	// sidecars naming that archive's hash.
	if err := os.WriteFile(res.Archive, other, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(other)
	outs, err := plan.sidecars(out, &Staged{Result: &Result{}, base: plan.BaseName()}, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		if o.data != nil {
			if err := os.WriteFile(filepath.Join(out, plan.BaseName()+o.suffix), o.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := planOf(t, src, Signing{}).Write(t.Context(), out); err != nil {
		t.Fatal(err)
	}
	if _, err := planOf(t, src, Signing{}).Write(t.Context(), fresh); err != nil {
		t.Fatal(err)
	}
	got, want := snapshot(t, out), snapshot(t, fresh)
	if len(got) != len(want) {
		t.Fatalf("%d files, want %d", len(got), len(want))
	}
	for name, data := range want {
		if got[name] != data {
			t.Errorf("%s differs from a build into an empty folder", name)
		}
	}
}
