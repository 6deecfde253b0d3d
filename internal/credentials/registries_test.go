package credentials

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestRegistriesListsWhatIsStored(t *testing.T) {
	path := Path(t.TempDir())
	if got, err := Registries(path); err != nil || got != nil {
		t.Fatalf("no file: %v, %v", got, err)
	}
	for _, reg := range []string{"https://b.dev/", "https://a.dev"} {
		if err := Save(path, reg, "tok"); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := Registries(path); err != nil || !slices.Equal(got, []string{"https://a.dev", "https://b.dev"}) {
		t.Errorf("Registries = %v, %v", got, err)
	}
	if _, err := Registries(filepath.Join(t.TempDir(), "x", "credentials.json")); err != nil {
		t.Errorf("missing folder: %v", err)
	}
}
