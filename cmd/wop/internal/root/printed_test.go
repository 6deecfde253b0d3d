package root

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// testSecrets are every token and password the tests in this package give
// wop. None may appear in anything wop prints.
var testSecrets = []string{token, echoedToken, urlPassword, "YWxpY2U6cGE1NXcwcmQtaW4tdXJs" /* base64 alice:password */}

// printedLog keeps every byte wop printed during this package's tests.
type printedLog struct {
	mu  sync.Mutex
	all strings.Builder
}

func (p *printedLog) record(outputs ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, o := range outputs {
		p.all.WriteString(o)
	}
}

// printed is the package's output log: a test-only global, because the
// check must see the output of every test, whichever ran.
var printed printedLog

// TestMain fails the package if any test made wop print a secret.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		all := printed.all.String()
		for _, s := range testSecrets {
			if n := strings.Count(all, s); n > 0 {
				fmt.Fprintf(os.Stderr, "FAIL: wop printed the test secret %q %d times across this package's tests\n", s, n)
				code = 1
			}
		}
	}
	os.Exit(code)
}
