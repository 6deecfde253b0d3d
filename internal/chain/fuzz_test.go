package chain

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// FuzzAnalyze: any manifest is analysed without a panic, the same twice,
// and everything it reports sits inside the DAG it belongs to.
func FuzzAnalyze(f *testing.F) {
	f.Add([]byte(testManifest))
	f.Add([]byte(`{"chains": [{"dag": {"nodes": [{"id": "a"}, {"id": "a.b"}], "edges": [{"from": "a.b.c", "to": "a"}, {"from": "a", "to": "a.b"}]}}]}`))
	f.Add([]byte(`{"x": {"dag": {"nodes": 1, "edges": {}}}, "chains": [{"label": "A", "dag": {"nodes": [{"inputs": {"title": "B"}}]}}, {"label": "B"}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := jsonpos.Parse(src)
		if err != nil {
			return
		}
		a := Analyze(doc.Root, Options{})
		b := Analyze(doc.Root, Options{})
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("two analyses differ:\n%s\n%s", ja, jb)
		}
		for _, d := range a.DAGs {
			for _, n := range d.Nodes {
				for _, in := range n.Inputs {
					if !strings.HasPrefix(in.Pointer, d.Pointer+"/") && (d.ParamsPointer == "" || !strings.HasPrefix(in.Pointer, d.ParamsPointer)) {
						t.Errorf("binding %+v of %s points outside its DAG %s", in, n.ID, d.Pointer)
					}
				}
			}
			for _, fd := range d.Findings {
				if !strings.HasPrefix(fd.Pointer, d.Pointer+"/") {
					t.Errorf("finding %+v outside its DAG %s", fd, d.Pointer)
				}
			}
		}
	})
}
