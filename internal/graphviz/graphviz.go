// Package graphviz lays out a DOT graph as SVG in the wop-graphviz helper
// binary. The layout library (go-graphviz: Graphviz compiled to WebAssembly
// and run by wazero) loads its module in a package init: 0.6 to 1 second
// when it must compile it to native code, about 0.1 second when the
// compiled code is cached. So wop does not link it: only a drawing starts
// the helper, and `wop --version` and lint pay nothing for it. This package
// keeps the helper's compiled code in wop's cache, seeds that cache from
// the copy a release compiles (PrecompiledDir), and recovers from a damaged
// one. The request is the DOT text on the helper's stdin; the answer is one
// JSON object on its stdout.
package graphviz

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

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
	// CacheDir keeps the helper's compiled WebAssembly between runs ("": a
	// private temporary folder, removed after the run). A release seeds it
	// from PrecompiledDir; without that, a cold cache costs the first
	// drawing 0.6 to 1 second.
	CacheDir string
	// Timeout bounds one helper run (0: DefaultTimeout), so a helper that
	// hangs cannot hang wop or the editor's request.
	Timeout time.Duration
}

// DefaultTimeout is far past what the registry's largest chains take (0.1
// to 1 second for all 78 of a checkout).
const DefaultTimeout = 2 * time.Minute

// Render lays out graphs and returns their SVGs, in order.
func (r Renderer) Render(ctx context.Context, graphs []Graph) ([][]byte, error) {
	in, err := json.Marshal(Request{Protocol: Protocol, Graphs: graphs})
	if err != nil {
		return nil, err
	}
	timeout := cmp.Or(r.Timeout, DefaultTimeout)
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("%s did not answer within %s, and was stopped: %w", Name, timeout, context.DeadlineExceeded))
	defer cancel()
	cache, done, err := r.cacheDir()
	if err != nil {
		return nil, fmt.Errorf("%s: its cache folder: %w", Name, err)
	}
	defer done()
	r.seed(cache)
	resp, err := r.run(ctx, in, cache)
	var crash *crashError
	if errors.As(err, &crash) && crash.damagedCache && forgetCompiled(cache) == nil {
		// The helper compiles a new module when none is cached. Not seeded
		// again: the damaged module may have been the seed.
		resp, err = r.run(ctx, in, cache)
	}
	if err != nil {
		return nil, err
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

// crashError is a helper that ran and ended without an answer.
type crashError struct {
	msg string
	// damagedCache: it died as it started, unable to read a compiled
	// module from its cache (wazero's "compilationcache:" errors, which
	// go-graphviz turns into a panic in its package init). Any other
	// crash (out of memory on a huge graph, a bug) leaves the cache, which
	// other wop processes share, alone.
	damagedCache bool
}

func (e *crashError) Error() string { return e.msg }

// run starts the helper once, with its compiled code kept under cache, and
// reads its answer.
func (r Renderer) run(ctx context.Context, in []byte, cache string) (Response, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, r.Helper)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second // once stopped, do not wait on a child holding its pipes
	// go-graphviz keeps wazero's compilation cache under the system
	// temporary folder: $TMPDIR on Unix, %TMP% or %TEMP% on Windows.
	cmd.Env = append(os.Environ(), "TMPDIR="+cache, "TMP="+cache, "TEMP="+cache)
	runErr := cmd.Run()
	if cause := context.Cause(ctx); cause != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return Response{}, cause
	}
	var resp Response
	var exited *exec.ExitError
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		switch {
		case runErr != nil && !errors.As(runErr, &exited):
			// It never started (missing, not executable, another
			// platform's): not a crash, and no cached code to blame.
			return resp, fmt.Errorf("the layout helper %s cannot be run (%v): %s", r.Helper, runErr, installHint)
		case runErr != nil && stderr.Len() > 0:
			return resp, &crashError{msg: fmt.Sprintf("%s: %v: %s", Name, runErr, firstLine(stderr.String())),
				damagedCache: strings.Contains(stderr.String(), "compilationcache:")}
		case runErr != nil:
			return resp, &crashError{msg: fmt.Sprintf("%s: %v", Name, runErr)}
		}
		return resp, fmt.Errorf("%s: unreadable answer: %w", Name, err)
	}
	if resp.Protocol != Protocol {
		return resp, fmt.Errorf("the layout helper %s speaks protocol %d, this wop needs %d; its answer was not used: update it with %s", r.Helper, resp.Protocol, Protocol, installHint)
	}
	return resp, nil
}

// firstLine is what a user is shown of the helper's stderr: a Go panic's
// message, not its goroutine dump; bounded, as the helper may print
// anything.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 500 {
		s = strings.ToValidUTF8(s[:500], "") + "..."
	}
	return s
}
