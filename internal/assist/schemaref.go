package assist

import (
	neturl "net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/tarball"
)

// defineRef answers go-to-definition on a schema's "$ref": the file it
// names (in the pack) and the value its JSON pointer fragment names.
func defineRef(env Env, doc Doc, off int) []Location {
	root := jsonpos.ParseLoose(doc.Text)
	c := jsonpos.Locate(doc.Text, root, off)
	if c.OnName || c.Token == nil || c.Token.Kind != jsonpos.String || c.Parent == nil || c.Parent.Kind != jsonpos.Object || c.Name != "$ref" {
		return nil
	}
	file, frag, ok := refTarget(env, doc, root, c.Token.Str)
	if !ok {
		return nil
	}
	text := doc.Text
	if file != doc.Path {
		raw, ok := env.read(file, tarball.DefaultLimits.MaxEntry)
		if !ok {
			return nil
		}
		text = raw
	}
	return []Location{{Path: file, Span: pointerSpan(text, frag)}}
}

// refLinks lists a schema's $refs that name another file of the pack.
func refLinks(env Env, doc Doc) []Link {
	root := jsonpos.ParseLoose(doc.Text)
	var links []Link
	walkLoose(root, nil, func(p []string, s *jsonpos.Loose) {
		if len(p) == 0 || p[len(p)-1] != "$ref" {
			return
		}
		if file, _, ok := refTarget(env, doc, root, s.Str); ok && file != doc.Path {
			links = append(links, Link{Span: stringBody(doc.Text, s), Target: file})
		}
	})
	return links
}

// refTarget resolves a $ref written in doc to a file of the pack (doc's
// own path for a fragment alone) and the fragment. A relative ref resolves
// against the schema's $id when it has an absolute one, else against the
// file's folder; an absolute URL names the pack file its path ends with
// (pack schema $ids are <base>/<pack>/<version>/<file>).
func refTarget(env Env, doc Doc, root *jsonpos.Loose, ref string) (file, frag string, ok bool) {
	target, frag, _ := strings.Cut(ref, "#")
	if target == "" {
		return doc.Path, frag, true
	}
	packDir := env.PackDir
	if packDir == "" {
		packDir = filepath.Dir(doc.Path)
	}
	if id := root.Get("$id").Text(); id != "" {
		if base, err := neturl.Parse(id); err == nil && base.IsAbs() {
			if u, err := base.Parse(target); err == nil {
				target = u.String()
			}
		}
	}
	if u, err := neturl.Parse(target); err == nil && u.IsAbs() {
		if p, ok := urlFile(env, packDir, u); ok {
			return p, frag, true
		}
		return "", "", false
	}
	rel, err := filepath.Rel(packDir, filepath.Dir(doc.Path))
	if err != nil {
		return "", "", false
	}
	p, ok := PackFile(packDir, path.Join(filepath.ToSlash(rel), target))
	return p, frag, ok
}

// urlFile finds the file an absolute schema URL names: the file of this
// pack its path ends with, or else the file of a catalog pack named in it
// (<pack>/<version>/<file>).
func urlFile(env Env, packDir string, u *neturl.URL) (string, bool) {
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := range segs {
		if p, ok := PackFile(packDir, strings.Join(segs[i:], "/")); ok {
			return p, true
		}
	}
	if env.Catalog == nil {
		return "", false
	}
	for i := 0; i+2 < len(segs); i++ {
		if dir, ok := env.Catalog.PackDir(segs[i]); ok {
			if p, ok := PackFile(dir, strings.Join(segs[i+2:], "/")); ok {
				abs, err := filepath.Abs(p) // a catalog opened by a relative path keeps it
				return abs, err == nil
			}
		}
	}
	return "", false
}

// pointerSpan is the span of the value a JSON pointer names in text (the
// start of the document when it names nothing there).
func pointerSpan(text []byte, frag string) Span {
	if u, err := neturl.PathUnescape(frag); err == nil {
		frag = u
	}
	v := jsonpos.ParseLoose(text)
	if v == nil || frag == "" || frag[0] != '/' {
		return Span{}
	}
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v.Kind {
		case jsonpos.Object:
			v = v.Get(tok)
		case jsonpos.Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.Items) {
				return Span{}
			}
			v = v.Items[i]
		default:
			v = nil
		}
		if v == nil {
			return Span{}
		}
	}
	return Span{v.Start, v.End}
}
