package pack

import (
	"bytes"
	"path"
	"strings"
)

// SecretKind says why a file must never be published, or "" when nothing
// marks it as a secret: an environment file, git metadata, anything under
// a secrets/ folder, a file named like a private key (*.key, id_rsa,
// id_ed25519...), or a private key (a PEM or OpenSSH private key block,
// wherever it sits: a key file, a prompt, the manifest). Lint reports these
// (private-key-in-pack); build and publish refuse them even under
// --no-lint.
func SecretKind(name string, data []byte) string {
	base := path.Base(name)
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env.") && !envTemplates[path.Ext(base)]:
		return "an environment file"
	case hasSegment(name, ".git"):
		return "git metadata"
	case hasSegment(path.Dir(name), "secrets"):
		return "a file from a secrets/ folder"
	case strings.HasSuffix(base, ".key") || sshKeyNames[base]:
		return "a private key file"
	case bytes.Contains(data, []byte("PRIVATE KEY-----")) || bytes.Contains(data, []byte("OPENSSH PRIVATE KEY")):
		return "a private key"
	}
	return ""
}

// envTemplates are the suffixes of the .env files a project commits as a
// template of the variables it reads (.env.example), with no values.
var envTemplates = map[string]bool{".example": true, ".sample": true, ".template": true, ".dist": true}

// sshKeyNames are the private key files ssh-keygen writes by default.
var sshKeyNames = map[string]bool{"id_rsa": true, "id_dsa": true, "id_ecdsa": true, "id_ecdsa_sk": true, "id_ed25519": true, "id_ed25519_sk": true}

func hasSegment(name, seg string) bool {
	for _, s := range strings.Split(name, "/") {
		if s == seg {
			return true
		}
	}
	return false
}
