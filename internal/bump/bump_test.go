package bump

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/filetree"

	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

func load(t *testing.T, files map[string]string) *pack.Pack {
	t.Helper()
	dir := t.TempDir()
	filetree.Write(t, dir, files)
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

func TestPlan(t *testing.T) {
	pk := load(t, map[string]string{
		"pack.json": "{\n\t\"name\": \"acme.x\",\n\t\"version\": \"1.0.0\",\n\t\"nodes\": [{\"typeId\": \"acme.x.a\", \"version\": \"0.3.1\", \"configSchemaRef\": \"conf/a.json\"}]\n}\n",
		// left at an old version by an earlier bump, with a ref into the pack
		"schemas/b.json": `{"$id": "https://reg.example/acme.x/0.9.0/b.json", "properties": {"a": {"$ref": "https://reg.example/acme.x/0.9.0/c.json#/x"}, "o": {"$ref": "https://other.example/acme.x/1.0.0/c.json"}}}`,
		// a schema outside schemas/ that a ref names
		"conf/a.json": "{\n  \"$id\": \"https://reg.example/acme.x/1.0.0/conf/a.json\"\n}\n",
		// someone else's $id is left alone
		"schemas/ext.json": `{"$id": "https://elsewhere.example/s.json"}`,
		"schemas/bad.json": `{`,
	})
	stale := []breaking.StaleVersion{{Pointer: "/nodes/0/version", Version: "0.3.1", Needed: breaking.Major}}
	edits, err := Plan(pk, "2.0.0", Options{SchemaBase: "https://reg.example", Stale: stale})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range edits {
		got[e.Name] = string(e.New)
	}
	want := map[string]string{
		"pack.json":      "{\n\t\"name\": \"acme.x\",\n\t\"version\": \"2.0.0\",\n\t\"nodes\": [{\"typeId\": \"acme.x.a\", \"version\": \"0.4.0\", \"configSchemaRef\": \"conf/a.json\"}]\n}\n",
		"schemas/b.json": `{"$id": "https://reg.example/acme.x/2.0.0/b.json", "properties": {"a": {"$ref": "https://reg.example/acme.x/2.0.0/c.json#/x"}, "o": {"$ref": "https://other.example/acme.x/1.0.0/c.json"}}}`,
		"conf/a.json":    "{\n  \"$id\": \"https://reg.example/acme.x/2.0.0/conf/a.json\"\n}\n",
	}
	if len(got) != len(want) {
		t.Errorf("edited %d files, want %d: %v", len(got), len(want), got)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s:\n got %s\nwant %s", name, got[name], w)
		}
	}
}

func TestPlanRefusesBadVersion(t *testing.T) {
	pk := load(t, map[string]string{"pack.json": `{"name": "acme.x", "version": "1.0.0"}`})
	if _, err := Plan(pk, "v2", Options{}); err == nil || !strings.Contains(err.Error(), "not SemVer") {
		t.Errorf("Plan(v2) = %v, want a SemVer error", err)
	}
}
