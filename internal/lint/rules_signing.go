package lint

import (
	"path"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
)

func checkSigningInSource(p *Pass) {
	if p.Pack.Archive == nil && p.Root().Get("signing") != nil {
		p.ReportNamef("/signing", "a hand-written signing block goes stale (and may name a key nobody holds); delete it: wop pack build --key writes the right one")
	}
}

func checkSigningLegacy(p *Pass) {
	s := p.Root().Get("signing")
	if s == nil || s.Get("scheme") != nil {
		return
	}
	for _, f := range []string{"keyId", "publicKeyUrl"} {
		if s.Get(f) != nil {
			p.ReportNamef("/signing/"+f, "signing.%s is a legacy field (archives signed over the tarball); v1 manifests use {\"method\":\"manual\",\"publicKeyRef\":ID,\"signatureRef\":\"keys/pack.json.sig\"}", f)
		}
	}
	if s.Get("method").String() == "ed25519" {
		p.Reportf("/signing/method", "signing.method \"ed25519\" is the legacy tarball signature no host verifies; rebuild with wop pack build --key (method \"manual\")")
	}
}

func checkUnsignedPublic(p *Pass) {
	if p.Pack.Archive == nil || strings.HasPrefix(packName(p), "private.") {
		return
	}
	if p.Root().Get("signing") == nil {
		p.ReportNamef("", "this archive is unsigned; registries refuse unsigned packs outside private.*: build it with --key")
		return
	}
}

// signingFileRefs are the signing members that may name archive entries.
var signingFileRefs = []string{"signatureRef", "publicKeyRef", "bundleRef"}

// isFileRef tells a file path from a key id: v1 publicKeyRef names a key
// in the registry's keychain, older blocks a keys/*.pem file.
func isFileRef(field, v string) bool {
	if schemeRE().MatchString(v) {
		return false
	}
	return field != "publicKeyRef" || strings.Contains(v, "/") || path.Ext(v) == ".pem" || path.Ext(v) == ".pub"
}

func checkSigningRefsMissing(p *Pass) {
	s := p.Root().Get("signing")
	if p.Pack.Archive == nil || s == nil {
		return
	}
	for _, f := range signingFileRefs {
		ref := s.Get(f)
		if ref == nil || ref.Kind != jsonpos.String || !isFileRef(f, ref.Str) {
			continue
		}
		if t, _ := resolve(p, ref.Str); t != targetFile {
			p.Reportf("/signing/"+f, "signing.%s names %q, which is not in the archive: hosts cannot verify the signature; rebuild with wop pack build --key", f, ref.Str)
		}
	}
	// A v2 block {keyId, scheme} names no file: its detached signature is
	// always at keys/pack.json.sig (FORMAT.md §3, the official CLI's build).
	if s.Get("scheme") != nil && s.Get("signatureRef") == nil {
		if t, _ := resolve(p, pack.SignatureEntry); t != targetFile {
			p.ReportNamef("/signing", "a v2 signing block (keyId, scheme) is verified against the detached signature %s, which is not in the archive: hosts refuse the pack (pack_signature_invalid); rebuild with wop pack build --key", pack.SignatureEntry)
		}
	}
}
