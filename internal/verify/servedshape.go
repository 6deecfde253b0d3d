package verify

import (
	"fmt"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
)

// v2VersionManifest is the schema a v2 registry's served <version>.json
// follows (spec/v2 registry-version-manifest.schema.json).
const v2VersionManifest = spec.Base + "registry-version-manifest.schema.json"

// checkServedShape checks a served version manifest of a v2 pack against
// the v2 registry-version-manifest schema: a v2 registry that serves a v1
// signing block, a v1 tarball path or a range without a ceiling serves
// something no v2 client can rely on, even when the signed fields match.
// v1 has no such schema, so v1 manifests pass.
func checkServedShape(served *jsonpos.Value) error {
	if spec.TreeOf(served) != spec.V2 {
		return nil
	}
	set, err := schema.Default()
	if err != nil {
		return err
	}
	problems, err := set.Validate(v2VersionManifest, served.Interface())
	if err != nil || len(problems) == 0 {
		return err
	}
	msgs := make([]string, len(problems))
	for i, p := range problems {
		at := p.Pointer
		if at == "" {
			at = "(root)"
		}
		msgs[i] = at + ": " + p.Message
	}
	err = fmt.Errorf("the served version manifest does not follow the v2 registry-version-manifest schema: %s", strings.Join(msgs, "; "))
	if served.Get("integrity") == nil {
		return fmt.Errorf("%w; %s", err, notIndexed)
	}
	return err
}

// notIndexed explains a <version>.json without integrity: the field is the
// registry's, written when it indexes the version (its build:index
// generator, which publish --stage runs in the checkout), so a manifest
// from before that (a build's, the official CLI's .manifest.json) has none.
const notIndexed = "it has no integrity, which the registry adds when it indexes the version (its build:index step): " +
	"verify the .tgz alone, or this <version>.json once the registry has indexed it"
