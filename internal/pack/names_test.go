package pack

import "testing"

func TestCheckNameVersion(t *testing.T) {
	for _, tt := range []struct {
		name, version string
		ok            bool
	}{
		{"community.acme.tools", "1.2.0", true},
		{"local.acme.x", "1.0.0-rc.1+build.5", true},
		{"community.acme.x/../../evil", "1.0.0", false},
		{"..", "1.0.0", false},
		{"Community.acme.x", "1.0.0", false},
		{"community.acme.x", "1.0", false},
		{"community.acme.x", "../1.0.0", false},
		{"community.acme.x", "v1.0.0", false},
	} {
		if err := CheckNameVersion(tt.name, tt.version); (err == nil) != tt.ok {
			t.Errorf("%s@%s: %v", tt.name, tt.version, err)
		}
	}
}

func TestCheckSegment(t *testing.T) {
	for s, ok := range map[string]bool{
		"acme-release-1": true, "a.b": true,
		"": false, "../../x": false, "a/b": false, `a\b`: false, ".hidden": false, "c:x": false, "tab\tx": false, "é": false,
	} {
		if err := CheckSegment("--key-id", s); (err == nil) != ok {
			t.Errorf("%q: %v", s, err)
		}
	}
}
