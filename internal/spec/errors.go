package spec

import (
	"strconv"
	"strings"
)

// ErrorCode is one row of the v2 error registry (spec/v2/errors.json): a
// code a v2 host or registry may answer with.
type ErrorCode struct {
	Code       string `json:"code"`
	HTTPStatus int    `json:"httpStatus"`
	Retriable  bool   `json:"retriable"`
	Since      string `json:"since"`  // the spec version that registered it: "1.0", "2.0"
	Source     string `json:"source"` // the RFC or spec section that defines it
}

// V2Only reports whether the code was registered by v2 (Since 2.0 or
// later): a v1 registry never answers with it.
func (c ErrorCode) V2Only() bool {
	major, _, _ := strings.Cut(c.Since, ".")
	n, err := strconv.Atoi(major)
	return err == nil && n >= 2
}

// LoadErrors parses the embedded v2 error registry, keyed by code.
func LoadErrors() (map[string]ErrorCode, error) {
	var doc struct {
		Rows []ErrorCode `json:"rows"`
	}
	if err := unmarshalFile("errors/errors.json", &doc); err != nil {
		return nil, err
	}
	codes := make(map[string]ErrorCode, len(doc.Rows))
	for _, r := range doc.Rows {
		codes[r.Code] = r
	}
	return codes, nil
}
