package verify

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/filetree"

	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

const manifest = `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
"runtime":{"language":"remote","entry":"pack.json"},
"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/a.md"}]}`

type fixture struct {
	dir    string
	key    *sign.PrivateKey
	pub    ed25519.PublicKey
	tgz    []byte
	served []byte
	res    *build.Result
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWith(t, nil)
}

// newFixtureWith builds the fixture pack with extra files added.
func newFixtureWith(t testing.TB, extra map[string]string) *fixture {
	t.Helper()
	return newFixtureFrom(t, manifest, extra)
}

// newFixtureFrom builds a pack of the manifest given, a prompt, a README
// and extra files.
func newFixtureFrom(t testing.TB, manifest string, extra map[string]string) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir()}
	files := map[string]string{"pack.json": manifest, "prompts/a.md": "Be brief.\n", "README.md": "# demo\n"}
	for name, data := range extra {
		files[name] = data
	}
	filetree.Write(t, f.dir, files)
	kp, _ := sign.Generate()
	f.key, _ = sign.ParsePrivateKey(kp.PrivatePEM, "acme-1")
	f.pub = f.key.Public()
	pk, err := pack.Load(f.dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := build.NewPlan(pk, build.Signing{Key: f.key})
	if err != nil {
		t.Fatal(err)
	}
	if f.res, err = plan.Write(t.Context(), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	f.tgz, _ = os.ReadFile(f.res.Archive)
	f.served, _ = os.ReadFile(f.res.Manifest)
	return f
}

func (f *fixture) source(t *testing.T) *pack.Pack {
	pk, err := pack.Load(f.dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// rewrite rebuilds an archive with edit applied to its entries.
func rewrite(t *testing.T, tgz []byte, edit func(name string, data []byte) []byte) []byte {
	t.Helper()
	a, err := tarball.Read(bytes.NewReader(tgz), tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var files []tarball.File
	for _, e := range a.Entries {
		data := edit(e.Name, bytes.Clone(e.Data))
		files = append(files, tarball.File{Name: e.Name, Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(data)), nil
		}})
	}
	var out bytes.Buffer
	if err := tarball.Write(&out, files); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func failed(r *Report, check string) string {
	for _, c := range r.Checks {
		if c.Name == check && !c.OK {
			return c.Message
		}
	}
	return ""
}

func TestVerifies(t *testing.T) {
	f := newFixture(t)
	r, err := Archive(bytes.NewReader(f.tgz), Options{Key: f.pub, Integrity: f.res.Integrity.SRI, VersionManifest: f.served, Source: f.source(t), Limits: tarball.DefaultLimits})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || r.KeyID != "acme-1" || len(r.Checks) != 5 {
		t.Fatalf("report %+v", r)
	}
}

func TestFailures(t *testing.T) {
	f := newFixture(t)
	other, _ := sign.Generate()
	otherPub, _ := sign.ParsePublicKey(other.PublicPEM)
	replace := func(entry string, data string) []byte {
		return rewrite(t, f.tgz, func(name string, d []byte) []byte {
			if name == entry {
				return []byte(data)
			}
			return d
		})
	}
	signed, _ := tarball.Read(bytes.NewReader(f.tgz), tarball.DefaultLimits)
	pj, _ := signed.Find("pack.json")
	tests := []struct {
		name, check, want string
		tgz               []byte
		opt               Options
	}{
		// Ed25519 cannot tell a wrong key from edited bytes: with a key the
		// user chose, the message names both and which key the pack names.
		{"wrong key", "signature", `does not verify with --key other.pub.pem (pack.json names key "acme-1"): a wrong key, or pack.json was edited after signing`,
			f.tgz, Options{Key: otherPub, KeyName: "--key other.pub.pem"}},
		{"tampered manifest", "signature", "a wrong key, or pack.json was edited after signing", replace("pack.json", strings.Replace(string(pj.Data), `"persona":"A"`, `"persona":"B"`, 1)), Options{Key: f.pub}},
		// The registry's key is the one listed under the id pack.json names.
		{"registry key fails", "signature", `does not verify with the registry's key "acme-1": pack.json was edited after signing`,
			f.tgz, Options{ResolveKey: func(string, string) (ed25519.PublicKey, error) { return otherPub, nil }}},
		{"base64 signature file", "signature", "base64", replace("keys/pack.json.sig", strings.Repeat("A", 88)+"\n"), Options{Key: f.pub}},
		{"legacy signing", "signature", "legacy", replace("pack.json", strings.Replace(string(pj.Data), `"method":"manual"`, `"method":"ed25519"`, 1)), Options{Key: f.pub}},
		{"no key given", "signature", "pass --key", f.tgz, Options{}},
		{"wrong integrity", "integrity", "expected", f.tgz, Options{Key: f.pub, Integrity: "sha256-AAAA"}},
		{"served manifest edited", "version-manifest", "description", f.tgz, Options{Key: f.pub,
			VersionManifest: bytes.Replace(f.served, []byte(`"version": "1.0.0",`), []byte(`"version": "1.0.0", "description": "added later",`), 1)}},
	}
	// Signed correctly, but over bytes no host can reproduce from the
	// parsed manifest: only the canonical-form check catches it.
	loose := append([]byte("{ "), pj.Data[1:]...)
	resigned := rewrite(t, f.tgz, func(name string, d []byte) []byte {
		switch name {
		case "pack.json":
			return loose
		case "keys/pack.json.sig":
			return f.key.Sign(loose)
		}
		return d
	})
	tests = append(tests, struct {
		name, check, want string
		tgz               []byte
		opt               Options
	}{"non-canonical manifest, validly signed", "signature", "not canonical JSON", resigned, Options{Key: f.pub}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.Limits = tarball.DefaultLimits
			r, err := Archive(bytes.NewReader(tt.tgz), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if msg := failed(r, tt.check); !strings.Contains(msg, tt.want) {
				t.Errorf("%s check: %q, want it to mention %q (%+v)", tt.check, msg, tt.want, r.Checks)
			}
		})
	}
	unsigned := replace("pack.json", `{"name":"community.acme.demo","version":"1.0.0"}`)
	r, _ := Archive(bytes.NewReader(unsigned), Options{Key: f.pub, Limits: tarball.DefaultLimits})
	if !strings.Contains(failed(r, "signature"), "unsigned") {
		t.Errorf("unsigned: %+v", r.Checks)
	}
}

// TestEveryByteFlipFails flips one byte in each entry and in the signature:
// with the integrity known, every flip is caught.
func TestEveryByteFlipFails(t *testing.T) {
	f := newFixture(t)
	a, _ := tarball.Read(bytes.NewReader(f.tgz), tarball.DefaultLimits)
	for _, e := range a.Entries {
		t.Run(e.Name, func(t *testing.T) {
			flipped := rewrite(t, f.tgz, func(name string, d []byte) []byte {
				if name == e.Name {
					d[len(d)/2] ^= 0x01
				}
				return d
			})
			r, err := Archive(bytes.NewReader(flipped), Options{Key: f.pub, Integrity: f.res.Integrity.SRI, Limits: tarball.DefaultLimits})
			if err == nil && r.OK() {
				t.Fatal("flip not caught")
			}
		})
	}
}

func TestSourceRebuildNamesDifferingEntries(t *testing.T) {
	big := strings.Repeat("Be brief.\n", 10<<10) // 100 KB: verify does not hold it
	tests := []struct {
		name string
		edit func(dir string) error
		want string
	}{
		{"small entry edited", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "prompts", "a.md"), []byte("Be verbose.\n"), 0o644)
		}, "prompts/a.md (differs)"},
		{"large entry edited", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "prompts", "big.md"), []byte(big+"!"), 0o644)
		}, "prompts/big.md (differs)"},
		{"entry checked out with CRLF line ends", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "prompts", "big.md"), []byte(strings.ReplaceAll(big, "\n", "\r\n")), 0o644)
		}, "prompts/big.md (differs only in line endings: CRLF in the source, LF in the archive)"},
		{"entry removed from the source", func(dir string) error {
			return os.Remove(filepath.Join(dir, "prompts", "big.md"))
		}, "prompts/big.md (only in the archive)"},
		{"entry added to the source", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "prompts", "new.md"), []byte("New.\n"), 0o644)
		}, "prompts/new.md (only in the source)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixtureWith(t, map[string]string{"prompts/big.md": big})
			if err := tt.edit(f.dir); err != nil {
				t.Fatal(err)
			}
			r, _ := Archive(bytes.NewReader(f.tgz), Options{Key: f.pub, Source: f.source(t), Limits: tarball.DefaultLimits})
			if msg := failed(r, "source"); !strings.Contains(msg, tt.want) || strings.Count(msg, "(") != 1 {
				t.Errorf("source check: %q, want only %q", msg, tt.want)
			}
		})
	}
}

