package schema

import (
	"encoding/json"
	"fmt"
)

// ModelClasses lists the modelClass values the embedded agent manifest
// schema allows, in its order: the values shell completion offers.
func ModelClasses() ([]string, error) {
	raw, err := specFS.ReadFile("spec/v1/agent-manifest.schema.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Properties struct {
			ModelClass struct {
				Enum []string `json:"enum"`
			} `json:"modelClass"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("embedded agent manifest schema: %w", err)
	}
	return doc.Properties.ModelClass.Enum, nil
}
