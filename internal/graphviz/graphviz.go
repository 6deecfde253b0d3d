// Package graphviz lays out a DOT graph as SVG in the wop-graphviz helper
// binary. The layout library (go-graphviz: Graphviz compiled to WebAssembly
// and run by wazero) compiles its module in a package init, 110 ms or more
// of every process that links it, so wop does not link it: only a drawing
// starts the helper, and `wop --version` and lint pay nothing for it. The
// request is the DOT text on the helper's stdin; the answer is one JSON
// object on its stdout.
package graphviz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"

	"github.com/wop-cli/wop/internal/helperbin"
)

// Name is the helper's executable name.
const Name = "wop-graphviz"

// Protocol is the version of Request and Response; wop refuses a helper
// answering with another, so a stale helper is never used silently.
const Protocol = 2

const installHint = "go install github.com/wop-cli/wop/cmd/wop-graphviz@latest (or reinstall wop, which ships it)"

// Layout names a Graphviz layout engine the helper runs.
type Layout string

const (
	// Dot ranks a directed graph in layers (Graphviz dot).
	Dot Layout = "dot"
	// Pinned keeps every node at its pos attribute, in points, and only
	// routes the edges (Graphviz neato -n).
	Pinned Layout = "nop"
)

// Graph is one DOT graph to lay out.
type Graph struct {
	Layout Layout `json:"layout"`
	DOT    string `json:"dot"`
}

// Request is the helper's work: several graphs, so that a run drawing many
// chains starts one helper and pays its start-up once.
type Request struct {
	Protocol int     `json:"protocol"` // set by Render
	Graphs   []Graph `json:"graphs"`
}

// Response is the helper's answer: one SVG per graph, in order, or an
// error.
type Response struct {
	Protocol int      `json:"protocol"`
	SVGs     []string `json:"svgs,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// Locate finds the helper: $WOP_GRAPHVIZ_HELPER, else the one installed
// beside the running wop (executable is os.Executable), else wop-graphviz
// on PATH; the copy beside wop comes first, as it came with this wop.
func Locate(getenv func(string) string, executable func() (string, error)) (string, error) {
	if p, ok := helperbin.Locate(Name, "WOP_GRAPHVIZ_HELPER", getenv, executable); ok {
		return p, nil
	}
	return "", errors.New("the wop-graphviz helper, which lays out SVG drawings, is not installed: put it next to wop or on PATH (" + installHint + "); the text, mermaid, dot and json formats need no helper")
}

// Renderer runs one helper.
type Renderer struct {
	// Helper is the helper's path (Locate).
	Helper string
	// CacheDir keeps the helper's compiled WebAssembly between runs ("":
	// the system temporary directory): a cold cache costs a second or two.
	CacheDir string
}

// Render lays out graphs and returns their SVGs, in order.
func (r Renderer) Render(ctx context.Context, graphs []Graph) ([][]byte, error) {
	in, err := json.Marshal(Request{Protocol: Protocol, Graphs: graphs})
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, r.Helper)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if r.CacheDir != "" && os.MkdirAll(r.CacheDir, 0o755) == nil {
		// go-graphviz keeps wazero's compilation cache under $TMPDIR.
		cmd.Env = append(os.Environ(), "TMPDIR="+r.CacheDir)
	}
	runErr := cmd.Run()
	var resp Response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		switch {
		case errors.Is(runErr, fs.ErrNotExist) || errors.Is(runErr, exec.ErrNotFound):
			return nil, fmt.Errorf("the layout helper %s cannot be run (%v): %s", r.Helper, runErr, installHint)
		case runErr != nil && stderr.Len() > 0:
			return nil, fmt.Errorf("%s: %v: %s", Name, runErr, strings.TrimSpace(stderr.String()))
		case runErr != nil:
			return nil, fmt.Errorf("%s: %v", Name, runErr)
		}
		return nil, fmt.Errorf("%s: unreadable answer: %w", Name, err)
	}
	if resp.Protocol != Protocol {
		return nil, fmt.Errorf("the layout helper %s speaks protocol %d, this wop needs %d; its answer was not used: update it with %s", r.Helper, resp.Protocol, Protocol, installHint)
	}
	if resp.Error != "" {
		return nil, fmt.Errorf("%s: %s", Name, resp.Error)
	}
	if len(resp.SVGs) != len(graphs) {
		return nil, fmt.Errorf("%s: %d drawings for %d graphs", Name, len(resp.SVGs), len(graphs))
	}
	out := make([][]byte, len(resp.SVGs))
	for i, s := range resp.SVGs {
		out[i] = []byte(s)
	}
	return out, nil
}
