// Package graphrun is `wop pack graph`'s run: the packs it names, each
// chain analysed with the options lint judges the pack by (its
// configuration, catalog and spec tree, through lintrun and
// lint.ChainOptions), the previous release's analysis for --against, and
// the drawing in the format asked for (internal/chaindraw).
package graphrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/chaindraw"
	"github.com/wop-cli/wop/internal/graphviz"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/releasecheck"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/suggest"
	"github.com/wop-cli/wop/internal/tarball"
)

// Options are `wop pack graph`'s flags.
type Options struct {
	// Paths are packs (directories, pack.json files, archives) or folders
	// of packs, as lint takes them; none is ".".
	Paths []string
	// Output is -o: the file the drawing is written to, atomically and only
	// once it is whole ("": Run returns it).
	Output string
	// Tree is --spec as typed (auto, v1, v2); Spec is used when it is "".
	Tree string
	// Chain is the chainId to draw; "" draws every chain.
	Chain string
	// Format is --format; "" takes it from Output's extension (.mmd and
	// .md mermaid, .dot and .gv dot, .svg, .json), else text.
	Format string
	// Config, Catalogs, Host, Offline and Spec are lint's flags of the
	// same names: the analysis drawn is the one lint reports from.
	Config   string
	Catalogs []string
	Host     string
	Offline  bool
	Spec     spec.Tree
	// Against is the previous release (--against); Previous loads it.
	Against  string
	Previous releasecheck.PreviousFunc
	Color    bool
	Width    int
}

// Run draws what o names: it returns the drawing, or writes it to
// o.Output (uncoloured) and returns nothing.
func Run(ctx context.Context, env *lintrun.Env, o Options) ([]byte, error) {
	if len(o.Paths) == 0 {
		o.Paths = []string{"."}
	}
	if o.Format == "" {
		o.Format = formatOf(o.Output)
	}
	if err := suggest.FlagValue("--format", o.Format, chaindraw.Formats...); err != nil {
		return nil, err
	}
	if o.Tree != "" {
		tree, err := spec.ParseTree(o.Tree)
		if err != nil {
			return nil, &lintrun.InputError{Err: err}
		}
		o.Spec = tree
	}
	if err := lintrun.CheckOutput(env, "--output", o.Output, "chain.svg"); err != nil {
		return nil, err
	}
	o.Color = o.Color && o.Output == ""
	charts, err := Charts(ctx, env, o)
	if err != nil {
		return nil, err
	}
	out, err := Render(ctx, env, charts, o)
	if err != nil || o.Output == "" {
		return out, err
	}
	return nil, lintrun.WriteOutput(env.Abs(o.Output), "--output", out)
}

// Render draws charts in o.Format (o.Color and o.Width for text); the svg
// format runs the wop-graphviz helper, its compiled code cached under
// env.CacheDir.
func Render(ctx context.Context, env *lintrun.Env, charts []chaindraw.Chart, o Options) ([]byte, error) {
	draw := chaindraw.Options{Color: o.Color, Width: o.Width, Markdown: markdown(o.Output)}
	if n, err := strconv.Atoi(env.Getenv("COLUMNS")); err == nil && n > 0 && o.Width == 0 {
		draw.Width = n // the terminal's, where the shell exports it
	}
	if o.Format == "svg" {
		helper, err := graphviz.Locate(env.Getenv, os.Executable)
		if err != nil {
			return nil, err
		}
		r := graphviz.Renderer{Helper: helper}
		if env.CacheDir != "" {
			r.CacheDir = filepath.Join(env.CacheDir, "graphviz")
		}
		draw.Layout = func(ctx context.Context, graphs []chaindraw.Graph) ([][]byte, error) {
			req := make([]graphviz.Graph, len(graphs))
			for i, g := range graphs {
				req[i] = graphviz.Graph{Layout: graphviz.Dot, DOT: string(g.DOT)}
				if g.Pinned {
					req[i].Layout = graphviz.Pinned
				}
			}
			return r.Render(ctx, req)
		}
	}
	var buf bytes.Buffer
	if err := chaindraw.Write(ctx, &buf, o.Format, charts, draw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// formatOf is the format a drawing written to file is in when --format
// does not say: the one its extension names, else text.
func formatOf(file string) string {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".mmd", ".mermaid", ".md", ".markdown":
		return "mermaid"
	case ".dot", ".gv":
		return "dot"
	case ".svg":
		return "svg"
	case ".json":
		return "json"
	}
	return "text"
}

// markdown reports whether file is Markdown, where a Mermaid drawing is a
// heading and a fenced flowchart per chain.
func markdown(file string) bool {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".md", ".markdown":
		return true
	}
	return false
}

// Charts analyses the chains o names, each with its changes when o asks
// for a comparison.
func Charts(ctx context.Context, env *lintrun.Env, o Options) ([]chaindraw.Chart, error) {
	targets, jobs, limits, err := lintrun.Jobs(ctx, env, lintrun.Options{Paths: o.Paths, Config: o.Config, Catalogs: o.Catalogs, Host: o.Host, Offline: o.Offline, Spec: o.Spec, NoCache: true})
	if err != nil {
		return nil, err
	}
	if o.Against != "" && o.Previous == nil {
		return nil, errors.New("--against: no loader for the previous release")
	}
	var charts []chaindraw.Chart
	var ids []string
	for i, t := range targets {
		pk, err := pack.Load(t.Path, limits[i])
		if err != nil {
			return nil, &lintrun.InputError{Err: fmt.Errorf("%s: %w", t.Display, lintrun.WithoutPath(err))}
		}
		pk.Display = pack.DisplayName(t.Display)
		an, name, err := Analyze(pk, jobs[i].Opt)
		if err != nil {
			return nil, err
		}
		var prev *chain.Analysis
		if o.Against != "" {
			if prev, err = previous(ctx, o, t.Path, jobs[i].Opt, limits[i]); err != nil {
				return nil, err
			}
		}
		for _, d := range an.DAGs {
			ids = append(ids, d.ChainID)
			if o.Chain != "" && d.ChainID != o.Chain {
				continue
			}
			c := chaindraw.Chart{Pack: name, File: pk.Path(pack.ManifestName), DAG: d}
			if o.Against != "" {
				c.Changes = chaindraw.Diff(Match(prev, d), d)
			}
			charts = append(charts, c)
		}
	}
	if len(charts) == 0 {
		return nil, noChart(o, ids)
	}
	return charts, nil
}

