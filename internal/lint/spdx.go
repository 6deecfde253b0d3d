package lint

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/github/go-spdx/v2/spdxexp"
	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/suggest"
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
	if v == nil || v.Kind != jsonpos.String || isSPDX(v.Str) {
		return
	}
	if fix, sure, ok := spdxSuggestion(v.Str); ok {
		p.Suggest(pack.ManifestName, p.Manifest, "/license", false, fmt.Sprintf("license %q is not an SPDX identifier or expression; did you mean %q?", v.Str, fix), fix, sure)
		return
	}
	p.Reportf("/license", "license %q is not an SPDX identifier or expression; write e.g. \"Apache-2.0\", \"MIT\" or \"LicenseRef-Proprietary\"", v.Str)
}

// maxLicenseGuess bounds the license values a suggestion is sought for:
// real ones are short, and a hostile manifest's should cost nothing.
const maxLicenseGuess = 200

// spdxSuggestion is the SPDX expression s was most likely meant to be: the
// whole of s read as one id ("Apache 2.0", "Apache2", "GPLv3"), or else s
// with each word that is no id replaced by the id it resembles ("MIT OR
// Apache2"). It gives nothing unless the result is a valid expression.
//
// sure says --fix may write it unasked: s is one id respelt (its letters
// and digits are exactly the id's), and not a GNU id, whose "-only" or
// "-or-later" a respelling ("GPLv3") leaves open. A license is a grant the
// author makes; any other guess is offered in the editor, never applied.
func spdxSuggestion(s string) (fix string, sure, ok bool) {
	if len(s) > maxLicenseGuess {
		return "", false, false
	}
	if id, exact, ok := nearestSPDX(s); ok {
		return id, exact && !strings.HasSuffix(id, "-only") && !strings.HasSuffix(id, "-or-later"), true
	}
	words := strings.Fields(s)
	changed := false
	for i, w := range words {
		if isSPDX(w) || w == "AND" || w == "OR" || w == "WITH" {
			continue
		}
		switch up := strings.ToUpper(w); {
		case up == "AND" || up == "OR" || up == "WITH":
			words[i], changed = up, true // operators are upper case
		default:
			id, _, ok := nearestSPDX(w)
			if !ok {
				return "", false, false
			}
			words[i], changed = id, true
		}
	}
	fixed := strings.Join(words, " ")
	return fixed, false, changed && isSPDX(fixed)
}

// nearestSPDX is the active SPDX id whose spelling, reduced to its letters
// and digits (a ".0" version and the "-only" of GNU ids dropped, as people
// write "GPL3"), is at most one edit from word's reduced the same way;
// exact when it is no edit away.
func nearestSPDX(word string) (id string, exact, ok bool) {
	key := spdxKey(word)
	if len(key) < 3 {
		return "", false, false
	}
	byKey := spdxKeys()
	if id, ok := byKey.ids[key]; ok {
		return id, true, true
	}
	if len(key) < 5 { // one edit makes a short key another id ("mpl2" from "mit2")
		return "", false, false
	}
	near, ok := suggest.Nearest(key, byKey.keys, 1)
	if !ok {
		return "", false, false
	}
	return byKey.ids[near], false, true
}

var (
	spdxDotZero = regexp.MustCompile(`\.0(\D|$)`)
	spdxNoise   = regexp.MustCompile(`licen[cs]e|version|v(\d)|[^a-z0-9]`)
)

// spdxKey reduces an id or a free spelling of one to lower-case letters and
// digits without what people leave out or add ("Apache License, Version
// 2.0", "Apache2" and "Apache-2.0" all give "apache2"; "GPLv3" and
// "GPL-3.0-only" give "gpl3").
func spdxKey(s string) string {
	s = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-only", "")
	s = spdxDotZero.ReplaceAllString(s, "$1")
	return spdxNoise.ReplaceAllString(s, "$1")
}

// spdxKeyTable maps each active id's key to the id (the first in list
// order when two share one), with the keys in a slice for suggest.
type spdxKeyTable struct {
	ids  map[string]string
	keys []string
}

var spdxKeys = sync.OnceValue(func() spdxKeyTable {
	t := spdxKeyTable{ids: map[string]string{}}
	for _, id := range spdxlicenses.GetLicenses() {
		k := spdxKey(id)
		if _, dup := t.ids[k]; !dup {
			t.ids[k] = id
			t.keys = append(t.keys, k)
		}
	}
	return t
})
