package build

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestCRLFFiles: the files the archive keeps as they are and that hold a
// CRLF are named; pack.json (it goes in canonical), binary files (a NUL
// byte) and signatures are not, nor LF files.
func TestCRLFFiles(t *testing.T) {
	files := map[string]string{
		"pack.json": "{\r\n  \"name\": \"community.acme.crlf\",\r\n  \"version\": \"1.0.0\",\r\n  \"kind\": \"node\",\r\n" +
			"  \"agents\": [{\"agentId\": \"community.acme.crlf.a\", \"systemPromptRef\": \"prompts/a.md\"}]\r\n}\r\n",
		"README.md":        "# crlf\r\n",
		"LICENSE":          "MIT\n",
		"prompts/a.md":     "line one\r\nline two\r\n",
		"prompts/b.txt":    "lf only\n",
		"schemas/bin.json": "\x00\r\n",
		"keys/old.sig":     "\r\n\x01\x02",
	}
	src := sourceOf(t, files)
	got, err := src.crlfFiles()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"README.md", "prompts/a.md"}; !slices.Equal(got, want) {
		t.Errorf("crlfFiles = %q, want %q", got, want)
	}
	warning, err := src.CRLFWarning()
	if err != nil || !strings.Contains(warning, "README.md, ") || !strings.Contains(warning, "* text=auto eol=lf") || !strings.Contains(warning, "git add --renormalize .") {
		t.Errorf("CRLFWarning = %q, %v: want the files and the fix", warning, err)
	}
}

// TestCRLFWarningBounded: past maxCRLFNamed files the warning counts the
// rest instead of naming them.
func TestCRLFWarningBounded(t *testing.T) {
	files := map[string]string{"pack.json": leftOutManifest}
	for i := range maxCRLFNamed + 2 {
		files[fmt.Sprintf("prompts/p%d.md", i)] = "a\r\n"
	}
	warning, err := sourceOf(t, files).CRLFWarning()
	if err != nil || !strings.Contains(warning, "prompts/p4.md and 2 more have CRLF") || strings.Contains(warning, "p5.md") {
		t.Errorf("CRLFWarning = %q, %v: want five files named and 2 more", warning, err)
	}
}

// TestCRLFWarningNotForArchive: re-signing an archive keeps its bytes, so
// its CRLF files are not a checkout's mistake to warn about.
func TestCRLFWarningNotForArchive(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{"pack.json": leftOutManifest, "README.md": "# crlf\r\n"})
	kp, _ := sign.Generate()
	key, _ := sign.ParsePrivateKey(kp.PrivatePEM, "acme-1")
	res, _ := buildIn(t, dir, Signing{Spec: sign.SpecV1, Key: key})
	pk, err := pack.Load(res.Archive, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(pk)
	if err != nil {
		t.Fatal(err)
	}
	if warning, err := src.CRLFWarning(); warning != "" || err != nil {
		t.Errorf("CRLFWarning of an archive = %q, %v; want none", warning, err)
	}
}
