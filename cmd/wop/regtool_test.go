package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

// regtoolMain is the test registry's own tooling, for the registry checkouts
// the stage scripts build: `regtool index` writes the derived files and
// `regtool check` is the CI gate. It checks what the real registry's gate
// checks, in its own simpler formats: each version manifest's integrity is
// its archive's SHA-256; the pack and registry indexes, schema mirrors and
// SBOMs are up to date; each archive's signature verifies with a key the
// discovery document permits for the pack's namespace, and the served .sig
// is the archive's. REGTOOL_FAIL=index|check makes that command fail, for
// the scripts that test a failing generator or gate, naming the registry
// error code REGTOOL_CODE when set.
func regtoolMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: regtool index|check")
		os.Exit(2)
	}
	cmd := os.Args[1]
	fmt.Printf("[1/2] %s: registry tree\n", cmd)
	if os.Getenv("REGTOOL_FAIL") == cmd {
		if code := os.Getenv("REGTOOL_CODE"); code != "" { // as the registry's v2 checks name what they refuse
			fmt.Fprintf(os.Stderr, "regtool: refused: %s\n", code)
		}
		for name := range strings.SplitSeq(os.Getenv("REGTOOL_PRINT_ENV"), ",") { // a gate printing its environment
			if v, ok := os.LookupEnv(name); ok && name != "" {
				fmt.Fprintf(os.Stderr, "regtool: env %s=%s\n", name, v)
			} else if name != "" {
				fmt.Fprintf(os.Stderr, "regtool: env %s unset\n", name)
			}
		}
		fmt.Fprintln(os.Stderr, "regtool: failing as REGTOOL_FAIL asks")
		os.Exit(1)
	}
	r := &regtool{check: cmd == "check"}
	r.run()
	if cmd == "check" {
		fmt.Println("[2/2] check: signatures")
		r.signatures()
	}
	if len(r.problems) > 0 {
		for _, p := range r.problems {
			fmt.Fprintln(os.Stderr, "regtool:", p)
		}
		os.Exit(1)
	}
	fmt.Printf("regtool %s: ok\n", cmd)
}

type regtool struct {
	check    bool
	problems []string
}

func (r *regtool) fail(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

// put writes (or, checking, compares) one derived file.
func (r *regtool) put(path string, data []byte) {
	old, _ := os.ReadFile(path)
	if bytes.Equal(old, data) {
		return
	}
	if r.check {
		r.fail("%s would change: run regtool index", path)
		return
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		r.fail("%v", err)
	}
}

func (r *regtool) putJSON(path string, v any) {
	data, _ := json.MarshalIndent(v, "", "  ")
	r.put(path, append(data, '\n'))
}

type sbomFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

func (r *regtool) run() {
	packs, _ := os.ReadDir("registry/v1/packs")
	type entry struct {
		Name   string `json:"name"`
		Latest string `json:"latest"`
	}
	var index []entry
	var sboms []string
	for _, p := range packs {
		dir := filepath.Join("registry/v1/packs", p.Name(), "-")
		names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		var versions []string
		for _, n := range names {
			if v := strings.TrimSuffix(filepath.Base(n), ".json"); !strings.HasSuffix(v, ".sbom") {
				versions = append(versions, v)
			}
		}
		slices.Sort(versions)
		type version struct {
			Version   string `json:"version"`
			Integrity string `json:"integrity"`
		}
		var vs []version
		for _, v := range versions {
			vs = append(vs, version{v, r.version(p.Name(), dir, v)})
			sboms = append(sboms, p.Name()+"@"+v)
		}
		if len(vs) == 0 {
			continue
		}
		r.putJSON(filepath.Join("registry/v1/packs", p.Name(), "index.json"), map[string]any{"name": p.Name(), "versions": vs})
		index = append(index, entry{p.Name(), versions[len(versions)-1]})
	}
	r.putJSON("registry/v1/index.json", map[string]any{"packCount": len(index), "packs": index})
	r.putJSON("registry/v1/sbom.json", map[string]any{"components": sboms})
}

// version checks one version's manifest integrity and writes its SBOM and
// schema mirror; it returns the integrity.
func (r *regtool) version(name, dir, v string) string {
	manifestPath := filepath.Join(dir, v+".json")
	raw, _ := os.ReadFile(manifestPath)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		r.fail("%s: %v", manifestPath, err)
		return ""
	}
	integrity, _ := m["integrity"].(string)
	tgz, err := os.ReadFile(filepath.Join(dir, v+".tgz"))
	if err != nil {
		r.fail("%s@%s: no archive", name, v)
		return integrity
	}
	sum := sha256.Sum256(tgz)
	if want := "sha256-" + base64.StdEncoding.EncodeToString(sum[:]); integrity != want {
		r.fail("%s: integrity %q, the archive is %s", manifestPath, integrity, want)
	}
	a, err := tarball.Read(bytes.NewReader(tgz), tarball.DefaultLimits)
	if err != nil {
		r.fail("%s@%s: %v", name, v, err)
		return integrity
	}
	var files []sbomFile
	for _, e := range a.Entries {
		s := sha256.Sum256(e.Data)
		files = append(files, sbomFile{e.Name, hex.EncodeToString(s[:])})
		if strings.HasPrefix(e.Name, "schemas/") {
			r.put(filepath.Join("registry", name, v, strings.TrimPrefix(e.Name, "schemas/")), e.Data)
		}
	}
	r.putJSON(filepath.Join(dir, v+".sbom.json"), map[string]any{"name": name, "version": v, "archiveSHA256": hex.EncodeToString(sum[:]), "files": files})
	return integrity
}

