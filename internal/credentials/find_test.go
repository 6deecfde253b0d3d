package credentials

import "testing"

func TestFind(t *testing.T) {
	dir := t.TempDir()
	if err := Save(Path(dir), "https://reg.acme.dev", "stored-tok"); err != nil {
		t.Fatal(err)
	}
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	none := env(nil)
	if tok, src, err := Find(none, dir, "https://reg.acme.dev/"); tok != "stored-tok" || src != "stored in "+Path(dir) || err != nil {
		t.Errorf("stored: %q %q %v", tok, src, err)
	}
	if tok, src, _ := Find(env(map[string]string{"WOP_TOKEN": "env-tok"}), dir, "https://reg.acme.dev"); tok != "env-tok" || src != "WOP_TOKEN" {
		t.Errorf("WOP_TOKEN wins: %q %q", tok, src)
	}
	if tok, src, err := Find(none, "", "https://reg.acme.dev"); tok != "" || src != "" || err != nil {
		t.Errorf("no config dir: %q %q %v", tok, src, err)
	}
	home := env(map[string]string{"WOP_TOKEN": "env-tok", "WOP_REGISTRY": "https://home.dev/x"})
	tests := []struct{ reg, want string }{
		{"https://reg.acme.dev", "stored-tok"},
		{"https://home.dev/other", "env-tok"}, // WOP_REGISTRY's origin
		{"https://elsewhere.dev", ""},         // WOP_TOKEN never goes elsewhere
		{"http://home.dev", ""},               // another scheme is another origin
	}
	for _, tt := range tests {
		if tok, err := FindForReads(home, dir, tt.reg); string(tok) != tt.want || err != nil {
			t.Errorf("FindForReads(%s) = %q, %v; want %q", tt.reg, tok, err, tt.want)
		}
	}
}
