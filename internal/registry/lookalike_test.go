package registry

import (
	"net/url"
	"testing"
)

// TestSafeForCredentialsLookalikes: plain http is safe only to a loopback
// host itself; a name that starts or ends like one is a host across a
// network.
func TestSafeForCredentialsLookalikes(t *testing.T) {
	for _, tc := range []struct {
		url  string
		safe bool
	}{
		{"http://localhost", true},
		{"http://localhost:8080/api", true},
		{"http://127.0.0.1:1", true},
		{"http://127.0.0.2", true},
		{"http://[::1]:8080", true},
		{"https://localhost.example.test", true},
		{"http://localhost.example.test", false},
		{"http://localhost.example.test:8080", false},
		{"http://localhostx", false},
		{"http://my-localhost", false},
		{"http://127.0.0.1.example.test", false},
		{"http://localhost@registry.example.test", false},
		{"http://registry.example.test#localhost", false},
		{"http://[::ffff:192.0.2.1]", false},
	} {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := SafeForCredentials(u); got != tc.safe {
			t.Errorf("SafeForCredentials(%s) = %v, want %v", tc.url, got, tc.safe)
		}
		if _, err := New(Options{Registry: tc.url, Token: "tok-123456"}); (err == nil) != tc.safe {
			t.Errorf("New(%s) with a token: err %v, want refused = %v", tc.url, err, !tc.safe)
		}
	}
}
