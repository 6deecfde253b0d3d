package stage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/safefile"
)

// A step is one of the checkout's own commands: a generator that writes
// derived files, or its CI gate.
type step struct {
	Label string   // what the report calls it: "npm run build:index"
	Argv  []string // run in the workspace root
}

// maxPackageJSON bounds the checkout's package.json (a few kilobytes).
const maxPackageJSON = 1 << 20

// packageScripts reads package.json's "scripts" (none when absent).
func packageScripts(root string) (map[string]string, error) {
	raw, err := safefile.Read(filepath.Join(root, "package.json"), safefile.Options{Max: maxPackageJSON})
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return nil, fmt.Errorf("package.json: %w", err)
	}
	return pkg.Scripts, nil
}

// exists reports whether the slash path rel is a regular file under root.
func exists(root, rel string) bool {
	info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil && info.Mode().IsRegular()
}

// generators are the checkout's own writers of derived files, in the order
// the registry's staging script runs them: SBOMs, then the index builder
// (which also rewrites version manifests' integrity, the pack and registry
// indexes, the schema mirrors and the landing page). A package.json script
// runs as npm would run it; the v2 tree is passed on as --tree v2.
func generators(root, tree string) ([]step, error) {
	scripts, err := packageScripts(root)
	if err != nil {
		return nil, err
	}
	var treeArgs []string
	if tree != "v1" {
		treeArgs = []string{"--tree", tree}
	}
	var steps []step
	if exists(root, "registry/scripts/generate-sbom.mjs") {
		steps = append(steps, step{"node registry/scripts/generate-sbom.mjs", append([]string{"node", "registry/scripts/generate-sbom.mjs"}, treeArgs...)})
	}
	switch {
	case scripts["build:index"] != "":
		if f := missingScript(root, scripts["build:index"]); f != "" {
			return nil, fmt.Errorf("the checkout's package.json script build:index runs %s, which the checkout does not have: "+
				"its indexes, SBOMs and pages cannot be brought up to date; is it a full clone of the registry's repository?", f)
		}
		steps = append(steps, scriptStep(scripts, "build:index", treeArgs))
	case exists(root, "registry/scripts/build-index.mjs"):
		steps = append(steps, step{"node registry/scripts/build-index.mjs", append([]string{"node", "registry/scripts/build-index.mjs"}, treeArgs...)})
	default:
		return nil, errors.New("the checkout has no index builder (package.json scripts.build:index or registry/scripts/build-index.mjs): " +
			"its indexes, SBOMs and pages cannot be brought up to date, and its CI would refuse the pull request; is it a full clone of the registry's repository?")
	}
	return steps, nil
}

// gate is the checkout's CI gate: package.json's "check" script, else
// scripts/registry-check.sh; ok is false when it has neither.
func gate(root string) (step, bool, error) {
	scripts, err := packageScripts(root)
	if err != nil {
		return step{}, false, err
	}
	switch {
	case scripts["check"] != "":
		if f := missingScript(root, scripts["check"]); f != "" {
			return step{}, false, fmt.Errorf("the checkout's package.json script check (the registry's CI gate) runs %s, which the checkout does not have: "+
				"use a full clone of the registry's repository, or pass --no-registry-check to leave the check to its CI", f)
		}
		return scriptStep(scripts, "check", nil), true, nil
	case exists(root, "scripts/registry-check.sh"):
		return step{"bash scripts/registry-check.sh", []string{"bash", "scripts/registry-check.sh"}}, true, nil
	}
	return step{}, false, nil
}

// missingScript returns the file a package.json script hands to node, bash
// or sh when the checkout lacks it. A copy of the registry's data without
// its scripts would otherwise fail with the interpreter's stack trace,
// naming the temporary copy staging works in rather than the checkout.
func missingScript(root, line string) string {
	f := strings.Fields(line)
	if len(f) < 2 || !slices.Contains([]string{"node", "bash", "sh"}, f[0]) ||
		strings.HasPrefix(f[1], "-") || filepath.IsAbs(f[1]) || exists(root, f[1]) {
		return ""
	}
	return f[1]
}

// scriptStep runs a package.json script the way `npm run NAME -- ARGS`
// does: through sh, with arguments appended.
func scriptStep(scripts map[string]string, name string, args []string) step {
	line := scripts[name]
	for _, a := range args {
		line += " " + a
	}
	return step{"npm run " + name, []string{"sh", "-c", line}}
}

// StepError is a generator or the gate failing, with the end of its output.
type StepError struct {
	Step   string // "npm run check"
	Gate   string // the last gate heading printed before the failure, if any
	Output string // the last lines of its output
	Err    error
	// hint is the fix for each registry error code the output names (the
	// registry's v2 checks print the code a registry would answer with).
	hint string
}

// Hint tells the author how to fix what the gate refused, when it named an
// error code wop knows.
func (e *StepError) Hint() string { return e.hint }

func (e *StepError) Error() string {
	where := e.Step
	if e.Gate != "" {
		where += " at " + e.Gate
	}
	return fmt.Sprintf("%s failed (%v); the checkout was left as it was:\n%s", where, e.Err, e.Output)
}

func (e *StepError) Unwrap() error { return e.Err }

// gateHeading matches the progress lines gates print before each check,
// "[7/9] SBOMs up to date ..." or "[v2 3/9] ...".
var gateHeading = regex.Lazy(`(?m)^\[[^\]\n]*\d+/\d+\][^\n]*`)

// tailLines is how much of a failing step's output the error shows.
const tailLines = 25

// run executes s in dir with the environment environ, dir's
// node_modules/.bin first on PATH as npm does. A failure carries the end of
// its combined output, escaped for the terminal: the checkout's scripts are
// not wop's, and their colours or escape sequences must not reach the
// author's terminal as commands.
// stepWaitDelay is how long run waits for a step's output pipes to close
// once the step has exited or been killed. A script that leaves a process
// behind holding them fails after this (exec.ErrWaitDelay) instead of
// hanging stage.
const stepWaitDelay = 50 * time.Millisecond

func run(ctx context.Context, dir string, environ []string, invoked invocation.Name, s step) error {
	cmd := exec.CommandContext(ctx, s.Argv[0], s.Argv[1:]...)
	cmd.Dir = dir
	cmd.Env = withPath(environ, filepath.Join(dir, "node_modules", ".bin"))
	out := &outputWatcher{}
	cmd.Stdout, cmd.Stderr = out, out
	// On Ctrl-C the step and its children are killed, and Run returns
	// within stepWaitDelay even if a grandchild still holds the output
	// pipe: Stage must have time to remove its staging copy before the
	// process exits (interrupt.Context's grace).
	ownGroup(cmd)
	cmd.WaitDelay = stepWaitDelay
	if err := cmd.Run(); err != nil {
		out.finish()
		return &StepError{
			Step:   s.Label,
			Gate:   report.EscapeControl(out.heading, false),
			Output: report.EscapeControl(tail(out.lastLines(), tailLines), true),
			Err:    err,
			hint:   out.hints(invoked),
		}
	}
	return nil
}

// tail returns the last n lines of s, indented, without the carriage
// returns of CRLF line ends.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\r\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return "  | " + strings.Join(lines, "\n  | ")
}

// withPath returns environ with dir put first on its PATH.
func withPath(environ []string, dir string) []string {
	out := make([]string, 0, len(environ)+1)
	path := dir
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path += string(os.PathListSeparator) + v
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path)
}
