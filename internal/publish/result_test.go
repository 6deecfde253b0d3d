package publish

import (
	"bytes"
	"testing"
)

// TestResultWriteText: each status's line, and a staged change's files and
// gate.
func TestResultWriteText(t *testing.T) {
	base := Result{Name: "acme.tools", Version: "1.0.0", Integrity: "sha512-x", Registry: "https://r.test", Staged: "/reg"}
	tests := []struct{ status, want string }{
		{"published", "published acme.tools@1.0.0 to https://r.test (sha512-x)\n"},
		{"already-published", "acme.tools@1.0.0 is already published at https://r.test with the same content (sha512-x); nothing to do\n"},
		{"dry-run", "dry run: acme.tools@1.0.0 passes every check for https://r.test (sha512-x); nothing was sent\n"},
		{"staged", "staged acme.tools@1.0.0 in /reg (sha512-x)\n  added    packs/a\ngate: g passed\n"},
		{"already-staged", "acme.tools@1.0.0 is already in /reg with the same content (sha512-x); nothing to do\n"},
		{"other", ""},
	}
	for _, tt := range tests {
		r := base
		r.Status = tt.status
		if tt.status == "staged" {
			r.Files, r.Gate = []StagedFile{{Path: "packs/a", Op: "added"}}, "g passed"
		}
		var b bytes.Buffer
		r.WriteText(&b)
		if b.String() != tt.want {
			t.Errorf("%s: %q, want %q", tt.status, b.String(), tt.want)
		}
	}
}

// TestResultWriteJSON: the fields of --format json, empty ones left out.
func TestResultWriteJSON(t *testing.T) {
	r := Result{Status: "published", Name: "a", Version: "1.0.0", Integrity: "i", Registry: "r", Archive: "x.tgz", Spec: "v2"}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"status\": \"published\",\n  \"name\": \"a\",\n  \"version\": \"1.0.0\",\n  \"integrity\": \"i\",\n  \"registry\": \"r\",\n  \"archive\": \"x.tgz\",\n  \"spec\": \"v2\"\n}\n"
	if b.String() != want {
		t.Errorf("%s, want %s", b.String(), want)
	}
}

// TestResultRegistryIntegrity: an already-published version the registry
// holds gzipped otherwise names both integrities, in text and in JSON.
func TestResultRegistryIntegrity(t *testing.T) {
	r := Result{Status: "already-published", Name: "a", Version: "1.0.0", Integrity: "sha512-x", RegistryIntegrity: "sha512-y", Registry: "r", Spec: "v1"}
	var text, js bytes.Buffer
	r.WriteText(&text)
	if want := "a@1.0.0 is already published at r with the same content (the registry's archive sha512-y holds the tar of this one, sha512-x, gzipped differently); nothing to do\n"; text.String() != want {
		t.Errorf("text %q, want %q", text.String(), want)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js.Bytes(), []byte("\"integrity\": \"sha512-x\",\n  \"registryIntegrity\": \"sha512-y\",")) {
		t.Errorf("json lacks registryIntegrity after integrity:\n%s", js.String())
	}
}
