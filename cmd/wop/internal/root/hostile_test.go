package root

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/registry/registrytest"
)

// The secrets a hostile registry tries to make wop print.
const (
	echoedToken = "wrong-token-the-registry-echoes"
	urlPassword = "pa55w0rd-in-url"
)

const archive = "out/community.acme.demo-1.0.0.tgz"

// publishWith runs publish against srv with extra flags and environment.
func publishWith(t *testing.T, dir string, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return runWith(t, context.Background(), dir, vars, append([]string{"pack", "publish", archive, "--retries", "1"}, args...)...)
}

func tokenEnv() map[string]string { return map[string]string{"WOP_TOKEN": token} }

// TestPublishRedirectedUpload: a registry answering the PUT with any
// redirect, to another port, host or scheme: the target never sees a
// request (so never the token), the exit is non-zero, nothing claims
// success, and the message says what happened and what to do.
func TestPublishRedirectedUpload(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	plain := registrytest.NewRecorder()
	defer plain.Close()
	secure := registrytest.NewTLSRecorder()
	defer secure.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(plain.URL, "http://"))
	targets := map[string]string{"another port": plain.URL, "another host": "http://localhost:" + port, "https": secure.URL}
	for _, status := range []int{301, 302, 303, 307, 308} {
		for what, target := range targets {
			t.Run(fmt.Sprintf("%d to %s", status, what), func(t *testing.T) {
				srv.SetFaults(registrytest.Faults{RedirectPut: status, RedirectTo: target})
				code, out, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL)
				if code == cli.ExitOK || out != "" {
					t.Errorf("exit %d, stdout %q", code, out)
				}
				for _, want := range []string{fmt.Sprintf("answered %d", status), target, "never follows a redirect of an upload", "hint: nothing was published"} {
					if !strings.Contains(errOut, want) {
						t.Errorf("stderr lacks %q:\n%s", want, errOut)
					}
				}
				if seen := append(plain.Seen(), secure.Seen()...); len(seen) != 0 {
					t.Errorf("the redirect target was contacted: %+v", seen)
				}
				if v := srv.Versions("community.acme.demo"); len(v) != 0 {
					t.Errorf("published %v", v)
				}
			})
		}
	}
}

// TestPublishDiscoveryOrigins: endpoints and key URLs the discovery document
// puts on another origin (or on plain http elsewhere) are refused before any
// request goes there, unless --allow-origin names the origin; even then the
// token stays with the registry.
func TestPublishDiscoveryOrigins(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	other := registrytest.NewRecorder()
	defer other.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(other.URL, "http://"))
	elsewhere := "http://localhost:" + port
	cases := []struct {
		name string
		disc registrytest.Discovery
	}{
		{"tarball on another origin", registrytest.Discovery{Endpoints: map[string]string{"versionTarball": elsewhere + "/{name}/{version}.tgz"}}},
		{"manifest on another port", registrytest.Discovery{Endpoints: map[string]string{"versionManifest": other.URL + "/{name}/{version}.json"}}},
		{"key on another origin", registrytest.Discovery{KeyURLs: map[string]string{"k1": elsewhere + "/k1.pub"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv.SetDiscovery(c.disc)
			code, out, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL)
			if code == cli.ExitOK || out != "" || !strings.Contains(errOut, "not on the registry's origin") || !strings.Contains(errOut, "--allow-origin") {
				t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
			}
			if len(other.Seen()) != 0 {
				t.Errorf("the other origin was contacted: %+v", other.Seen())
			}
		})
	}
	t.Run("allowed origin gets no token", func(t *testing.T) {
		srv.SetDiscovery(registrytest.Discovery{Endpoints: map[string]string{"versionManifest": elsewhere + "/{name}/{version}.json"}})
		code, _, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL, "--allow-origin", elsewhere)
		seen := other.Seen()
		if len(seen) != 1 || seen[0].Authorization != "" {
			t.Errorf("exit %d, other origin saw %+v\n%s", code, seen, errOut)
		}
	})
	t.Run(".wop.yaml allowOrigins", func(t *testing.T) {
		cfg := filepath.Join(dir, ".wop.yaml")
		defer os.Remove(cfg)
		os.WriteFile(cfg, []byte("allowOrigins: [\""+elsewhere+"\"]\n"), 0o644)
		code, _, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL)
		if seen := other.Seen(); len(seen) != 2 || seen[1].Authorization != "" {
			t.Errorf("exit %d, other origin saw %+v\n%s", code, seen, errOut)
		}
		os.WriteFile(cfg, []byte("allowOrigins: [\"cdn.example\"]\n"), 0o644)
		if code, _, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL); code != cli.ExitUsage || !strings.Contains(errOut, "allowOrigins: origin \"cdn.example\": want scheme://host[:port]") {
			t.Errorf("bad origin: exit %d\n%s", code, errOut)
		}
	})
	srv.SetDiscovery(registrytest.Discovery{})
}