// errNoChains: the packs hold no chain to draw (the step summary then
// draws none).
var errNoChains = errors.New("no workflow chains to draw (a chain is a chains[] entry with a dag)")

func noChart(o Options, ids []string) error {
	if o.Chain == "" {
		return &lintrun.InputError{Err: fmt.Errorf("%s: %w", strings.Join(o.Paths, ", "), errNoChains)}
	}
	msg := fmt.Sprintf("--chain %s: no such chain", o.Chain)
	if near, ok := suggest.Nearest(o.Chain, ids, 3); ok {
		msg += fmt.Sprintf("; did you mean %s?", near)
	} else if len(ids) > 0 {
		ids = slices.Compact(slices.Sorted(slices.Values(ids)))
		msg += "; the chains are " + strings.Join(ids, ", ")
	}
	return &lintrun.InputError{Err: fmt.Errorf("%s", msg)}
}

// Analyze is the chain analysis of a pack with the options lint judges it
// by, with every other finding lint places in its chains, and the pack's
// "name@version".
func Analyze(pk *pack.Pack, opt lint.Options) (*chain.Analysis, string, error) {
	raw, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return nil, "", &lintrun.InputError{Err: fmt.Errorf("%s: %w", pk.Path(pack.ManifestName), lintrun.WithoutPath(err))}
	}
	an, name, err := AnalyzeManifest(raw, pk.Path(pack.ManifestName), opt)
	if err != nil || len(an.DAGs) == 0 {
		return an, name, err // no chain to place lint's findings on
	}
	if err := withLint(an, pk, opt); err != nil {
		return nil, "", err
	}
	return an, name, nil
}

// AnalyzeBuffer is Analyze of the pack in dir with its manifest as raw
// (an editor's unsaved buffer, file naming it in errors): the chains of
// the buffer with lint's findings on them, as lint would lint the buffer.
func AnalyzeBuffer(raw []byte, file, dir string, opt lint.Options, lim tarball.Limits) (*chain.Analysis, string, error) {
	an, name, err := AnalyzeManifest(raw, file, opt)
	if err != nil || len(an.DAGs) == 0 {
		return an, name, err
	}
	pk, err := pack.Load(dir, lim)
	if err != nil {
		return nil, "", &lintrun.InputError{Err: fmt.Errorf("%s: %w", dir, lintrun.WithoutPath(err))}
	}
	pk.Overlay(map[string][]byte{pack.ManifestName: raw})
	if err := withLint(an, pk, opt); err != nil {
		return nil, "", err
	}
	return an, name, nil
}

// AnalyzeManifest is Analyze over a manifest's bytes (an editor's unsaved
// buffer); file names it in errors.
func AnalyzeManifest(raw []byte, file string, opt lint.Options) (*chain.Analysis, string, error) {
	doc, err := jsonpos.Parse(raw)
	if err != nil {
		var bad *jsonpos.Error
		if errors.As(err, &bad) && bad.Kind != jsonpos.ErrEncoding { // mid-typing in the editor: lint's finding, word for word
			at := jsonpos.PositionOf(raw, bad.Offset)
			return nil, "", &lintrun.InputError{Err: fmt.Errorf("%s:%d:%d: error json-invalid: %s", file, at.Line, at.Column, lint.InvalidJSON(bad.Msg))}
		}
		return nil, "", &lintrun.InputError{Err: fmt.Errorf("%s: %v (wop pack lint says more)", file, err)}
	}
	root := doc.Root
	an := chain.Analyze(root, lint.ChainOptions(root, opt.Catalog, opt.Spec.Resolve(root)))
	rules := lint.All() // drop the findings of rules lint would not run, as lint does
	for _, d := range an.DAGs {
		d.Findings = slices.DeleteFunc(d.Findings, func(f chain.Finding) bool { r := rules.Lookup(f.Rule); return r != nil && !opt.Runs(r) })
	}
	return an, root.Get("name").String() + "@" + root.Get("version").String(), nil
}

// previous analyses the release o.Against names for the pack at path.
func previous(ctx context.Context, o Options, path string, opt lint.Options, lim tarball.Limits) (*chain.Analysis, error) {
	pk, cleanup, err := o.Previous(ctx, o.Against, path, lim)
	if err != nil {
		return nil, err
	}
	if cleanup != nil {
		defer cleanup()
	}
	an, _, err := Analyze(pk, opt)
	return an, err
}

// Match is the DAG of prev that d is a later version of: the one with its
// chainId, or at its pointer when it has none (nil: d is new).
func Match(prev *chain.Analysis, d *chain.DAG) *chain.DAG {
	if prev == nil {
		return nil
	}
	for _, p := range prev.DAGs {
		if d.ChainID != "" && p.ChainID == d.ChainID || d.ChainID == "" && p.ChainID == "" && p.Pointer == d.Pointer {
			return p
		}
	}
	return nil
}
