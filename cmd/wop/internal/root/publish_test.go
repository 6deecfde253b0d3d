package root

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/registry/registrytest"
	"github.com/wop-cli/wop/internal/sign"
)

const token = "tok-123"

// publishEnv builds a signed archive and a registry that knows its key.
func publishEnv(t *testing.T) (dir string, srv *registrytest.Server, env func(...string) (int, string)) {
	dir = t.TempDir()
	manifest := `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "pack.json"), []byte(manifest), 0o644)
	if code, _, errOut := run(t, dir, "key", "generate", "--key-id", "k1", "-o", "keys"); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := run(t, dir, "pack", "build", "src", "--key", "keys/k1.pem", "--key-id", "k1", "-o", "out"); code != 0 {
		t.Fatal(errOut)
	}
	srv = registrytest.New(token)
	t.Cleanup(srv.Close)
	raw, _ := os.ReadFile(filepath.Join(dir, "keys", "k1.pub.pem"))
	pub, _ := sign.ParsePublicKey(raw)
	srv.AddKey("k1", registrytest.Key{Public: pub, Namespaces: []string{"community.acme.*"}})
	return dir, srv, func(extra ...string) (int, string) {
		args := append([]string{"pack", "publish", "out/community.acme.demo-1.0.0.tgz", "--registry", srv.URL, "--retries", "1"}, extra...)
		code, _, errOut := runWith(t, context.Background(), dir, map[string]string{"WOP_TOKEN": token}, args...)
		return code, errOut
	}
}

func TestPublishExitCodes(t *testing.T) {
	_, srv, publish := publishEnv(t)
	srv.Grant("vendor.other.*")
	if code, errOut := publish(); code != cli.ExitAuth {
		t.Errorf("403: exit %d: %s", code, errOut)
	}
	srv.Grant()
	srv.SetFaults(registrytest.Faults{Unavailable: 5})
	if code, errOut := publish(); code != cli.ExitNetwork || !strings.Contains(errOut, "503") {
		t.Errorf("503 after retries: exit %d: %s", code, errOut)
	}
	srv.SetFaults(registrytest.Faults{})
	if code, errOut := publish(); code != cli.ExitOK {
		t.Fatalf("publish: exit %d: %s", code, errOut)
	}
	srv.Publish("community.acme.demo", "1.0.0", []byte("other bytes"))
	if code, errOut := publish(); code != cli.ExitConflict {
		t.Errorf("conflict: exit %d: %s", code, errOut)
	}
	if code, _ := publish("--registry", "http://127.0.0.1:1"); code != cli.ExitNetwork {
		t.Errorf("unreachable registry: exit %d", code)
	}
}

// TestPublishInterrupted: Ctrl-C during a stalled upload stops at once with
// exit 130 and a rerun publishes.
func TestPublishInterrupted(t *testing.T) {
	dir, srv, publish := publishEnv(t)
	srv.SetFaults(registrytest.Faults{Slow: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	code, _, errOut := runWith(t, ctx, dir, map[string]string{"WOP_TOKEN": token}, "pack", "publish", "out/community.acme.demo-1.0.0.tgz", "--registry", srv.URL)
	if code != cli.ExitInterrupted || time.Since(start) > 10*time.Second || !strings.Contains(errOut, "run the same command again") {
		t.Fatalf("exit %d after %s: %s", code, time.Since(start), errOut)
	}
	srv.SetFaults(registrytest.Faults{})
	if code, errOut := publish(); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, errOut)
	}
	if v := srv.Versions("community.acme.demo"); len(v) != 1 {
		t.Errorf("versions %v", v)
	}
}
