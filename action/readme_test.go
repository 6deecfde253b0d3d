package action_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestREADMEWorkflow: the README's one-step workflow uses this Action at a
// release tag, with only inputs action.yml declares, lints the repository
// (.) by default, and uploads the SARIF file the Action writes whenever it
// is there, with the permissions upload-sarif needs.
func TestREADMEWorkflow(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	must(t, err)
	_, rest, ok := strings.Cut(string(raw), "<!-- readme-test: github-action -->\n")
	m := regexp.MustCompile("(?s)^```yaml\n(.*?)\n```").FindStringSubmatch(rest)
	if !ok || m == nil {
		t.Fatal("README has no yaml block after <!-- readme-test: github-action -->")
	}
	var wf struct {
		Permissions map[string]string
		Jobs        map[string]struct {
			Steps []struct {
				If, Uses string
				With     map[string]string
			}
		}
	}
	must(t, yaml.Unmarshal([]byte(m[1]), &wf))
	actionRaw, err := os.ReadFile("../action.yml")
	must(t, err)
	var action struct {
		Inputs map[string]struct{ Default string }
	}
	must(t, yaml.Unmarshal(actionRaw, &action))
	if action.Inputs["path"].Default != "." {
		t.Errorf("the Action's path defaults to %q, want . (a pack repository as the Quickstart makes one)", action.Inputs["path"].Default)
	}

	if wf.Permissions["security-events"] != "write" || wf.Permissions["actions"] != "read" || wf.Permissions["contents"] != "read" {
		t.Errorf("permissions %v: upload-sarif needs security-events: write and actions: read; checkout contents: read", wf.Permissions)
	}
	steps := wf.Jobs["lint"].Steps
	var usesAction, uploads bool
	for _, s := range steps {
		switch {
		case strings.HasPrefix(s.Uses, "wop-cli/wop@"):
			usesAction = true
			if !regexp.MustCompile(`^wop-cli/wop@v\d+\.\d+\.\d+$`).MatchString(s.Uses) {
				t.Errorf("uses: %s, want a release tag (wop-cli/wop@vX.Y.Z), which also names the wop it installs", s.Uses)
			}
			for k := range s.With {
				if _, ok := action.Inputs[k]; !ok {
					t.Errorf("with: %s is not an input of action.yml", k)
				}
			}
		case strings.Contains(s.Uses, "upload-sarif"):
			uploads = true
			if !usesAction {
				t.Error("the SARIF upload comes before the Action writes the file")
			}
			if want := action.Inputs["sarif"].Default; s.With["sarif_file"] != want || !strings.Contains(s.If, "always()") || !strings.Contains(s.If, "hashFiles('"+want+"')") {
				t.Errorf("upload-sarif with %v if %q: want sarif_file %s, if always() and the file is there (the Action's step fails on errors)", s.With, s.If, want)
			}
		}
	}
	if !usesAction || !uploads {
		t.Errorf("the workflow uses the Action: %v; uploads the SARIF: %v", usesAction, uploads)
	}
}
