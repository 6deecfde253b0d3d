package pack

import (
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
)

func TestRefsAndPaths(t *testing.T) {
	doc, err := jsonpos.Parse([]byte(`{"runtime":{"language":"javascript","entry":"./index.mjs"},
	  "nodes":[{"configSchemaRef":"schemas/c.json"}],
	  "agents":[{"systemPromptRef":"./prompts/a.md","handoff":{"taskSchemaRef":"schemas/t.json"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range Refs(doc.Root) {
		got[r.Field] = r.Path()
	}
	want := map[string]string{
		"runtime.entry":                   "index.mjs", // the module-import spelling is accepted
		"nodes[0].configSchemaRef":        "schemas/c.json",
		"agents[0].systemPromptRef":       "./prompts/a.md", // other refs are compared as written
		"agents[0].handoff.taskSchemaRef": "schemas/t.json",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	ui, _ := jsonpos.Parse([]byte(`{"kind":"frontend-plugin","uiPlugins":[{"pluginId":"v","entry":"ui/v.html"}]}`))
	if refs := Refs(ui.Root); len(refs) != 1 || refs[0].Kind != RefUIPlugin || refs[0].Path() != "ui/v.html" || refs[0].Pointer != "/uiPlugins/0/entry" {
		t.Errorf("a frontend plugin's entry bundle: %+v", refs)
	}
	remote, _ := jsonpos.Parse([]byte(`{"runtime":{"language":"remote","entry":"pack.json"}}`))
	if refs := Refs(remote.Root); len(refs) != 0 {
		t.Errorf("remote runtime entry listed as a file ref: %+v", refs)
	}
}