// signatures verifies every archive with the discovery document's keys.
func (r *regtool) signatures() {
	var d struct {
		SigningKeys []struct {
			KeyID               string   `json:"keyId"`
			PublicKeyURL        string   `json:"publicKeyUrl"`
			PermittedNamespaces []string `json:"permittedNamespaces"`
		} `json:"signingKeys"`
	}
	raw, _ := os.ReadFile("registry/.well-known/openwop-registry.json")
	if err := json.Unmarshal(raw, &d); err != nil {
		r.fail("discovery document: %v", err)
		return
	}
	archives, _ := filepath.Glob("registry/v1/packs/*/-/*.tgz")
	for _, path := range archives {
		name := filepath.Base(filepath.Dir(filepath.Dir(path)))
		data, _ := os.ReadFile(path)
		a, err := tarball.Read(bytes.NewReader(data), tarball.DefaultLimits)
		if err != nil {
			r.fail("%s: %v", path, err)
			continue
		}
		manifest, _ := a.Find("pack.json")
		sig, _ := a.Find("keys/pack.json.sig")
		served, _ := os.ReadFile(strings.TrimSuffix(path, ".tgz") + ".sig")
		if !bytes.Equal(served, sig.Data) {
			r.fail("%s: the served .sig is not the archive's keys/pack.json.sig", path)
		}
		var m struct {
			Signing struct {
				PublicKeyRef string `json:"publicKeyRef"`
			} `json:"signing"`
		}
		json.Unmarshal(manifest.Data, &m)
		err = errors.New("no key in the discovery document permits it")
		for _, k := range d.SigningKeys {
			if k.KeyID != m.Signing.PublicKeyRef || !slices.ContainsFunc(k.PermittedNamespaces, func(ns string) bool {
				return ns == name || strings.HasSuffix(ns, "*") && strings.HasPrefix(name, strings.TrimSuffix(ns, "*"))
			}) {
				continue
			}
			pemData, _ := os.ReadFile(filepath.Join("registry", filepath.FromSlash(k.PublicKeyURL)))
			var pub ed25519.PublicKey
			if pub, err = sign.ParsePublicKey(pemData); err == nil {
				err = sign.Verify(pub, manifest.Data, sig.Data)
			}
		}
		if err != nil {
			r.fail("%s: signature: %v", path, err)
		}
	}
}
