package lint

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
)

// bundled returns the files a build would put in the archive: for a source
// directory the reference builder's set plus every existing ref target; for
// an archive, what is in it.
func bundled(p *Pass) []pack.File {
	if p.Pack.Archive != nil {
		return p.Pack.Files
	}
	if p.bundleSet {
		return p.bundle
	}
	refd := map[string]bool{}
	for _, r := range p.Refs() {
		refd[r.Path()] = true
	}
	for _, f := range p.Pack.Files {
		if pack.InDefaultSet(f.Name) || refd[f.Name] {
			p.bundle = append(p.bundle, f)
		}
	}
	p.bundleSet = true
	return p.bundle
}

// jsonFiles lists the bundled JSON documents: pack.json first, then every
// bundled .json file and every JSON ref target.
func jsonFiles(p *Pass) []string {
	if p.jsonNames != nil {
		return p.jsonNames
	}
	names := []string{pack.ManifestName}
	for _, f := range bundled(p) {
		if strings.HasSuffix(f.Name, ".json") && f.Name != pack.ManifestName && f.Mode.IsRegular() {
			names = append(names, f.Name)
		}
	}
	for _, r := range p.Refs() {
		if r.Kind.IsJSON() && !slices.Contains(names, r.Target) {
			if f, ok := p.Pack.Lookup(r.Target); ok && f.Mode.IsRegular() {
				names = append(names, r.Target)
			}
		}
	}
	if p.Root() != nil { // the ref targets are only known once the manifest parsed
		p.jsonNames = names
	}
	return names
}

func checkJSONInvalid(p *Pass) {
	for _, name := range jsonFiles(p) {
		_, src, err := p.JSON(name)
		if pe, ok := parseError(err); ok && pe.Kind != jsonpos.ErrEncoding {
			p.ReportOffset(name, src, pe.Offset, InvalidJSON(pe.Msg))
		}
	}
}

// InvalidJSON is json-invalid's message for a parser's complaint msg (a
// jsonpos.Error's Msg): the chain panel, which cannot draw such a file,
// says the same as lint.
func InvalidJSON(msg string) string {
	return "invalid JSON: " + msg + "; pack files must be strict RFC 8259 JSON (no comments, trailing commas or NaN)"
}

func checkEncoding(p *Pass) {
	for _, name := range jsonFiles(p) {
		_, src, err := p.JSON(name)
		if pe, ok := parseError(err); ok && pe.Kind == jsonpos.ErrEncoding {
			p.ReportOffset(name, src, pe.Offset, pe.Msg)
		}
	}
	eachBundled(p, func(n string) bool { return isText(n) && !strings.HasSuffix(n, ".json") }, func(name string, src []byte) {
		if pe, ok := parseError(jsonpos.CheckEncoding(src)); ok {
			p.ReportOffset(name, src, pe.Offset, pe.Msg)
		}
	})
}

// eachBundled calls fn with the contents of each bundled regular file want
// accepts, which fn must not keep. A directory's files are lent by the pass
// (see lend); an archive's are in memory since its load.
func eachBundled(p *Pass, want func(name string) bool, fn func(name string, data []byte)) {
	if p.Pack.Archive == nil {
		for _, f := range bundled(p) {
			if f.Mode.IsRegular() && want(f.Name) {
				_ = p.lend(f.Name, func(data []byte) { fn(f.Name, data) })
			}
		}
		return
	}
	_ = p.Pack.Each(want, func(name string, data []byte) error {
		fn(name, data)
		return nil
	})
}

func isText(name string) bool {
	switch path.Ext(name) {
	case ".md", ".txt", ".json":
		return true
	}
	return false
}

func checkDuplicateKeys(p *Pass) {
	for _, name := range jsonFiles(p) {
		doc, _, err := p.JSON(name)
		if err != nil {
			continue
		}
		for _, d := range doc.Duplicates {
			p.ReportPos(name, d.Pointer+"/"+jsonpos.EscapeToken(d.Name), doc.Position(d.At),
				fmt.Sprintf("member %q appears twice in one object; JSON readers silently keep one copy, so delete the other", d.Name))
		}
	}
}

var dangerousKeys = map[string]bool{"__proto__": true, "constructor": true, "prototype": true}

func checkDangerousKeys(p *Pass) {
	for _, name := range jsonFiles(p) {
		doc, _, err := p.JSON(name)
		if err != nil {
			continue
		}
		walkObjects(doc.Root, "", func(ptr string, m jsonpos.Member) {
			if dangerousKeys[m.Name] {
				p.ReportAt(name, doc, ptr+"/"+jsonpos.EscapeToken(m.Name), true,
					fmt.Sprintf("member name %q can pollute object prototypes in JavaScript hosts; rename it", m.Name))
			}
		})
	}
}

