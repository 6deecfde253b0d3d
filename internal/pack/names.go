package pack

import (
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/regex"
)

// NameRE is the pack-name pattern: a reserved scope and dot-separated
// segments (node-packs.md §Naming), local.* included. It is what makes a
// name safe to become a file name: no slash, no dot segment.
var NameRE = regex.Lazy(`^(core|vendor|community|private|local)\.[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`)

// CheckNameVersion refuses a manifest name or version that cannot safely
// become part of an output path (<name>-<version>.tgz, packs/<name>/-/
// <version>.tgz): the pack-name pattern and strict SemVer. Lint reports the
// same mistakes as findings; this is the guard for the paths that skip lint
// (build --no-lint, sign ARCHIVE, publish of a .tgz).
func CheckNameVersion(name, version string) error {
	if !NameRE().MatchString(name) {
		return fmt.Errorf("pack.json: name %q is not a pack name (<scope>.<org>.<name>, e.g. community.acme.tools); refusing to use it in a file name", name)
	}
	if _, err := semver.StrictNewVersion(version); err != nil || strings.ContainsAny(version, `/\`) {
		return fmt.Errorf("pack.json: version %q is not a strict SemVer version (e.g. 1.2.0); refusing to use it in a file name", version)
	}
	return nil
}

// CheckSegment refuses a user-given id that becomes one path segment (a
// key id in <id>.pem): one non-empty segment of printable ASCII, without
// slashes, backslashes, colons or a leading dot.
func CheckSegment(what, s string) error {
	bad := s == "" || strings.HasPrefix(s, ".") || strings.ContainsAny(s, `/\:`)
	for _, r := range s {
		bad = bad || r <= ' ' || r > '~'
	}
	if bad {
		return fmt.Errorf("%s %q must be one file name: printable ASCII, no '/', '\\', ':' or leading '.'", what, s)
	}
	return nil
}
