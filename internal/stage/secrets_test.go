package stage

import (
	"slices"
	"testing"
)

// TestWithoutSecrets: the tokens wop reads never reach the checkout's
// generators and gate; everything else does, in order.
func TestWithoutSecrets(t *testing.T) {
	in := []string{"PATH=/bin", "WOP_TOKEN=t", "SIGSTORE_ID_TOKEN=s", "HOME=/h", "ACTIONS_ID_TOKEN_REQUEST_TOKEN=a", "WOP_TOKENX=kept"}
	want := []string{"PATH=/bin", "HOME=/h", "WOP_TOKENX=kept"}
	if got := WithoutSecrets(in); !slices.Equal(got, want) {
		t.Errorf("WithoutSecrets = %q, want %q", got, want)
	}
}
