package helperbin

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

type answer struct {
	Got   string `json:"got"`
	Error string `json:"error,omitempty"`
}

// TestMain lets the test binary act as a helper built on Main.
func TestMain(m *testing.M) {
	if os.Getenv("HELPERBIN_TEST_HELPER") == "1" {
		Main("wop-test", "1.2.3", func(_ context.Context, r io.Reader) answer {
			in, _ := io.ReadAll(r)
			if string(in) == "fail" {
				return answer{Error: "refused"}
			}
			return answer{Got: string(in)}
		}, func(a answer) bool { return a.Error != "" })
		return
	}
	os.Exit(m.Run())
}

// TestHelperMain: --version names the helper; a request's answer is one
// JSON line on stdout, exit 0, or exit 1 when the answer is an error.
func TestHelperMain(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) (string, int) {
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "HELPERBIN_TEST_HELPER=1")
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	for _, tt := range []struct {
		stdin string
		args  []string
		out   string
		code  int
	}{
		{"", []string{"--version"}, "wop-test 1.2.3\n", 0},
		{"hello", nil, `{"got":"hello"}` + "\n", 0},
		{"fail", nil, `{"got":"","error":"refused"}` + "\n", 1},
	} {
		if out, code := run(tt.stdin, tt.args...); out != tt.out || code != tt.code {
			t.Errorf("%q %v: %q, exit %d; want %q, exit %d", tt.stdin, tt.args, out, code, tt.out, tt.code)
		}
	}
}
