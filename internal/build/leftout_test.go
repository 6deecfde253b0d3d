package build

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

const leftOutManifest = `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`

func sourceOf(t *testing.T, files map[string]string) *Source {
	t.Helper()
	dir := t.TempDir()
	filetree.Write(t, dir, files)
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(pk)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestLeftOutNote: the note names the files the archive leaves out (not
// the tools' own, nor what the build writes itself, nor earlier builds'
// outputs in the pack folder), ten at most.
func TestLeftOutNote(t *testing.T) {
	files := map[string]string{"pack.json": leftOutManifest, "README.md": "# d\n", ".wop.yaml": "rules: {}\n", ".gitignore": "x\n", ".gitattributes": "* text=auto eol=lf\n", "keys/pack.json.sig": "stale"}
	if note := sourceOf(t, files).LeftOutNote(); note != "" {
		t.Errorf("nothing left out, but: %s", note)
	}
	// What a build wrote into dist/ inside the pack folder (publish's
	// default) is the build's own output, not a file left out.
	for _, f := range []string{"community.acme.demo-1.0.0.tgz", "community.acme.demo-1.0.0.sig", "community.acme.demo-0.9.0.json", "community.acme.demo-1.0.0.integrity", "community.acme.demo-1.0.0.sigstore.json"} {
		files["dist/"+f] = "x"
	}
	if note := sourceOf(t, files).LeftOutNote(); note != "" {
		t.Errorf("only the build's own outputs left out, but: %s", note)
	}
	files["dist/community.acme.demo-notes.json"] = "x"
	if note := sourceOf(t, files).LeftOutNote(); !strings.HasPrefix(note, "left out of the archive: dist/community.acme.demo-notes.json (") {
		t.Errorf("a file named like no build output: %s", note)
	}
	delete(files, "dist/community.acme.demo-notes.json")
	for i := range 12 {
		files[fmt.Sprintf("notes/n%02d.txt", i)] = "x"
	}
	note := sourceOf(t, files).LeftOutNote()
	if !strings.HasPrefix(note, "left out of the archive: notes/n00.txt, notes/n01.txt, ") || !strings.Contains(note, "notes/n09.txt and 2 more (an archive holds") {
		t.Errorf("note: %s", note)
	}
}

// TestSecretsAnywhereInTheFolder: a secret file the archive leaves out
// stops the build by name or by a private key inside; --allow-secret lets
// one through by name, and a committed template (.env.example) is no secret.
func TestSecretsAnywhereInTheFolder(t *testing.T) {
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
	src := sourceOf(t, map[string]string{"pack.json": leftOutManifest, "notes.txt": "fine", "backup/deploy": key, ".env.local": "A=1", "certs/tls.key": "x", "id_rsa": "x", ".env.example": "A="})
	err := src.CheckSecrets([]string{"id_rsa"})
	var se *SecretsError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	var got []string
	for _, s := range se.Secrets {
		got = append(got, s.Name+": "+strings.SplitN(s.Kind, " in the pack folder", 2)[0])
	}
	want := ".env.local: an environment file|backup/deploy: a private key|certs/tls.key: a private key file"
	if strings.Join(got, "|") != want {
		t.Errorf("secrets\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}

// TestNewSourceBadJSON: build --no-lint (and sign) meet a manifest that
// does not parse without lint having said where; the error names
// pack.json:line:col, as lint's json-invalid does, not a byte offset.
func TestNewSourceBadJSON(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{"pack.json": "{\n  \"name\": \"community.acme.demo\",\n  \"version\": \"1.0.0\",,\n}\n"})
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewSource(pk)
	if err == nil || !strings.HasPrefix(err.Error(), "pack.json:3:22: invalid JSON: ") || strings.Contains(err.Error(), "offset") {
		t.Errorf("NewSource: %v, want pack.json:3:22: invalid JSON: ...", err)
	}
}