// TestSecretsInAnswersAndURLs: a 401 echoing the token, and a password in
// --registry, are never printed, in text, JSON or verbose output.
func TestSecretsInAnswersAndURLs(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	srv.SetFaults(registrytest.Faults{EchoAuth: true})
	code, out, errOut := publishWith(t, dir, map[string]string{"WOP_TOKEN": echoedToken}, "--registry", srv.URL, "-v")
	if code != cli.ExitAuth || !strings.Contains(errOut, "invalid token (got Bearer [redacted])") {
		t.Errorf("echoed 401: exit %d\n%s%s", code, out, errOut)
	}
	// Without a token the userinfo is the registry's Basic credentials;
	// this registry refuses them, and the answer is printed redacted.
	withUser := strings.Replace(srv.URL, "http://", "http://alice:"+urlPassword+"@", 1)
	code, out, errOut = runWith(t, context.Background(), dir, nil, "pack", "publish", archive, "--registry", withUser+"/", "--retries", "0")
	if code != cli.ExitAuth || !strings.Contains(errOut, "Basic [redacted]") {
		t.Errorf("basic: exit %d\n%s%s", code, out, errOut)
	}
	srv.SetFaults(registrytest.Faults{})
	for _, args := range [][]string{{"--registry", withUser}, {"--registry", withUser, "--format", "json"}, {"--registry", withUser, "-v", "--dry-run"}} {
		code, out, errOut := publishWith(t, dir, tokenEnv(), args...)
		if code != cli.ExitOK || !strings.Contains(out, strings.TrimPrefix(srv.URL, "http://")) {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	code, _, errOut = runWith(t, context.Background(), dir, nil, "pack", "publish", "--registry", "ftp://alice:"+urlPassword+"@host")
	if code != cli.ExitUsage || !strings.Contains(errOut, "[redacted]@host") {
		t.Errorf("bad URL: exit %d %s", code, errOut)
	}
	// The printed-output check (TestMain) asserts no secret got out.
}

// TestPublishRetries: a 503 on discovery is retried; a 501 on the upload
// is not.
func TestPublishRetries(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	srv.SetFaults(registrytest.Faults{DiscoveryUnavailable: 1})
	if code, out, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL, "-v"); code != cli.ExitOK || !strings.Contains(errOut, "retry 1/1") || !strings.Contains(out, "published") {
		t.Fatalf("503 on discovery: exit %d\n%s%s", code, out, errOut)
	}
	dir, srv, _ = publishEnv(t)
	srv.SetFaults(registrytest.Faults{NotImplemented: 1})
	code, _, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL)
	if code == cli.ExitOK || srv.Puts() != 1 || !strings.Contains(errOut, "501 Not Implemented") {
		t.Errorf("501: exit %d, %d PUTs\n%s", code, srv.Puts(), errOut)
	}
}

