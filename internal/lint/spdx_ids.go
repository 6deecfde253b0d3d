package lint

import (
	"slices"

	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"
)

// LicenseIDs lists the current SPDX license ids, sorted: the ids
// license-not-spdx accepts (from the same list, go-spdx's), for an editor
// to offer.
func LicenseIDs() []string {
	ids := slices.Clone(spdxlicenses.GetLicenses())
	slices.Sort(ids)
	return ids
}
