package lint

import (
	"regexp"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// spdxIDs are the SPDX license identifiers packs use in practice, space
// separated; an id outside this list is a warning, never an error, since the
// full list is long and grows.
const spdxIDs = ` 0BSD AFL-3.0 AGPL-3.0 AGPL-3.0-only AGPL-3.0-or-later Apache-1.1 Apache-2.0
		Artistic-2.0 BlueOak-1.0.0 BSD-1-Clause BSD-2-Clause BSD-2-Clause-Patent BSD-3-Clause BSD-3-Clause-Clear
		BSD-4-Clause BSL-1.0 CAL-1.0 CC-BY-3.0 CC-BY-4.0 CC-BY-SA-4.0 CC-BY-NC-4.0 CC-BY-NC-SA-4.0 CC-BY-ND-4.0 CC0-1.0
		CDDL-1.0 CDDL-1.1 CECILL-2.1 ECL-2.0 EFL-2.0 EPL-1.0 EPL-2.0 EUPL-1.1 EUPL-1.2 GPL-2.0 GPL-2.0-only
		GPL-2.0-or-later GPL-3.0 GPL-3.0-only GPL-3.0-or-later ISC LGPL-2.1 LGPL-2.1-only LGPL-2.1-or-later
		LGPL-3.0 LGPL-3.0-only LGPL-3.0-or-later LPPL-1.3c MIT MIT-0 MPL-1.1 MPL-2.0 MS-PL MS-RL MulanPSL-2.0
		NCSA ODbL-1.0 OFL-1.1 OSL-3.0 PostgreSQL PSF-2.0 Python-2.0 Unlicense UPL-1.0 Vim W3C WTFPL X11 Zlib ZPL-2.1
		Classpath-exception-2.0 LLVM-exception `

func knownSPDX(id string) bool { return slices.Contains(strings.Fields(spdxIDs), id) }

var spdxToken = regexp.MustCompile(`\(|\)|[A-Za-z0-9.+:-]+`)

// isSPDX reports whether s is an SPDX expression over known ids
// (AND, OR, WITH, parentheses, LicenseRef-/DocumentRef- references).
func isSPDX(s string) bool {
	toks := spdxToken.FindAllString(s, -1)
	if len(toks) == 0 || strings.Join(toks, "") != strings.Join(strings.Fields(s), "") {
		return false
	}
	for _, t := range toks {
		switch {
		case t == "(" || t == ")" || t == "AND" || t == "OR" || t == "WITH":
		case strings.HasPrefix(t, "LicenseRef-") || strings.HasPrefix(t, "DocumentRef-"):
		case knownSPDX(strings.TrimSuffix(t, "+")):
		default:
			return false
		}
	}
	return true
}

func checkLicense(p *Pass) {
	v := p.Root().Get("license")
	if v != nil && v.Kind == jsonpos.String && !isSPDX(v.Str) {
		p.Reportf("/license", "license %q is not an SPDX identifier or expression; write e.g. \"Apache-2.0\", \"MIT\" or \"LicenseRef-Proprietary\"", v.Str)
	}
}
