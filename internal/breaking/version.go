package breaking

import (
	"fmt"

	"github.com/Masterminds/semver/v3"
)

// Made is the increment from old to new as caret ranges see it: in 0.y.z a
// minor step (and in 0.0.z a patch step) is what a major step is later,
// because ^0.2.3 stops before 0.3.0. It is None when new is not above old or
// either is not SemVer.
func Made(oldV, newV string) Bump {
	o, err1 := semver.StrictNewVersion(oldV)
	n, err2 := semver.StrictNewVersion(newV)
	if err1 != nil || err2 != nil || !n.GreaterThan(o) {
		return None
	}
	switch {
	case n.Major() != o.Major():
		return Major
	case o.Major() == 0 && n.Minor() != o.Minor():
		return Major
	case o.Major() == 0 && o.Minor() == 0 && n.Patch() != o.Patch():
		return Major
	case o.Major() == 0 && n.Patch() != o.Patch():
		return Minor // ^0.2.3 takes 0.2.4: the compatible step carries features too
	case n.Minor() != o.Minor():
		return Minor
	}
	return Patch
}

// Next is the smallest version above v that makes bump b (caret semantics
// for 0.x). A prerelease v is released as itself for a patch.
func Next(v string, b Bump) (string, error) {
	sv, err := semver.StrictNewVersion(v)
	if err != nil {
		return "", fmt.Errorf("version %q: %w", v, err)
	}
	if sv.Major() == 0 && b > Patch {
		b-- // ^0.y.z: minor is the breaking step, patch the compatible one
		if sv.Minor() == 0 {
			b = Patch
		}
	}
	var next semver.Version
	switch b {
	case Major:
		next = sv.IncMajor()
	case Minor:
		next = sv.IncMinor()
	default:
		next = sv.IncPatch()
	}
	return next.String(), nil
}

// verdict adds version-bump-insufficient when the version makes a smaller
// step than the changes need, and returns the step it makes.
func (c *comparison) verdict(needed Bump) Bump {
	made := Made(c.old.version, c.new.version)
	if made == None {
		c.add(RuleBumpInsufficient, "/version", "/version", "version %s is not above the previous release %s", c.new.version, c.old.version)
		return made
	}
	if made >= needed {
		return made
	}
	want, err := Next(c.old.version, needed)
	if err != nil {
		return made
	}
	c.add(RuleBumpInsufficient, "/version", "/version", "the changes need a %s bump but %s -> %s is a %s: release %s (or accept the findings in .wop.yaml)", needed, c.old.version, c.new.version, made, want)
	return made
}
