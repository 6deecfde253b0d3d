package lsp

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/chaindraw"
	"github.com/wop-cli/wop/internal/graphrun"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"go.lsp.dev/protocol"
)

// This file answers code lenses on pack.json's chains and runs their
// command: the chain's drawing (internal/graphrun, the analysis lint
// reports from, on the unsaved buffer) written as an SVG file and opened
// with window/showDocument, or returned as text to a client that shows it
// itself (the VS Code extension's panel, which redraws as the buffer
// changes).

// showChainCommand is the command a chain's lens runs; its arguments are
// the manifest's URI and the chain's pointer ("/chains/0").
const showChainCommand = "wop.showChainGraph"

// chainSVGCommand takes showChainCommand's arguments and answers the
// drawing itself (chainSVG) rather than a file: the editor's own view asks
// for it again on each edit, and nothing is written.
const chainSVGCommand = "wop.chainGraphSVG"

// chainSVG is chainSVGCommand's answer: the SVG document and the title of
// the chain it draws.
type chainSVG struct {
	SVG   string `json:"svg"`
	Title string `json:"title"`
}

// methodShowDocument is LSP 3.16's window/showDocument.
const methodShowDocument = "window/showDocument"

// codeLenses puts "Show chain graph" on each chain of an open pack.json
// that parses (a half-typed buffer has none until it parses again).
func (s *Server) codeLenses(p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	path, ok := pathOf(p.TextDocument.URI)
	if !ok || filepath.Base(path) != pack.ManifestName {
		return out, nil
	}
	text, open := s.text(path)
	if !open || len(text) > maxAssistText {
		return out, nil
	}
	doc, err := jsonpos.Parse(text)
	if err != nil {
		return out, nil
	}
	chains := doc.Root.Get("chains")
	if chains == nil || chains.Kind != jsonpos.Array {
		return out, nil
	}
	for i, c := range chains.Items {
		if c.Get("dag") == nil {
			continue
		}
		ptr := fmt.Sprintf("/chains/%d", i)
		out = append(out, protocol.CodeLens{Range: rangeOf(text, c.Start, c.Start+1),
			Command: &protocol.Command{Title: "Show chain graph", Command: showChainCommand, Arguments: []any{string(p.TextDocument.URI), ptr}}})
	}
	return out, nil
}

// executeCommand runs showChainCommand: it draws the chain, writes the SVG
// under wop's cache and asks the editor to open it. The answer is the
// file's URI. chainSVGCommand answers the drawing instead.
func (s *Server) executeCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	if p.Command != showChainCommand && p.Command != chainSVGCommand {
		return nil, fmt.Errorf("unknown command %q (the server runs %s and %s)", p.Command, showChainCommand, chainSVGCommand)
	}
	var docURI, ptr string
	if len(p.Arguments) == 2 {
		docURI, _ = p.Arguments[0].(string)
		ptr, _ = p.Arguments[1].(string)
	}
	path, ok := pathOf(protocol.DocumentURI(docURI))
	if !ok || ptr == "" {
		return nil, fmt.Errorf("%s takes a pack.json URI and a chain's pointer, got %v", p.Command, p.Arguments)
	}
	svg, title, err := s.drawChain(ctx, path, ptr)
	if p.Command == chainSVGCommand {
		// the view shows the error itself, beside the last good drawing:
		// no message box on each keystroke that breaks the JSON
		if err != nil {
			return nil, err
		}
		return chainSVG{SVG: string(svg), Title: title}, nil
	}
	if err != nil {
		if ctx.Err() == nil { // a request the editor cancelled is no error to show
			s.showMessage(protocol.MessageTypeError, "wop: "+err.Error())
		}
		return nil, err
	}
	file, err := s.writeDrawing(path, ptr, svg)
	if err != nil {
		return nil, err
	}
	target := uriOf(file)
	go func() { // a reply may never come: never block the handler on it
		var res protocol.ShowDocumentResult
		if _, err := s.conn.Call(context.Background(), methodShowDocument, &protocol.ShowDocumentParams{URI: protocol.URI(target), External: true}, &res); err != nil {
			s.log.Printf("showDocument: %v", err)
		}
	}()
	return string(target), nil
}

// drawChain is the SVG of the chain at ptr in the manifest at path, from
// its open buffer or the disk, analysed with the options lint uses for it,
// and the chain's title (its label, else its chainId).
func (s *Server) drawChain(ctx context.Context, path, ptr string) ([]byte, string, error) {
	text, err := s.textOrDisk(path)
	if err != nil {
		return nil, "", err
	}
	dir := filepath.Dir(path)
	if u, ok := s.unitOf(path); ok && u.pack != "" {
		dir = u.pack
	}
	if err := s.lintMu.LockCtx(ctx); err != nil {
		return nil, "", err
	}
	_, jobs, limits, err := lintrun.Jobs(ctx, s.env, lintrun.Options{Paths: []string{dir}, Overlay: s.overlay(), Loader: s.loader})
	s.lintMu.Unlock()
	if err != nil {
		return nil, "", err
	}
	if len(jobs) != 1 {
		return nil, "", fmt.Errorf("%s: not one pack", dir)
	}
	an, name, err := graphrun.AnalyzeBuffer(text, s.env.Rel(path), dir, jobs[0].Opt, limits[0]) // errors name the file as lint does
	if err != nil {
		return nil, "", err
	}
	for _, d := range an.DAGs {
		if d.Pointer == ptr+"/dag" {
			title := cmp.Or(d.Title, d.ChainID, ptr)
			svg, err := graphrun.Render(ctx, s.env, []chaindraw.Chart{{Pack: name, File: path, DAG: d}}, graphrun.Options{Format: "svg"})
			return svg, title, err
		}
	}
	return nil, "", errors.New(ptr + " is no longer a chain with a dag: the file changed")
}

// writeDrawing writes svg where the editor can open it: under wop's cache
// (the system's temporary directory without one), one file per chain, so
// showing it again replaces the last drawing.
func (s *Server) writeDrawing(path, ptr string, svg []byte) (string, error) {
	root := s.env.CacheDir
	if root == "" {
		root = os.TempDir()
	}
	dir := filepath.Join(root, "graphs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(path + "#" + ptr))
	file := filepath.Join(dir, "chain-"+hex.EncodeToString(sum[:8])+".svg")
	return file, atomicfile.Write(file, svg, 0o644)
}