func TestServedManifestOnly(t *testing.T) {
	f := newFixture(t)
	sig, _ := os.ReadFile(f.res.Signature)
	// build writes the version manifest with integrity; a registry may add more.
	if !bytes.Contains(f.served, []byte(`"integrity": "sha256-`)) {
		t.Fatalf("build's version manifest has no integrity:\n%s", f.served)
	}
	withIntegrity := bytes.Replace(f.served, []byte("\n}\n"), []byte(",\n  \"publishedAt\": \"2026-01-01T00:00:00Z\"\n}\n"), 1)
	r, err := ServedManifest(withIntegrity, sig, Options{Key: f.pub})
	if err != nil || !r.OK() {
		t.Fatalf("%v %+v", err, r)
	}
	edited := bytes.Replace(f.served, []byte(`"persona": "A"`), []byte(`"persona": "Z"`), 1)
	if r, _ := ServedManifest(edited, sig, Options{Key: f.pub}); r.OK() {
		t.Error("edited served manifest verified")
	}
	other, _ := sign.Generate()
	otherPub, _ := sign.ParsePublicKey(other.PublicPEM)
	r, _ = ServedManifest(f.served, sig, Options{Key: otherPub, KeyName: "--key other.pub.pem"})
	want := `signature does not verify over the served manifest with --key other.pub.pem (the manifest names key "acme-1"): a wrong key, or the manifest was edited after signing`
	if msg := failed(r, "signature"); msg != want {
		t.Errorf("wrong key: %q, want %q", msg, want)
	}
}

