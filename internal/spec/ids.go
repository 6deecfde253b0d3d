package spec

import (
	"fmt"
	"regexp"
)

// IDPattern returns the v2 grammar of one id kind ("agentId", "typeId",
// ...) from the embedded ids.schema.json, compiled.
func IDPattern(kind string) (*regexp.Regexp, error) {
	var ids struct {
		Defs map[string]struct {
			Pattern string `json:"pattern"`
		} `json:"$defs"`
	}
	if err := unmarshalFile("schemas/v2/ids.schema.json", &ids); err != nil {
		return nil, err
	}
	d, ok := ids.Defs[kind]
	if !ok || d.Pattern == "" {
		return nil, fmt.Errorf("embedded ids.schema.json has no %s grammar", kind)
	}
	re, err := regexp.Compile(d.Pattern)
	if err != nil {
		return nil, fmt.Errorf("embedded ids.schema.json %s grammar: %w", kind, err)
	}
	return re, nil
}
