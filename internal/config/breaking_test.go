package config

import (
	"strings"
	"testing"
)

func TestBreakingAccept(t *testing.T) {
	p := write(t, t.TempDir(), `breaking:
  accept:
    - rule: node-removed
      where: /nodes/3
      reason: renamed, announced in the 2.0 notes
`)
	c, err := Load(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Breaking.Accept; len(got) != 1 || got[0].Rule != "node-removed" || got[0].Where != "/nodes/3" {
		t.Errorf("accept = %+v", got)
	}
	for _, body := range []string{
		"breaking:\n  accept:\n    - rule: node-removed\n",                                // no reason
		"breaking:\n  accept:\n    - reason: because\n",                                   // no rule
		"breaking:\n  accept:\n    - rule: node-removed\n      reason: x\n      why: y\n", // unknown key
	} {
		if _, err := Load(write(t, t.TempDir(), body), Options{}); err == nil || !strings.Contains(err.Error(), ".wop.yaml") {
			t.Errorf("%q: err = %v, want an error naming the file", body, err)
		}
	}
}
