package stage

import (
	"slices"
	"strings"
)

// stageSecrets are the credentials wop reads from the environment. Staging
// needs none of them (it reads a checkout, sends nothing), and the
// generators and gate it runs are the checkout's code, whose output wop
// shows when they fail: a gate that prints its environment must not print
// the registry token.
var stageSecrets = []string{"WOP_TOKEN", "SIGSTORE_ID_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"}

// WithoutSecrets returns environ without stageSecrets.
func WithoutSecrets(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(stageSecrets, name) {
			out = append(out, kv)
		}
	}
	return out
}