// walkObjects calls fn for every member of every object below v.
func walkObjects(v *jsonpos.Value, ptr string, fn func(ptr string, m jsonpos.Member)) {
	// A child's pointer is built only for a child that holds members: most
	// values are scalars, and building their pointers was most of the walk.
	switch v.Kind {
	case jsonpos.Object:
		for _, m := range v.Members {
			fn(ptr, m)
			if container(m.Value) {
				walkObjects(m.Value, ptr+"/"+jsonpos.EscapeToken(m.Name), fn)
			}
		}
	case jsonpos.Array:
		for i, it := range v.Items {
			if container(it) {
				walkObjects(it, ptr+"/"+strconv.Itoa(i), fn)
			}
		}
	}
}

// container reports whether v is an object or array (which may hold members).
func container(v *jsonpos.Value) bool { return v.Kind == jsonpos.Object || v.Kind == jsonpos.Array }

func checkManifestTooLarge(p *Pass) {
	if f, ok := p.Pack.Lookup(pack.ManifestName); ok && f.Size > p.Pack.Limits().MaxManifest {
		p.ReportFilef(pack.ManifestName, "pack.json is %d bytes; registries refuse manifests over %d bytes: move prompt bodies into prompts/*.md with systemPromptRef", f.Size, p.Pack.Limits().MaxManifest)
	}
}

func checkFileTooLarge(p *Pass) {
	for _, f := range bundled(p) {
		if f.Name != pack.ManifestName && f.Size > p.Pack.Limits().MaxEntry {
			p.ReportFilef(f.Name, "%d bytes; registries refuse archive entries over %d bytes", f.Size, p.Pack.Limits().MaxEntry)
		}
	}
}

func checkPackTooLarge(p *Pass) {
	var total int64
	for _, f := range bundled(p) {
		total += f.Size
	}
	if total > p.Pack.Limits().MaxTotal {
		p.ReportFilef(pack.ManifestName, "the bundled files add up to %d bytes; registries refuse packs over %d bytes unpacked", total, p.Pack.Limits().MaxTotal)
	}
}

func checkSymlinks(p *Pass) {
	for _, f := range bundled(p) {
		if !f.Mode.IsRegular() && !f.Mode.IsDir() {
			fix := "replace it with the file it points to"
			if f.Mode&fs.ModeSymlink == 0 {
				fix = "delete it, or move it out of the pack"
			}
			p.ReportFilef(f.Name, "%s would be bundled; archives may hold regular files only: %s", fileKind(f), fix)
		}
	}
}

func fileKind(f pack.File) string {
	switch {
	case f.Mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case f.Mode&fs.ModeDevice != 0:
		return "a device"
	case f.Mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	}
	return "a special file"
}

func checkPathTooLong(p *Pass) {
	for _, f := range bundled(p) {
		if len(f.Name) > 100 {
			p.ReportFilef(f.Name, "archive path is %d bytes; USTAR names hold at most 100: shorten it", len(f.Name))
		}
	}
}

func checkPathUnsafe(p *Pass) {
	seen := map[string]string{}
	for _, f := range bundled(p) {
		if c := unsafeChar(f.Name); c != "" {
			p.ReportFilef(f.Name, "path contains %s; use printable ASCII without \\ or :", c)
		}
		lower := strings.ToLower(f.Name)
		if other, ok := seen[lower]; ok {
			p.ReportFilef(f.Name, "path differs from %q only in case; they collide on macOS and Windows", other)
		}
		seen[lower] = f.Name
	}
}

func unsafeChar(name string) string {
	for _, r := range name {
		switch {
		case r == '\\':
			return `a backslash`
		case r == ':':
			return "a colon"
		case r < 0x20 || r == 0x7f:
			return "a control character"
		case r > 0x7e:
			return fmt.Sprintf("the non-ASCII character %q", r)
		}
	}
	return ""
}

func checkPrivateKey(p *Pass) {
	for _, f := range bundled(p) {
		if kind := pack.SecretKind(f.Name, nil); kind != "" {
			p.ReportFilef(f.Name, "%s would be bundled; remove it from the pack (build and publish refuse it, --no-lint or not)", kind)
		}
	}
	eachBundled(p, func(name string) bool { return pack.SecretKind(name, nil) == "" }, func(name string, src []byte) {
		if pack.SecretKind(name, src) != "" {
			p.ReportFilef(name, "a private key would be published in the archive; delete it, keep keys outside the pack and rotate this one")
		}
	})
}

func checkStraySignature(p *Pass) {
	if p.Pack.Archive != nil {
		return // an archive is supposed to carry its signature
	}
	for _, name := range []string{"keys/pack.json.sig", "pack.json.sigstore"} {
		f, ok := p.Pack.Lookup(name)
		if !ok {
			continue
		}
		msg := "the build writes a fresh signature here; delete this file from the source"
		if name == "keys/pack.json.sig" && f.Size != 64 {
			msg = fmt.Sprintf("%d bytes, not a 64-byte Ed25519 signature: it is corrupt or stale (a base64 text?); %s", f.Size, msg)
		}
		p.ReportFilef(name, "%s", msg)
	}
}
