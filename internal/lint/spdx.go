package lint

import (
	"github.com/github/go-spdx/v2/spdxexp"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// isSPDX reports whether s is an SPDX license expression over ids of the
// SPDX license list (go-spdx carries the list and follows its releases, so
// no table is kept here). As the SPDX spec says, ids match case-insensitively
// ("mit") while the operators AND, OR and WITH are upper case;
// deprecated ids ("GPL-2.0") and LicenseRef-/DocumentRef- references pass.
func isSPDX(s string) bool {
	ok, _ := spdxexp.ValidateLicenses([]string{s})
	return ok
}

func checkLicense(p *Pass) {
	v := p.Root().Get("license")
	if v != nil && v.Kind == jsonpos.String && !isSPDX(v.Str) {
		p.Reportf("/license", "license %q is not an SPDX identifier or expression; write e.g. \"Apache-2.0\", \"MIT\" or \"LicenseRef-Proprietary\"", v.Str)
	}
}
