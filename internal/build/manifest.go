package build

import (
	"fmt"
	"slices"

	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// VersionManifest is the <version>.json a registry serves for a version: the
// signed manifest with its members in source order and the archive's
// integrity appended, 2-space indented with a final newline. These are the
// bytes the registry's own index builder writes (it parses the manifest,
// sets integrity from the archive's SHA-256 and re-serialises it with
// JSON.stringify(m, null, 2)), so build, --stage and publish agree with it.
func VersionManifest(served []byte, integrity string) ([]byte, error) {
	doc, err := canon.Parse(served)
	if err != nil {
		return nil, fmt.Errorf("version manifest: %w", err)
	}
	return versionManifest(doc.Root, integrity)
}

// versionManifest is VersionManifest from the parsed served manifest, which
// it leaves as it was.
func versionManifest(served *jsonpos.Value, integrity string) ([]byte, error) {
	v := *served
	v.Members = slices.Clone(served.Members)
	v.Set("integrity", &jsonpos.Value{Kind: jsonpos.String, Str: integrity})
	return canon.Indent(&v)
}