// TestPublishCertificateErrorNotRetried: a registry whose certificate does
// not verify is reached once, not retried, and the error says why.
func TestPublishCertificateErrorNotRetried(t *testing.T) {
	dir, _, _ := publishEnv(t)
	var conns atomic.Int32
	untrusted := httptest.NewUnstartedServer(http.NotFoundHandler())
	untrusted.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0)
	untrusted.StartTLS()
	defer untrusted.Close()
	code, _, errOut := publishWith(t, dir, tokenEnv(), "--registry", untrusted.URL, "--retries", "4")
	if code != cli.ExitNetwork || !strings.Contains(errOut, "certificate") || conns.Load() != 1 {
		t.Errorf("exit %d, %d connections\n%s", code, conns.Load(), errOut)
	}
}

// TestPublishWithoutCredentials: no token and no userinfo fails before the
// upload; a refused token is refused before the body (100-continue).
func TestPublishWithoutCredentials(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	code, _, errOut := publishWith(t, dir, nil, "--registry", srv.URL)
	if code != cli.ExitAuth || srv.Puts() != 0 || !strings.Contains(errOut, "nothing was sent") {
		t.Errorf("no token: exit %d, %d PUTs\n%s", code, srv.Puts(), errOut)
	}
	code, _, errOut = publishWith(t, dir, map[string]string{"WOP_TOKEN": echoedToken}, "--registry", srv.URL)
	if code != cli.ExitAuth || srv.Puts() != 1 || srv.Received() != 0 {
		t.Errorf("refused token: exit %d, %d PUTs, %d body bytes read\n%s", code, srv.Puts(), srv.Received(), errOut)
	}
}

// TestVerifyTrust: a key id listed twice (revoked and active), and a
// namespace pattern that does not end ".*" nor equal the name, do not verify.
func TestVerifyTrust(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	verifyArgs := []string{"pack", "verify", archive, "--registry", srv.URL}
	if code, out, errOut := run(t, dir, verifyArgs...); code != cli.ExitOK {
		t.Fatalf("baseline: exit %d\n%s%s", code, out, errOut)
	}
	k1 := srv.KeyOf("k1")
	srv.SetDiscovery(registrytest.Discovery{ExtraKeys: []registry.SigningKey{{KeyID: "k1", Status: "revoked", PermittedNamespaces: []string{"community.acme.*"}}}})
	code, out, _ := run(t, dir, verifyArgs...)
	if code != cli.ExitFindings || !strings.Contains(out, `key "k1" is listed 2 times`) {
		t.Errorf("duplicate key id: exit %d\n%s", code, out)
	}
	if code, _, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL); code == cli.ExitOK || !strings.Contains(errOut, "listed 2 times") {
		t.Errorf("publish with a duplicate key id: exit %d\n%s", code, errOut)
	}
	srv.SetDiscovery(registrytest.Discovery{})
	k1.Namespaces = []string{"community.acm*"}
	srv.AddKey("k1", k1)
	code, out, _ = run(t, dir, verifyArgs...)
	if code != cli.ExitFindings || !strings.Contains(out, `key "k1" may sign only community.acm*, not community.acme.demo`) {
		t.Errorf("namespace pattern: exit %d\n%s", code, out)
	}
}

