package breaking

import (
	"bytes"
	"slices"

	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
)

// registryFields are added by a registry or a build, not by the author, or
// (version) differ between any two releases: they never make a change.
var registryFields = []string{"version", "signing", "integrity", "publishedAt", "tarballUrl", "signatureUrl", "deprecated", "deprecationReason", "yanked", "yankedReason", "supersededBy", "advisoryUrl"}

// unsignedEntries are written by signing, over the rest.
var unsignedEntries = []string{pack.SignatureEntry, "pack.json.sigstore"}

// contentsDiffer compares what a signature covers: the bundled files'
// bytes (not the gzip stream), with pack.json compared as canonical JSON
// without registry-added fields, so a source directory and its built
// archive are the same release. It names the first file that differs.
func contentsDiffer(a, b *pack.Pack) (bool, string, error) {
	fa, err := fingerprint(a)
	if err != nil {
		return false, "", err
	}
	fb, err := fingerprint(b)
	if err != nil {
		return false, "", err
	}
	names := append(sortedKeys(fa), sortedKeys(fb)...)
	slices.Sort(names)
	for _, n := range slices.Compact(names) {
		x, inA := fa[n]
		y, inB := fb[n]
		if inA != inB || !bytes.Equal(x, y) {
			return true, n, nil
		}
	}
	return false, "", nil
}

// fingerprint maps each bundled file to the bytes that count.
func fingerprint(pk *pack.Pack) (map[string][]byte, error) {
	src, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return nil, err
	}
	doc, err := jsonpos.Parse(src)
	if err != nil {
		return nil, err
	}
	refs := map[string]bool{}
	for _, r := range pack.Refs(doc.Root) {
		refs[r.Path()] = true
	}
	out := map[string][]byte{pack.ManifestName: normalManifest(doc, src)}
	err = pk.Each(func(name string) bool {
		return name != pack.ManifestName && !slices.Contains(unsignedEntries, name) && (pack.InDefaultSet(name) || refs[name])
	}, func(name string, data []byte) error {
		out[name] = data
		return nil
	})
	return out, err
}

func normalManifest(doc *jsonpos.Doc, src []byte) []byte {
	root := *doc.Root
	root.Members = slices.Clone(root.Members)
	for _, f := range registryFields {
		root.Delete(f)
	}
	if b, err := canon.Marshal(&root); err == nil {
		return b
	}
	return src // not canonicalisable: compare as written
}
