package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCatalogHostAndProfile(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{"catalog: ../registry\n", []string{"../registry"}},
		{"catalog: [../registry, https://packs.example]\n", []string{"../registry", "https://packs.example"}},
		{"catalog:\n  - a\n  - b\n", []string{"a", "b"}},
	} {
		c, err := Parse("x.yaml", []byte(tc.doc), Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.doc, err)
		}
		if !slices.Equal(c.Catalog, tc.want) {
			t.Errorf("%q: catalog = %q, want %q", tc.doc, c.Catalog, tc.want)
		}
	}
	known := func(name string) error {
		if name == "registry" {
			return nil
		}
		return errors.New("no profile " + name + " (known: registry)")
	}
	c, err := Parse("x.yaml", []byte("host: hosts/app.json\nprofile: registry\n"), Options{Profile: known})
	if err != nil || c.Host != "hosts/app.json" || c.Profile != "registry" {
		t.Errorf("%+v, %v", c, err)
	}
}

func TestCatalogHostAndProfileMistakes(t *testing.T) {
	known := func(name string) error { return errors.New("no profile " + name + " (known: registry)") }
	body := "catalog: {a: b}\nhost: [x]\nprofile: regsitry\n"
	_, err := Parse("x.yaml", []byte(body), Options{Profile: known})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v", err)
	}
	got := err.Error()
	for _, want := range []string{
		"x.yaml:1:10: catalog: expected a catalog source or a list of them, got a mapping",
		"x.yaml:2:7: host: expected a string, got a list",
		"x.yaml:3:10: profile: no profile regsitry (known: registry)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	_, err = Parse("x.yaml", []byte("catalog: [a, [b], '']\n"), Options{})
	if err == nil || !strings.Contains(err.Error(), "catalog[1]: expected a string, got a list") {
		t.Errorf("nested list: %v", err)
	}
	_, err = Parse("x.yaml", []byte("catalog: [a, '']\n"), Options{})
	if err == nil || !strings.Contains(err.Error(), "1:14: catalog: an empty catalog source") {
		t.Errorf("empty source: %v", err)
	}
}
