package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestConfigDocNamesEveryKey: docs/config.md has a row for every top-level
// key of .wop.yaml and shows every nested key in its example, so a key
// added to Config cannot go undocumented; its example parses.
func TestConfigDocNamesEveryKey(t *testing.T) {
	raw, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	_, example, _ := strings.Cut(doc, "## Every key\n\n```yaml\n")
	example, _, _ = strings.Cut(example, "```")
	if _, err := Parse("docs/config.md", []byte(example), Options{}); err != nil {
		t.Errorf("docs/config.md's example does not parse: %v", err)
	}
	var nested func(t reflect.Type, path string)
	nested = func(typ reflect.Type, path string) {
		for typ.Kind() == reflect.Map || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct {
			return
		}
		for f := range typ.Fields() {
			key := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if key == "" || key == "-" {
				continue
			}
			if path == "" && !strings.Contains(doc, "| `"+key+"` |") {
				t.Errorf("docs/config.md has no row for the key %s", key)
			}
			if !strings.Contains(example, key+":") {
				t.Errorf("docs/config.md's example does not show %s%s", path, key)
			}
			nested(f.Type, path+key+".")
		}
	}
	nested(reflect.TypeFor[Config](), "")
}
