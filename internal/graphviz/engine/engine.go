// Package engine is the wop-graphviz helper's side of internal/graphviz:
// it runs Graphviz (go-graphviz) over one request. Only the helper and
// tests import it, because importing it compiles Graphviz's WebAssembly
// module at start-up.
package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	gv "github.com/goccy/go-graphviz"
	"github.com/wop-cli/wop/internal/graphviz"
	"github.com/wop-cli/wop/internal/helperbin"
)

// maxRequest bounds what the helper reads: wop sends a few kilobytes per
// chain.
const maxRequest = 16 << 20

// Serve reads one request from r and answers it.
func Serve(ctx context.Context, r io.Reader) graphviz.Response {
	resp := graphviz.Response{Protocol: graphviz.Protocol}
	raw, err := io.ReadAll(io.LimitReader(r, maxRequest+1))
	if err == nil && len(raw) > maxRequest {
		err = fmt.Errorf("request over %d bytes", maxRequest)
	}
	var req graphviz.Request
	if err == nil {
		err = json.Unmarshal(raw, &req)
	}
	if err == nil && req.Protocol != graphviz.Protocol {
		err = fmt.Errorf("request speaks protocol %d, this helper %d: install the helper that came with this wop", req.Protocol, graphviz.Protocol)
	}
	for _, g := range req.Graphs {
		if err != nil {
			break
		}
		var svg []byte
		svg, err = Render(ctx, g.Layout, []byte(g.DOT))
		resp.SVGs = append(resp.SVGs, string(svg))
	}
	if err != nil {
		resp.Error = err.Error()
	}
	return resp
}

// Render lays out dot with layout ("dot" or "nop") as SVG.
func Render(ctx context.Context, layout graphviz.Layout, dot []byte) ([]byte, error) {
	var l gv.Layout
	switch layout {
	case graphviz.Dot:
		l = gv.DOT
	case graphviz.Pinned:
		l = gv.NOP
	default:
		return nil, fmt.Errorf("unknown layout %q (want dot or nop)", layout)
	}
	g, err := gv.ParseBytes(dot)
	if err != nil {
		return nil, fmt.Errorf("DOT: %w", err)
	}
	defer g.Close()
	r, err := gv.New(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var buf bytes.Buffer
	if err := r.SetLayout(l).Render(ctx, g, gv.SVG, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Main is the helper's main (helperbin.Main): --version, or serve one
// request and exit 1 when it failed.
func Main(version string) {
	helperbin.Main(graphviz.Name, version, Serve, func(r graphviz.Response) bool { return r.Error != "" })
}
