package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/cmd/wop/internal/root"
	"github.com/wop-cli/wop/internal/interrupt"
	"github.com/wop-cli/wop/internal/registry/registrytest"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/sign/sigstore"
	"github.com/wop-cli/wop/internal/sign/sigstore/sigstoretest"
	"github.com/wop-cli/wop/internal/testutil/golden"
	"go.yaml.in/yaml/v3"
)

// TestMain lets the test binary run as `wop` inside scripts, so every
// `exec wop` is a real process with real argv, environment and exit status.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"wop":          wopMain,
		"wop-sigstore": sigstoreHelperMain,
		"regtool":      regtoolMain,
	})
}

// wopMain is wop as scripts run it, with main's signal handling (so the
// interrupt tests see what a user's Ctrl-C does). When $WOP_TEST_PRINTED
// names a file, every byte wop prints is appended to it too, for
// TestScript's check that no secret ever got out.
func wopMain() {
	ctx, _ := interrupt.Context(context.Background(), os.Exit)
	env := cli.System("test")
	if path := os.Getenv("WOP_TEST_PRINTED"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		env.Out, env.ErrOut = io.MultiWriter(env.Out, f), io.MultiWriter(env.ErrOut, f)
		code := root.Main(ctx, os.Args[1:], env)
		f.Close()
		os.Exit(code)
	}
	os.Exit(root.Main(ctx, os.Args[1:], env))
}

// scriptSecrets are the tokens scripts hand to wop; checkPrinted fails the
// run if any of them is in what wop printed.
func scriptSecrets() []string {
	return []string{testToken, sigstoretest.Token("release@acme.dev", "https://accounts.acme.dev"), sigstoretest.ActionsRuntimeToken, echoedScriptToken, scriptURLPassword}
}

// The secrets publish-hostile.txtar gives wop.
const (
	echoedScriptToken = "script-token-the-registry-echoes"
	scriptURLPassword = "script-pa55w0rd"
)

// checkPrinted greps everything wop printed in every script for secrets.
func checkPrinted(t *testing.T, dir string) {
	logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range logs {
		data, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range scriptSecrets() {
			if n := bytes.Count(data, []byte(s)); n > 0 {
				t.Errorf("%s: wop printed the test secret %q %d times", strings.TrimSuffix(filepath.Base(l), ".log"), s, n)
			}
		}
	}
}

func TestScript(t *testing.T) {
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	printed := t.TempDir()
	t.Cleanup(func() { checkPrinted(t, printed) }) // after every script ran
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       golden.Update(),
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			e.Setenv("WOP_TEST_PRINTED", filepath.Join(printed, filepath.Base(e.WorkDir)+".log"))
			e.Setenv("HOME", e.WorkDir)
			e.Setenv("XDG_CONFIG_HOME", filepath.Join(e.WorkDir, ".config"))
			e.Setenv("XDG_CACHE_HOME", filepath.Join(e.WorkDir, ".cache"))
			e.Setenv("EXAMPLES", examples)
			e.Setenv("REPO_ROOT", filepath.Dir(examples))
			srv := registrytest.New(testToken)
			e.Defer(srv.Close)
			e.Values[registryKey{}] = srv
			e.Setenv("WOP_REGISTRY", srv.URL)
			other := registrytest.NewRecorder() // the server hostile answers point to
			e.Defer(other.Close)
			e.Values[otherKey{}] = other
			e.Setenv("OTHER", other.URL)
			e.Setenv("REGISTRY_HOSTPORT", strings.TrimPrefix(srv.URL, "http://"))
			e.Setenv("TEST_TOKEN", testToken)
			stack, err := sigstoretest.New()
			if err != nil {
				return err
			}
			e.Defer(stack.Close)
			e.Setenv("FULCIO", stack.Fulcio.URL)
			e.Setenv("TSA", stack.TSAURL())
			e.Setenv("OIDC_TOKEN", sigstoretest.Token("release@acme.dev", "https://accounts.acme.dev"))
			e.Setenv("ACTIONS_URL", stack.Fulcio.URL+sigstoretest.ActionsTokenPath)
			e.Setenv("ACTIONS_RUNTIME", sigstoretest.ActionsRuntimeToken)
			return stack.WriteTrustedRoot(filepath.Join(e.WorkDir, "trusted_root.json"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"registry":         registryCmd,
			"other-seen":       otherSeenCmd,
			"gen-ecdsa":        genECDSA,
			"gen-bomb":         genBomb,
			"gen-deep":         genDeep,
			"gen-sparse":       genSparse,
			"gen-regzip":       genRegzip,
			"precommit-config": precommitConfig,
			"env-from-file":    envFromFile,
			"crlf":             crlfCmd,
		},
	})
}

