package lint

import (
	"fmt"
	"path"
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
			resolved := path.Join(path.Dir(name), file)
			switch {
			case resolved == ".." || strings.HasPrefix(resolved, "../"):
				p.ReportOffset(name, src, m[2], fmt.Sprintf("link %q leads out of the pack: in the archive (and on the registry page) it goes nowhere; link the absolute URL of the file instead", target))
			case !names[resolved] && !isBundledDir(names, resolved):
				p.ReportOffset(name, src, m[2], fmt.Sprintf("link %q: %s is not in the %s; bundle it or link its absolute URL", target, resolved, where(p)))
			}
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