// TestVerifyCollidingNames: an archive holding the signed pack.json and an
// unsigned Pack.json, or an NFC and an NFD spelling of one name, fails
// verify: extracted on macOS or Windows, one file replaces the other.
func TestVerifyCollidingNames(t *testing.T) {
	dir, _, _ := publishEnv(t)
	for name, extra := range map[string][2]string{
		"case":    {"Pack.json", "pack.json"},
		"unicode": {"prompts/caf\u00e9.md", "prompts/cafe\u0301.md"},
	} {
		t.Run(name, func(t *testing.T) {
			tgz := filepath.Join(dir, name+".tgz")
			addEntries(t, filepath.Join(dir, archive), tgz, extra[:], name == "case")
			code, out, errOut := run(t, dir, "pack", "verify", tgz, "--key", "keys/k1.pub.pem")
			if code != cli.ExitFindings || !strings.Contains(out, "FAIL archive") || !strings.Contains(out, "are one file on macOS and Windows") {
				t.Errorf("exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

// addEntries copies the archive at from to to, adding an unsigned entry
// for each of names; with existing, only for the first (the second names
// one of the archive's own entries).
func addEntries(t *testing.T, from, to string, names []string, existing bool) {
	t.Helper()
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	for i, n := range names {
		if existing && i > 0 {
			break // the second name is the archive's own
		}
		data := []byte(`{"name":"community.acme.demo","version":"1.0.0","unsigned":true}`)
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	tw.Close()
	zw.Close()
	if err := os.WriteFile(to, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyPublishedVersion: NAME@VERSION --registry fetches the archive
// and its version manifest through the registry client and verifies them;
// a registry serving another version's archive under that name fails.
func TestVerifyPublishedVersion(t *testing.T) {
	dir, srv, publish := publishEnv(t)
	if code, errOut := publish(); code != cli.ExitOK {
		t.Fatalf("publish: %s", errOut)
	}
	code, out, errOut := run(t, dir, "pack", "verify", "community.acme.demo@1.0.0", "--registry", srv.URL)
	for _, want := range []string{"ok   identity", "ok   version-manifest", "ok   signature"} {
		if code != cli.ExitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, stdout lacks %q:\n%s%s", code, want, out, errOut)
		}
	}
	raw, _ := os.ReadFile(filepath.Join(dir, archive))
	srv.Publish("community.acme.demo", "2.0.0", raw)
	code, out, _ = run(t, dir, "pack", "verify", "community.acme.demo@2.0.0", "--registry", srv.URL)
	if code != cli.ExitFindings || !strings.Contains(out, "FAIL identity         the registry served community.acme.demo@1.0.0 when asked for community.acme.demo@2.0.0") {
		t.Errorf("wrong archive: exit %d\n%s", code, out)
	}
	if code, _, errOut := run(t, dir, "pack", "verify", "community.acme.demo@9.9.9", "--registry", srv.URL); code == cli.ExitOK || !strings.Contains(errOut, "not found") {
		t.Errorf("unpublished: exit %d %s", code, errOut)
	}
	if code, _, errOut := run(t, dir, "pack", "verify", "community.acme.demo@1.0.0"); code != cli.ExitUsage || !strings.Contains(errOut, "--registry") {
		t.Errorf("no registry: exit %d %s", code, errOut)
	}
}

// TestPublishRefusesCollidingNames: publish (even with --no-lint) refuses
// an archive verify would fail, before any request.
func TestPublishRefusesCollidingNames(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	addEntries(t, filepath.Join(dir, archive), filepath.Join(dir, "case.tgz"), []string{"Pack.json"}, false)
	code, _, errOut := runWith(t, context.Background(), dir, tokenEnv(), "pack", "publish", "case.tgz", "--registry", srv.URL, "--no-lint")
	if code == cli.ExitOK || !strings.Contains(errOut, "are one file on macOS and Windows") || srv.Puts() != 0 {
		t.Errorf("exit %d, %d PUTs\n%s", code, srv.Puts(), errOut)
	}
}

// TestVerifyTokenOnlyForItsRegistry: verify sends WOP_TOKEN only to the
// origin of WOP_REGISTRY, never to another registry it is pointed at.
func TestVerifyTokenOnlyForItsRegistry(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	other := registrytest.NewRecorder()
	defer other.Close()
	vars := map[string]string{"WOP_TOKEN": token, "WOP_REGISTRY": srv.URL}
	runWith(t, context.Background(), dir, vars, "pack", "verify", "community.acme.demo@1.0.0", "--registry", other.URL)
	if seen := other.Seen(); len(seen) == 0 || seen[0].Authorization != "" {
		t.Errorf("another registry got %+v", seen)
	}
	vars["WOP_REGISTRY"] = other.URL + "/"
	runWith(t, context.Background(), dir, vars, "pack", "verify", "community.acme.demo@1.0.0", "--registry", other.URL)
	if seen := other.Seen(); seen[len(seen)-1].Authorization != "Bearer "+token {
		t.Errorf("its own registry got %+v", seen[len(seen)-1])
	}
}