// genBomb writes a small .tgz that inflates to N MiB of zeros inside one
// tar entry claiming a huge size: `gen-bomb FILE MIB`.
func genBomb(ts *testscript.TestScript, neg bool, args []string) {
	mib, _ := strconv.Atoi(args[1])
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	hdr := make([]byte, 512)
	copy(hdr, "pack.json")
	copy(hdr[124:], "77777777777\x00") // 8 GiB - 1
	copy(hdr[257:], "ustar\x0000")
	copy(hdr[148:], "        ")
	sum := 0
	for _, b := range hdr {
		sum += int(b)
	}
	copy(hdr[148:], fmt.Sprintf("%06o\x00 ", sum))
	zw.Write(hdr)
	zero := make([]byte, 1<<20)
	for range mib {
		zw.Write(zero)
	}
	zw.Close()
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf.Bytes(), 0o644))
}

// genRegzip recompresses a .tgz as another gzip would (another level, a
// name in the header): the same tar, other bytes. `gen-regzip IN OUT`.
func genRegzip(ts *testscript.TestScript, neg bool, args []string) {
	raw, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	ts.Check(err)
	tar, err := io.ReadAll(zr)
	ts.Check(err)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Name = "node-built.tar"
	zw.Write(tar)
	ts.Check(zw.Close())
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), buf.Bytes(), 0o644))
}

// genDeep writes a JSON file nested N levels deep: `gen-deep FILE N`.
func genDeep(ts *testscript.TestScript, neg bool, args []string) {
	n, _ := strconv.Atoi(args[1])
	ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(args[0])), 0o755))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Repeat("[", n)), 0o644))
}

// genSparse makes a sparse file of SIZE bytes: `gen-sparse FILE SIZE`.
func genSparse(ts *testscript.TestScript, neg bool, args []string) {
	size, _ := strconv.ParseInt(args[1], 10, 64)
	p := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
	f, err := os.Create(p)
	ts.Check(err)
	ts.Check(f.Truncate(size))
	ts.Check(f.Close())
}

const testToken = "s3cret-token-never-printed"

type registryKey struct{}

type otherKey struct{}

// otherSeenCmd asserts how many requests the other server ($OTHER) got,
// and that none carried credentials: `other-seen N`.
func otherSeenCmd(ts *testscript.TestScript, neg bool, args []string) {
	seen := ts.Value(otherKey{}).(*registrytest.Recorder).Seen()
	if got := strconv.Itoa(len(seen)); got != args[0] {
		ts.Fatalf("the other server got %s requests, want %s: %+v", got, args[0], seen)
	}
	for _, r := range seen {
		if r.Authorization != "" {
			ts.Fatalf("the other server got credentials: %+v", r)
		}
	}
}

