package lint

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/internal/regex"
)

// mdLink matches an inline markdown link or image target: [text](target).
var mdLink = regex.Lazy(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// linkScheme matches targets that leave the archive on purpose.
var linkScheme = regex.Lazy(`^([a-zA-Z][a-zA-Z0-9+.-]*:|//|#)`)

func checkReadmeLinks(p *Pass) {
	names := map[string]bool{}
	for _, f := range bundled(p) {
		names[f.Name] = true
	}
	eachReadmeLink(p, func(name string, src []byte, at int, target, resolved string) {
		switch {
		case resolved == ".." || strings.HasPrefix(resolved, "../"):
			if _, ok := siblingFolder(p, resolved); ok {
				return // readme-link-sibling's
			}
			if folder := firstFolder(resolved); p.Place.Beside != nil && !p.Place.Beside.Has(folder) && folder != ".." {
				p.ReportOffset(name, src, at, fmt.Sprintf("link %q leads out of the pack to %s, which this checkout does not hold beside it: it goes nowhere here, in the archive or on the registry page; link the absolute URL of what it meant", target, folder))
				return
			}
			p.ReportOffset(name, src, at, fmt.Sprintf("link %q leads out of the pack: in the archive (and on the registry page) it goes nowhere; link the absolute URL of the file instead", target))
		case !names[resolved] && !isBundledDir(names, resolved):
			p.ReportOffset(name, src, at, fmt.Sprintf("link %q: %s is not in the %s; bundle it or link its absolute URL", target, resolved, where(p)))
		}
	})
}

// checkReadmeLinkSibling reports a link from a bundled markdown file to a
// folder beside the pack that exists there (a sibling pack of a registry
// checkout). The registry's maintainers keep such links relative on
// purpose ("self-repo links left relative", when they repaired the others):
// they work where the repository is browsed, and only there. So this is
// information, and the registry profile leaves it so: what it raises to an
// error is a pack broken for its users, and a link that works in the
// repository, where the README is read, is not that.
func checkReadmeLinkSibling(p *Pass) {
	eachReadmeLink(p, func(name string, src []byte, at int, target, resolved string) {
		if folder, ok := siblingFolder(p, resolved); ok {
			p.ReportOffset(name, src, at, fmt.Sprintf("link %q leads to %s, a folder beside this pack: it works in the repository's web view, not inside the pack's archive or on its registry page, which hold this pack alone; link %s's absolute URL if readers there need it", target, folder, folder))
		}
	})
}

// siblingFolder is the folder beside the pack a pack-relative path leads
// into ("../vendor.acme.x/README.md" leads into vendor.acme.x), when the
// pack sits among others and that folder exists.
func siblingFolder(p *Pass, resolved string) (string, bool) {
	if !strings.HasPrefix(resolved, "../") {
		return "", false
	}
	folder := firstFolder(resolved)
	// A path back into the pack itself ("../<its folder>/x") is no sibling.
	if folder == "" || folder == ".." || folder == path.Base(filepath.ToSlash(p.Place.Abs)) || !p.Place.Beside.Has(folder) {
		return "", false
	}
	return folder, true
}

// firstFolder is the first folder a path climbing out of the pack names
// ("../x/y" names x), ".." when it climbs further.
func firstFolder(resolved string) string {
	rest, _ := strings.CutPrefix(resolved, "../")
	folder, _, _ := strings.Cut(rest, "/")
	return folder
}

// eachReadmeLink calls fn with each relative link of the bundled markdown
// files (prompts aside): the file, its contents, the link's offset, the
// link as written and the pack-relative path it resolves to.
func eachReadmeLink(p *Pass, fn func(name string, src []byte, at int, target, resolved string)) {
	eachBundled(p, func(n string) bool {
		return strings.HasSuffix(strings.ToLower(n), ".md") && !strings.HasPrefix(n, "prompts/")
	}, func(name string, src []byte) {
		for _, m := range mdLink().FindAllSubmatchIndex(src, -1) {
			target := string(src[m[2]:m[3]])
			if linkScheme().MatchString(target) {
				continue
			}
			file, _, _ := strings.Cut(target, "#")
			file, _, _ = strings.Cut(file, "?")
			fn(name, src, m[2], target, path.Join(path.Dir(name), file))
		}
	})
}

func isBundledDir(names map[string]bool, dir string) bool {
	if dir == "." {
		return true
	}
	for n := range names {
		if strings.HasPrefix(n, dir+"/") {
			return true
		}
	}
	return false
}
