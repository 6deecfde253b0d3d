package build

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

// fixedKey is an Ed25519 key from a constant seed: Ed25519 signatures are
// deterministic, so a build signed with it has fixed bytes.
func fixedKey(t *testing.T) *sign.PrivateKey {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	key, err := sign.ParsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), "acme-1")
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// hexLines renders bytes as hex, 32 bytes a line, for a golden file that
// diffs readably and that no line-ending conversion can alter.
func hexLines(data []byte) []byte {
	var b strings.Builder
	for len(data) > 0 {
		n := min(32, len(data))
		b.WriteString(hex.EncodeToString(data[:n]) + "\n")
		data = data[n:]
	}
	return []byte(b.String())
}

// TestGoldenArchiveBytes pins the .tgz bytes of a signed build of the
// fixture: the tar layout, the gzip framing and the deflate level. A change
// here changes every archive's integrity; it must be deliberate (see
// tarball.CompressionLevel) and the file regenerated with -update.
func TestGoldenArchiveBytes(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, names(), time.Now())
	_, data := buildIn(t, dir, Signing{Spec: sign.SpecV1, Key: fixedKey(t)})
	golden.Assert(t, "golden/community.acme.demo-1.0.0.tgz.hex", hexLines(data))
}

// TestArchiveBytesIgnoreGOMAXPROCS: the compressor's output does not depend
// on how many threads the process may use.
func TestArchiveBytesIgnoreGOMAXPROCS(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, names(), time.Now())
	s := Signing{Spec: sign.SpecV1, Key: fixedKey(t)}
	var builds []string
	for _, procs := range []int{1, 2, 8} {
		old := runtime.GOMAXPROCS(procs)
		_, data := buildIn(t, dir, s)
		runtime.GOMAXPROCS(old)
		builds = append(builds, string(data))
	}
	if builds[0] != builds[1] || builds[0] != builds[2] {
		t.Error("the archive's bytes depend on GOMAXPROCS")
	}
}