// registryCmd drives the script's fake registry:
//
//	registry key ID PUBLIC.pem NAMESPACE...   accept a signing key
//	registry revoke ID                        mark a key revoked
//	registry fault drop|503|429|html413 N     misbehave on the next N PUTs
//	registry fault redirect STATUS URL        answer PUTs with a redirect to URL
//	registry fault echoauth 0                 401s echo the Authorization header
//	registry fault refuse STATUS CODE         answer PUTs with STATUS and error CODE
//	registry endpoint NAME TEMPLATE           the discovery document's endpoint NAME
//	registry writeapi off                     no write API (pull requests)
//	registry grant NAMESPACE...               limit the token's rights
//	registry puts N                           assert N PUT requests so far
//	registry received N                       assert N PUT body bytes read so far
//	registry versions NAME V...               assert the published versions
func registryCmd(ts *testscript.TestScript, neg bool, args []string) {
	srv := ts.Value(registryKey{}).(*registrytest.Server)
	if len(args) == 0 {
		ts.Fatalf("usage: registry key|revoke|fault|writeapi|grant|yank|puts|versions ...")
	}
	switch args[0] {
	case "key", "revoke":
		pub := srv.KeyOf(args[1])
		status := "active"
		if args[0] == "key" {
			raw, err := os.ReadFile(ts.MkAbs(args[2]))
			ts.Check(err)
			pub.Public, err = sign.ParsePublicKey(raw)
			ts.Check(err)
			pub.Namespaces = args[3:]
		} else {
			status = "revoked"
		}
		pub.Status = status
		srv.AddKey(args[1], pub)
	case "fault":
		n, _ := strconv.Atoi(args[2])
		f := registrytest.Faults{}
		switch args[1] {
		case "drop":
			f.DropMidBody = n
		case "503":
			f.Unavailable = n
		case "429":
			f.TooMany = n
		case "html413":
			f.HTML413 = true
		case "redirect": // registry fault redirect STATUS URL
			f.RedirectPut, f.RedirectTo = n, args[3]
		case "echoauth":
			f.EchoAuth = true
		case "refuse": // registry fault refuse STATUS CODE
			f.RefuseStatus, f.RefuseCode = n, args[3]
		}
		srv.SetFaults(f)
	case "endpoint": // registry endpoint NAME TEMPLATE
		srv.SetDiscovery(registrytest.Discovery{Endpoints: map[string]string{args[1]: args[2]}})
	case "writeapi":
		srv.SetWriteAPI(args[1] == "on")
	case "grant":
		srv.Grant(args[1:]...)
	case "yank":
		srv.Yank(args[1], args[2])
	case "received":
		if got := strconv.FormatInt(srv.Received(), 10); got != args[1] {
			ts.Fatalf("registry read %s PUT body bytes, want %s", got, args[1])
		}
	case "puts":
		if got := strconv.Itoa(srv.Puts()); got != args[1] {
			ts.Fatalf("registry received %s PUTs, want %s", got, args[1])
		}
	case "versions":
		got := srv.Versions(args[1])
		slices.Sort(got)
		if strings.Join(got, " ") != strings.Join(args[2:], " ") {
			ts.Fatalf("registry has %s versions %v, want %v", args[1], got, args[2:])
		}
	default:
		ts.Fatalf("unknown registry command %q", args[0])
	}
}

// genECDSA writes an ECDSA P-256 key pair (PKCS#8, SPKI): `gen-ecdsa PRIV PUB`.
func genECDSA(ts *testscript.TestScript, neg bool, args []string) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ts.Check(err)
	der, err := x509.MarshalPKCS8PrivateKey(key)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600))
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o644))
}

// sigstoreHelperMain lets the test binary act as wop-sigstore in scripts.
func sigstoreHelperMain() {
	resp := sigstore.Serve(context.Background(), os.Stdin)
	json.NewEncoder(os.Stdout).Encode(resp)
	if resp.Error != "" {
		os.Exit(1)
	}
	os.Exit(0)
}

// precommitConfig writes a .pre-commit-config.yaml that runs this
// repository's own hook definition (.pre-commit-hooks.yaml: entry, files,
// pass_filenames, require_serial unchanged) as a local "system" hook, so the
// real pre-commit tool drives it against the script's wop without building
// wop from a clone: `precommit-config FILE`.
func precommitConfig(ts *testscript.TestScript, neg bool, args []string) {
	raw, err := os.ReadFile(filepath.Join(ts.Getenv("REPO_ROOT"), ".pre-commit-hooks.yaml"))
	ts.Check(err)
	var hooks []map[string]any
	ts.Check(yaml.Unmarshal(raw, &hooks))
	entry := "" // hooks/wop-pack-lint builds wop, then runs what the golang hook does
	for _, h := range hooks {
		if h["language"] == "golang" {
			entry = h["entry"].(string)
		}
	}
	for _, h := range hooks {
		// hooks/wop-pack-lint builds wop and hooks/wop-pack-lint-npm finds
		// the npm package's, then each runs what the golang hook runs.
		if h["language"] == "script" || h["language"] == "node" {
			h["entry"] = entry
		}
		delete(h, "additional_dependencies") // the npm package: here, the wop under test
		h["language"] = "system"
	}
	out, err := yaml.Marshal(map[string]any{"repos": []any{map[string]any{"repo": "local", "hooks": hooks}}})
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), out, 0o644))
}

// crlfCmd rewrites each FILE's line endings to CRLF, as git on Windows
// checks text files out (core.autocrlf=true): `crlf FILE...`. A txtar
// holds LF only, so a script makes its CRLF files with this.
func crlfCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: crlf FILE...")
	}
	for _, name := range args {
		data := strings.ReplaceAll(ts.ReadFile(name), "\n", "\r\n")
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte(data), 0o644))
	}
}

// envFromFile sets VAR to FILE's contents, trimmed: `env-from-file VAR FILE`
// (a script's only way to pass a command's output as an argument).
func envFromFile(ts *testscript.TestScript, neg bool, args []string) {
	ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile(args[1])))
}