// TestServedLifecycleFields: a registry marks a version deprecated after
// signing, as "deprecated" (v1) or "versionDeprecated" (v2); neither is an
// edit of the signed manifest.
func TestServedLifecycleFields(t *testing.T) {
	f := newFixture(t)
	sig, _ := os.ReadFile(f.res.Signature)
	for _, field := range []string{`"deprecated": true`, `"versionDeprecated": {"reason": "use 2.0.0"}`} {
		served := bytes.Replace(f.served, []byte("\n}\n"), []byte(",\n  "+field+"\n}\n"), 1)
		if r, err := ServedManifest(served, sig, Options{Key: f.pub}); err != nil || !r.OK() {
			t.Errorf("served manifest with %s: %v %+v", field, err, r)
		}
	}
}

// TestRegistryKeyLookup resolves the block's key from a registry's
// discovery document, honouring permittedNamespaces and status.
func TestRegistryKeyLookup(t *testing.T) {
	f := newFixture(t)
	kp := mustPEM(t, f.pub)
	keys := []registry.SigningKey{{KeyID: "acme-1", PublicKeyURL: "/keys/acme-1.pub", PermittedNamespaces: []string{"community.acme.*"}, Status: "active"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case registry.DiscoveryPath:
			json.NewEncoder(w).Encode(map[string]any{"signingKeys": keys})
		case "/keys/acme-1.pub":
			w.Write(kp)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := registry.New(registry.Options{Registry: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(keyID, name string) (ed25519.PublicKey, error) {
		d, err := c.Discover(context.Background())
		if err != nil {
			return nil, err
		}
		return c.Key(context.Background(), d, keyID, name)
	}
	r, _ := Archive(bytes.NewReader(f.tgz), Options{ResolveKey: resolve, Limits: tarball.DefaultLimits})
	if !r.OK() {
		t.Fatalf("%+v", r.Checks)
	}
	keys[0].PermittedNamespaces = []string{"community.other.*"}
	r, _ = Archive(bytes.NewReader(f.tgz), Options{ResolveKey: resolve, Limits: tarball.DefaultLimits})
	if !strings.Contains(failed(r, "signature"), "may sign only community.other.*") {
		t.Errorf("namespace: %+v", r.Checks)
	}
	keys[0].PermittedNamespaces, keys[0].Status = []string{"community.acme.demo"}, "revoked"
	r, _ = Archive(bytes.NewReader(f.tgz), Options{ResolveKey: resolve, Limits: tarball.DefaultLimits})
	if !strings.Contains(failed(r, "signature"), "revoked") {
		t.Errorf("status: %+v", r.Checks)
	}
}

func mustPEM(t *testing.T, pub ed25519.PublicKey) []byte {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// TestLargeEntriesAreNotHeld: a pack of large prompts verifies without
// holding them, and still verifies in full with a rebuild (which compares
// the tars by their digests).
func TestLargeEntriesAreNotHeld(t *testing.T) {
	big := strings.Repeat("Be brief. ", 100<<10) // 1 MB
	f := newFixtureWith(t, map[string]string{"prompts/big.md": big})
	tests := []struct {
		name     string
		opt      Options
		held     map[string]bool
		wantChks int
	}{
		{"key only", Options{Key: f.pub}, map[string]bool{"pack.json": true, "keys/pack.json.sig": true, "prompts/a.md": true, "prompts/big.md": false}, 2},
		{"rebuild", Options{Key: f.pub, Source: f.source(t)}, map[string]bool{"prompts/big.md": false}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.Limits = tarball.DefaultLimits
			for name, want := range tt.held {
				size := int64(len(big))
				if name != "prompts/big.md" {
					size = 100
				}
				if got := keep(tarball.Entry{Name: name, Size: size}); got != want {
					t.Errorf("keep %s = %v, want %v", name, got, want)
				}
			}
			r, err := Archive(bytes.NewReader(f.tgz), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !r.OK() || len(r.Checks) != tt.wantChks {
				t.Fatalf("report %+v", r)
			}
		})
	}
}

// TestArchiveStreams: verify hashes the archive as it reads it and holds
// only the manifest, the signature material and small entries, so checking
// a large archive, even against its source, allocates about one entry, not
// the archive (which a caller reading a file never holds either); the
// integrity is still that of every byte.
func TestArchiveStreams(t *testing.T) {
	const n, size = 10, 512 << 10
	rnd := rand.New(rand.NewPCG(1, 2))
	extra := map[string]string{}
	for i := range n {
		raw := make([]byte, size*3/4)
		for j := range raw {
			raw[j] = byte(rnd.Uint32())
		}
		extra[fmt.Sprintf("prompts/p%02d.md", i)] = base64.StdEncoding.EncodeToString(raw) // does not compress away
	}
	f := newFixtureWith(t, extra)
	tests := []struct {
		name   string
		source *pack.Pack
		max    int // bytes allocated
	}{
		{"key and integrity", nil, 4 * size},
		// A rebuild holds neither the archive nor the tars it compares.
		{"rebuild from the source", f.source(t), 4 * size},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := Options{Key: f.pub, Integrity: f.res.Integrity.SRI, Source: tt.source, Limits: tarball.DefaultLimits}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r, err := Archive(bytes.NewReader(f.tgz), opt)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if !r.OK() || r.Integrity != f.res.Integrity {
				t.Fatalf("report %+v, want every check passed and integrity %s", r, f.res.Integrity.SRI)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(tt.max) {
				t.Errorf("verifying a %d KB archive of %d entries of %d KB allocated %d KB, want at most %d KB",
					len(f.tgz)>>10, n, size>>10, alloc>>10, tt.max>>10)
			}
		})
	}
}
