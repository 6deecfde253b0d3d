package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

// TestSARIFSchemaAndGitHubRequirements validates the SARIF output against
// the OASIS SARIF 2.1.0 schema (testdata, with its provenance) and checks
// what GitHub code scanning documents beyond the schema: every rule has a
// full description and help, every result a location with a region, and
// artifact URIs are relative to a uriBaseId or absolute file:// URIs.
func TestSARIFSchemaAndGitHubRequirements(t *testing.T) {
	var out bytes.Buffer
	if err := Print(&out, "sarif", loadInput(t)); err != nil {
		t.Fatal(err)
	}
	validateSARIFSchema(t, out.Bytes())

	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string
					Rules   []struct {
						ID              string
						FullDescription struct{ Text string }
						Help            struct{ Text, Markdown string }
					}
				}
			}
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Results            []struct {
				RuleID    string
				RuleIndex int
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           *struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if v := run.Tool.Driver.Version; v == "" || v == "dev" {
		t.Errorf("tool version %q", v)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.FullDescription.Text == "" || r.Help.Text == "" {
			t.Errorf("rule %s: fullDescription %q, help %q", r.ID, r.FullDescription.Text, r.Help.Text)
		}
	}
	if got := run.Tool.Driver.Rules[0].FullDescription.Text; got != "The file a ref names is not in the pack: the most common defect." {
		t.Errorf("fullDescription is not the catalogue's first paragraph: %q", got)
	}
	if base := run.OriginalURIBaseIDs["%SRCROOT%"].URI; base != "file:///src/repo/" {
		t.Errorf("%%SRCROOT%% = %q", base)
	}
	for i, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d: ruleIndex %d is not %s", i, res.RuleIndex, res.RuleID)
		}
		if len(res.Locations) != 1 {
			t.Fatalf("result %d: %d locations", i, len(res.Locations))
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.Region == nil || loc.Region.StartLine < 1 {
			t.Errorf("result %d: no region with startLine >= 1", i)
		}
		uri := loc.ArtifactLocation.URI
		switch {
		case strings.HasPrefix(uri, "file:///"):
			if loc.ArtifactLocation.URIBaseID != "" {
				t.Errorf("result %d: absolute %s with a uriBaseId", i, uri)
			}
		case strings.HasPrefix(uri, "/"):
			t.Errorf("result %d: scheme-less absolute path %s", i, uri)
		case loc.ArtifactLocation.URIBaseID != "%SRCROOT%":
			t.Errorf("result %d: relative %s without uriBaseId", i, uri)
		}
	}
	if got := run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "file:///abs/pack%20dir/keys/pack.json.sig" {
		t.Errorf("absolute path URI %q", got)
	}
}

// TestSARIFSchemaCatchesErrors proves the schema check has teeth.
func TestSARIFSchemaCatchesErrors(t *testing.T) {
	bad := []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"wop"}},"results":[{"level":"fatal","message":{"text":"x"}}]}]}`)
	if err := sarifSchema(t).Validate(mustUnmarshal(t, bad)); err == nil {
		t.Error("level \"fatal\" passed the schema")
	}
}

func validateSARIFSchema(t *testing.T, doc []byte) {
	t.Helper()
	if err := sarifSchema(t).Validate(mustUnmarshal(t, doc)); err != nil {
		t.Errorf("SARIF output does not validate against the 2.1.0 schema: %v", err)
	}
}

func mustUnmarshal(t *testing.T, doc []byte) any {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/sarif-2.1.0-rtm.5.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-2.1.0.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func TestSemanticVersion(t *testing.T) {
	for in, want := range map[string]string{"v1.2.3": "1.2.3", "0.1.0-rc.1": "0.1.0-rc.1", "(devel)": "", "dev": "", "v1.2": ""} {
		if got := semanticVersion(in); got != want {
			t.Errorf("semanticVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIncompleteCatalogReported: a catalog that skipped broken packs is
// said in json (catalogIncomplete) and in sarif (a tool execution
// notification, schema-valid), and in neither when the catalog was whole.
func TestIncompleteCatalogReported(t *testing.T) {
	for _, format := range []string{"json", "sarif"} {
		t.Run(format, func(t *testing.T) {
			in := loadInput(t)
			in.Diags = in.Diags[:1]
			in.Incomplete = &Incomplete{Skipped: 2, Message: "catalog incomplete: 2 broken pack.json skipped"}
			var out bytes.Buffer
			if err := Print(&out, format, in); err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, "golden/incomplete."+format, out.Bytes())
			if format == "sarif" {
				validateSARIFSchema(t, out.Bytes())
			}
		})
	}
	var whole bytes.Buffer
	if err := Print(&whole, "json", loadInput(t)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(whole.String(), "catalogIncomplete") {
		t.Error("json says catalogIncomplete for a whole catalog")
	}
}
