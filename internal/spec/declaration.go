package spec

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Declaration is what pack tooling needs from spec/v2/declaration.json and
// spec/v2/peer-dependency-aliases.json: the capability families a v2
// peerDependencies key may name, their facets, and the v1-era keys that map
// onto them.
type Declaration struct {
	// Families maps each live family key (anchor not "deleted") to its facets.
	Families map[string][]string
	// Aliases maps a v1-era peer-dependency key to its family and facets.
	Aliases map[string]Alias
}

// Alias is one row of the overlap alias table.
type Alias struct {
	Family string
	Facets []string
}

// LoadDeclaration parses the embedded declaration and alias table.
func LoadDeclaration() (*Declaration, error) {
	var decl struct {
		Families []struct {
			Key    string   `json:"key"`
			Anchor string   `json:"anchor"`
			Facets []string `json:"facets"`
		} `json:"families"`
	}
	if err := unmarshalFile("declaration/declaration.json", &decl); err != nil {
		return nil, err
	}
	var aliases struct {
		Rows []struct {
			Alias  string   `json:"alias"`
			Family string   `json:"family"`
			Facets []string `json:"facets"`
		} `json:"rows"`
	}
	if err := unmarshalFile("declaration/peer-dependency-aliases.json", &aliases); err != nil {
		return nil, err
	}
	d := &Declaration{Families: map[string][]string{}, Aliases: map[string]Alias{}}
	for _, f := range decl.Families {
		if f.Anchor != "deleted" {
			d.Families[f.Key] = f.Facets
		}
	}
	for _, r := range aliases.Rows {
		d.Aliases[r.Alias] = Alias{Family: r.Family, Facets: r.Facets}
	}
	return d, nil
}

func unmarshalFile(name string, v any) error {
	raw, err := readFile(name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("embedded %s: %w", name, err)
	}
	return nil
}

// SplitFacets separates the facets the declaration lists for family from
// the ones it does not. The alias table is generated from the declaration
// yet one row (host.campaignMessaging: messaging + "campaign") names a facet
// the declaration does not list; packs.md says a facet must be listed, so
// callers keep only the declared ones.
func (d *Declaration) SplitFacets(family string, facets []string) (declared, undeclared []string) {
	for _, f := range facets {
		if slices.Contains(d.Families[family], f) {
			declared = append(declared, f)
		} else {
			undeclared = append(undeclared, f)
		}
	}
	return declared, undeclared
}
