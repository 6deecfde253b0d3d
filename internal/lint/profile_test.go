package lint

import (
	"maps"
	"slices"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
)

// TestProfilesNameRealRules: a profile naming a rule that does not exist
// (renamed, or a typo) would silently change nothing.
func TestProfilesNameRealRules(t *testing.T) {
	rules := All()
	for _, id := range profileRuleIDs() {
		r := rules.Lookup(id)
		if r == nil || r.Deprecated != "" {
			t.Errorf("a profile names %q, which is no live rule", id)
		}
	}
}

func TestRegistryProfile(t *testing.T) {
	p, err := FindRuleProfile("registry")
	if err != nil {
		t.Fatal(err)
	}
	// Every rule the profile names, read from the profile itself so that a
	// rule added to it is held too: raised to error, from a lower default,
	// in the severities lint applies and in what `wop pack rules` lists.
	if len(p.Severities) < 8 {
		t.Fatalf("the registry profile names %d rules, want at least the 8 it had", len(p.Severities))
	}
	effective := WithProfile(p, nil)
	listed := map[string]diag.Severity{}
	for _, info := range InfosFor(p) {
		listed[info.ID] = info.Severity
	}
	for _, id := range slices.Sorted(maps.Keys(p.Severities)) {
		if p.Severities[id] != diag.Error || effective[id] != diag.Error || listed[id] != diag.Error {
			t.Errorf("registry profile: %s is %v (applied %v, listed %v), want error", id, p.Severities[id], effective[id], listed[id])
		}
		if Lookup(id).Severity == diag.Error {
			t.Errorf("%s is an error by default already: the profile adds nothing", id)
		}
	}
	// The configuration's own word wins over the profile.
	got := WithProfile(p, map[string]diag.Severity{"readme-link-broken": diag.Off})
	if got["readme-link-broken"] != diag.Off || got["chain-input-unbound"] != diag.Error {
		t.Errorf("effective = %v", got)
	}
	if WithProfile(nil, nil) != nil {
		t.Error("no profile must leave the severities as configured")
	}
	for _, info := range InfosFor(p) {
		if info.ID == "runtime-entry-exports" && info.Severity != diag.Error {
			t.Errorf("InfosFor: %s is %v", info.ID, info.Severity)
		}
	}
	for _, info := range Infos() {
		if info.ID == "runtime-entry-exports" && info.Severity != diag.Warning {
			t.Error("InfosFor changed the defaults")
		}
	}
	if _, err := FindRuleProfile("regsitry"); err == nil || err.Error() != `no profile "regsitry" (known: registry)` {
		t.Errorf("err = %v", err)
	}
}

// profileRuleIDs is every rule id the profiles name, sorted.
func profileRuleIDs() []string {
	var ids []string
	for _, p := range ruleProfiles() {
		ids = append(ids, slices.Collect(maps.Keys(p.Severities))...)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// TestRegistryProfileLeavesSiblingLinks: the registry profile raises
// readme-link-broken to an error, and leaves a README's link to a sibling
// pack (readme-link-sibling) information: the registry's maintainers keep
// those links relative on purpose, and they work where the README is read.
func TestRegistryProfileLeavesSiblingLinks(t *testing.T) {
	p, err := FindRuleProfile("registry")
	if err != nil {
		t.Fatal(err)
	}
	effective := WithProfile(p, nil)
	if effective["readme-link-broken"] != diag.Error {
		t.Errorf("readme-link-broken under the registry profile: %v, want error", effective["readme-link-broken"])
	}
	if sev, raised := effective["readme-link-sibling"]; raised || Lookup("readme-link-sibling").Severity != diag.Info {
		t.Errorf("readme-link-sibling: profile %v (raised %v), default %v; want information, left alone", sev, raised, Lookup("readme-link-sibling").Severity)
	}
}
