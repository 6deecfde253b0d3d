package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/cmd/wop/internal/root"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
	"go.yaml.in/yaml/v3"
)

// readmeBlock returns the fenced code block that follows a
// `<!-- readme-test: NAME -->` marker in the README.
func readmeBlock(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	marker := "<!-- readme-test: " + name + " -->\n"
	_, rest, ok := strings.Cut(string(raw), marker)
	if !ok {
		t.Fatalf("README has no %q marker", marker)
	}
	m := regexp.MustCompile("(?s)^```[a-z]*\n(.*?)\n```").FindStringSubmatch(rest)
	if m == nil {
		t.Fatalf("no code block after %q", marker)
	}
	return m[1]
}

type workflowStep struct {
	Name            string            `yaml:"name"`
	If              string            `yaml:"if"`
	Uses            string            `yaml:"uses"`
	Run             string            `yaml:"run"`
	ContinueOnError bool              `yaml:"continue-on-error"`
	With            map[string]string `yaml:"with"`
}

type workflow struct {
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		Steps []workflowStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestREADMEWorkflow runs the README's GitHub Actions workflow the way the
// runner would, with each `wop` step executed for real against a repository
// that lints clean, one with lint errors and one where lint cannot run:
// SARIF is uploaded whenever it was written, the annotations always appear,
// and the job fails exactly when lint did.
func TestREADMEWorkflow(t *testing.T) {
	var wf workflow
	if err := yaml.Unmarshal([]byte(readmeBlock(t, "github-workflow")), &wf); err != nil {
		t.Fatal(err)
	}
	if wf.Permissions["security-events"] != "write" {
		t.Error("upload-sarif needs permissions: security-events: write")
	}
	if wf.Permissions["actions"] != "read" {
		t.Error("upload-sarif needs permissions: actions: read on private repositories")
	}
	steps := wf.Jobs["lint"].Steps
	if err := installsFromNpm(steps, npmPin(t)); err != nil {
		t.Error(err)
	}
	tests := []struct {
		name     string
		packs    map[string]string // files in the repository; nil: none
		wantRan  []string
		wantFail bool
	}{
		// The layouts the Quickstart makes: the pack at the root, or wop pack init NAME in a repository.
		{"clean", map[string]string{"pack.json": cleanPack}, []string{"lint to SARIF", "upload to code scanning", "annotate and fail on errors"}, false},
		{"lint errors", map[string]string{"pack.json": brokenPack}, []string{"lint to SARIF", "upload to code scanning", "annotate and fail on errors"}, true},
		{"clean pack folder", map[string]string{"community.acme.ok/pack.json": cleanPack}, []string{"lint to SARIF", "upload to code scanning", "annotate and fail on errors"}, false},
		{"lint errors in a pack folder", map[string]string{"community.acme.bad/pack.json": brokenPack}, []string{"lint to SARIF", "upload to code scanning", "annotate and fail on errors"}, true},
		{"lint cannot run", nil, []string{"lint to SARIF", "annotate and fail on errors"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tt.packs {
				p := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(data), 0o644)
			}
			ran, failed, annotations := runWorkflow(t, dir, steps)
			if !slices.Equal(ran, tt.wantRan) {
				t.Errorf("steps that ran: %q, want %q", ran, tt.wantRan)
			}
			if failed != tt.wantFail {
				t.Errorf("job failed = %v, want %v", failed, tt.wantFail)
			}
			if bad := slices.Collect(maps.Keys(tt.packs)); tt.wantFail && len(bad) == 1 && !strings.Contains(annotations, "::error file="+bad[0]) {
				t.Errorf("no annotation for the error:\n%s", annotations)
			}
		})
	}
}

// installsFromNpm checks how the workflow gets wop: `npm install -g` of
// the npm package at an exact version (pin, NAME@X.Y.Z), before the first
// wop step, and no second checkout of wop's source, no Go build of it.
func installsFromNpm(steps []workflowStep, pin string) error {
	for _, s := range steps {
		switch {
		case s.With["repository"] == "wop-cli/wop" || strings.Contains(s.Run, "go install") || strings.Contains(s.Run, "go build"):
			return fmt.Errorf("step %q builds wop from its source: install the npm package %s instead", s.Name, pin)
		case strings.HasPrefix(s.Run, "npm install -g "):
			if f := strings.Fields(s.Run); len(f) < 4 || f[3] != pin {
				return fmt.Errorf("step %q runs %q, want npm install -g %s (the pinned release)", s.Name, s.Run, pin)
			}
			return nil
		case strings.HasPrefix(s.Run, "wop "):
			return fmt.Errorf("step %q runs wop before any step installs it", s.Name)
		}
	}
	return fmt.Errorf("no step runs npm install -g %s", pin)
}

// npmPin is the npm package and version the README installs
// (@wop-cli/wop@0.1.0): the name npm/wop/package.json gives the package, at
// the version the wop-pack-lint-npm hook pins in .pre-commit-hooks.yaml.
func npmPin(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../../npm/wop/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Name string }
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	for _, h := range precommitHooks(t) {
		for _, dep := range h.AdditionalDependencies {
			name, version, _ := strings.Cut(strings.TrimPrefix(dep, "@"), "@")
			if "@"+name != pkg.Name {
				continue
			}
			if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(version) {
				t.Fatalf("hook %s pins %q: pin an exact release version", h.ID, dep)
			}
			return dep
		}
	}
	t.Fatalf(".pre-commit-hooks.yaml has no hook that pins %s", pkg.Name)
	return ""
}

// runWorkflow plays the steps as a GitHub runner does: a step runs when its
// `if` holds (default success()); a failing step fails the job unless it
// has continue-on-error. It returns the named steps that ran, whether the
// job failed, and what the wop steps printed.
func runWorkflow(t *testing.T, dir string, steps []workflowStep) (ran []string, failed bool, out string) {
	t.Helper()
	var all strings.Builder
	for _, s := range steps {
		if !stepCondition(t, s.If, failed, dir) {
			continue
		}
		if s.Name != "" {
			ran = append(ran, s.Name)
		}
		ok := true
		switch {
		case strings.HasPrefix(s.Run, "wop "):
			if strings.ContainsAny(s.Run, "'\"$|&;") {
				t.Fatalf("step %q: shell syntax this test does not run: %s", s.Name, s.Run)
			}
			args := strings.Fields(strings.TrimPrefix(s.Run, "wop "))
			var stdout, stderr bytes.Buffer
			env := &cli.Env{In: strings.NewReader(""), Out: &stdout, ErrOut: &stderr, Getenv: func(string) string { return "" },
				WorkDir: dir, Version: "test", HTTPClient: func() *http.Client { return &http.Client{} }}
			ok = root.Main(context.Background(), args, env) == 0
			all.WriteString(stdout.String())
		case strings.Contains(s.Uses, "upload-sarif"):
			_, err := os.Stat(filepath.Join(dir, s.With["sarif_file"]))
			ok = err == nil // the action fails on a missing file
		}
		if !ok && !s.ContinueOnError {
			failed = true
		}
	}
	return ran, failed, all.String()
}

// stepCondition evaluates the few expressions the README uses:
// always(), success(), failure() and "hashFiles('F') is not empty", joined
// by &&.
func stepCondition(t *testing.T, expr string, failed bool, dir string) bool {
	t.Helper()
	if expr == "" {
		expr = "success()"
	}
	hash := regexp.MustCompile(`^hashFiles\('([^']+)'\) != ''$`)
	for _, term := range strings.Split(expr, "&&") {
		term = strings.TrimSpace(term)
		var holds bool
		switch {
		case term == "always()":
			holds = true
		case term == "success()":
			holds = !failed
		case term == "failure()":
			holds = failed
		case hash.MatchString(term):
			_, err := os.Stat(filepath.Join(dir, hash.FindStringSubmatch(term)[1]))
			holds = err == nil
		default:
			t.Fatalf("workflow condition %q: not understood by this test", term)
		}
		if !holds {
			return false
		}
	}
	return true
}

const cleanPack = `{"name": "community.acme.ok", "version": "1.0.0", "license": "MIT", "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "runtime": {"language": "remote", "entry": "pack.json"},
 "agents": [{"agentId": "community.acme.ok.a", "persona": "A", "modelClass": "general", "systemPrompt": "Hi."}]}`

const brokenPack = `{"name": "community.acme.bad", "version": "1.0.0", "license": "MIT", "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "runtime": {"language": "remote", "entry": "pack.json"},
 "agents": [{"agentId": "community.acme.bad.a", "persona": "A", "modelClass": "general", "systemPromptRef": "prompts/missing.md"}]}`

// TestREADMEPreCommit: the README's pre-commit snippet names this
// repository, a release tag (v + SemVer, the scheme CONTRIBUTING.md
// documents) and the npm hook .pre-commit-hooks.yaml defines first, with no
// args overriding the hook's file mapping; the tag is the version the hook
// pins and the README's npm install names.
func TestREADMEPreCommit(t *testing.T) {
	var cfg struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Rev   string `yaml:"rev"`
			Hooks []struct {
				ID   string   `yaml:"id"`
				Args []string `yaml:"args"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(readmeBlock(t, "pre-commit")), &cfg); err != nil {
		t.Fatal(err)
	}
	hooks := precommitHooks(t)
	r := cfg.Repos[0]
	if r.Repo != "https://github.com/wop-cli/wop" {
		t.Errorf("repo %q", r.Repo)
	}
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+$`).MatchString(r.Rev) {
		t.Errorf("rev %q is not a release tag vMAJOR.MINOR.PATCH", r.Rev)
	}
	if r.Hooks[0].ID != hooks[0].ID || hooks[0].Language != "node" || len(r.Hooks[0].Args) != 0 {
		t.Errorf("README hook %+v; .pre-commit-hooks.yaml defines %q first, which must be the npm hook", r.Hooks[0], hooks[0].ID)
	}
	if pin := npmPin(t); !strings.HasSuffix(pin, "@"+strings.TrimPrefix(r.Rev, "v")) || !strings.Contains(readmeBlock(t, "install-npm"), "npm install -D -E "+pin+" ") {
		t.Errorf("README's pre-commit rev %s, its npm install block and the npm hook's pin %s name different versions", r.Rev, pin)
	}
	for _, h := range hooks {
		command := h.Entry // what runs lint: the entry, or for a script the script's last line
		if script := hookScript(t, h.Language, h.Entry); script != "" {
			script, err := os.ReadFile(filepath.Join("../..", script))
			if err != nil {
				t.Fatalf("hook %s: %v", h.ID, err)
			}
			lines := strings.Split(strings.TrimSpace(string(script)), "\n")
			command = strings.TrimSuffix(lines[len(lines)-1], ` "$@"`)
		}
		if !h.PassFilenames || !strings.Contains(command, "pack lint --changed") {
			t.Errorf("hook %s must pass the changed files to 'wop pack lint --changed': %q", h.ID, command)
		}
		if !strings.HasSuffix(command, " --") {
			t.Errorf("hook %s runs %q, which must end with --: a committed file named like a flag (--write-baseline=x.agf.yaml) would be parsed as one", h.ID, command)
		}
		files := regexp.MustCompile(h.Files)
		for _, f := range []string{"pack.json", "packs/a/pack.json", "packs/a/agents/x.agf.yaml", "x.agf.yml", "packs/a/prompts/p.md", "packs/a/schemas/s.json", ".wop.yaml", "packs/a/module.wasm", "packs/a/ui/viewer.html"} {
			if !files.MatchString(f) {
				t.Errorf("hook %s files pattern skips %s", h.ID, f)
			}
		}
	}
}

// TestWorkflowSimulationCatchesTheOldBug: the workflow the README had
// before (SARIF step failing first, annotation step without if: always())
// never annotates when there are errors; the simulation must see that.
func TestWorkflowSimulationCatchesTheOldBug(t *testing.T) {
	old := []workflowStep{
		{Name: "sarif", Run: "wop pack lint --format sarif --output wop.sarif packs/"},
		{Name: "upload", If: "always()", Uses: "github/codeql-action/upload-sarif@v3", With: map[string]string{"sarif_file": "wop.sarif"}},
		{Name: "annotate", Run: "wop pack lint --format github packs/"},
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "packs", "community.acme.bad"), 0o755)
	os.WriteFile(filepath.Join(dir, "packs", "community.acme.bad", "pack.json"), []byte(brokenPack), 0o644)
	ran, failed, _ := runWorkflow(t, dir, old)
	if slices.Contains(ran, "annotate") || !failed {
		t.Errorf("old workflow: ran %q, failed %v; want no annotate step and a failed job", ran, failed)
	}
}

// TestREADMEPreCommitClone: the README's pre-release pre-commit snippet
// names a clone by absolute path (git clones no "~"), a commit to be filled
// in, and the hook .pre-commit-hooks.yaml defines.
func TestREADMEPreCommitClone(t *testing.T) {
	var cfg struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Rev   string `yaml:"rev"`
			Hooks []struct {
				ID string `yaml:"id"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(readmeBlock(t, "pre-commit-clone")), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Repos) != 1 || len(cfg.Repos[0].Hooks) != 1 {
		t.Fatalf("want one repo with one hook: %+v", cfg)
	}
	r := cfg.Repos[0]
	if !filepath.IsAbs(r.Repo) {
		t.Errorf("repo %q: pre-commit hands it to git clone, which expands no ~ and resolves a relative path against its cache; write an absolute path", r.Repo)
	}
	if regexp.MustCompile(`^v\d+\.`).MatchString(r.Rev) {
		t.Errorf("rev %q is a release tag, which a clone does not have yet", r.Rev)
	}
	if id := r.Hooks[0].ID; id != precommitHookID(t) {
		t.Errorf("hook %q; .pre-commit-hooks.yaml's hook that builds wop from the clone is %q", id, precommitHookID(t))
	}
}

// precommitHook is what the tests read of a hook in .pre-commit-hooks.yaml.
type precommitHook struct {
	ID                     string   `yaml:"id"`
	Entry                  string   `yaml:"entry"`
	Language               string   `yaml:"language"`
	Files                  string   `yaml:"files"`
	PassFilenames          bool     `yaml:"pass_filenames"`
	AdditionalDependencies []string `yaml:"additional_dependencies"`
}

// precommitHooks reads .pre-commit-hooks.yaml.
func precommitHooks(t *testing.T) []precommitHook {
	t.Helper()
	raw, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []precommitHook
	if err := yaml.Unmarshal(raw, &hooks); err != nil {
		t.Fatal(err)
	}
	return hooks
}

// hookScript is the repository file a hook runs, or "": a script hook's
// entry is one, and a node hook's entry is a bin of the root package.json
// (pre-commit installs that package).
func hookScript(t *testing.T, language, entry string) string {
	t.Helper()
	switch language {
	case "script":
		return entry
	case "node":
		raw, err := os.ReadFile("../../package.json")
		if err != nil {
			t.Fatalf("a node hook needs a package.json at the repository's root: %v", err)
		}
		var pkg struct{ Bin map[string]string }
		if err := json.Unmarshal(raw, &pkg); err != nil {
			t.Fatal(err)
		}
		if pkg.Bin[entry] == "" {
			t.Fatalf("the node hook's entry %q is not a bin of package.json (%v)", entry, pkg.Bin)
		}
		return pkg.Bin[entry]
	}
	return ""
}

// precommitHookID is the id of the hook that builds wop from the clone
// pre-commit makes, with the Go on PATH (language: script): the one the
// README's pre-release snippet names.
func precommitHookID(t *testing.T) string {
	t.Helper()
	for _, h := range precommitHooks(t) {
		if h.Language == "script" {
			return h.ID
		}
	}
	t.Fatal(".pre-commit-hooks.yaml has no script hook")
	return ""
}

// TestREADMENpmInstallPins: the README's npm install into a project pins
// wop exactly (-E): without it npm writes "^X" into package.json.
func TestREADMENpmInstallPins(t *testing.T) {
	n := 0
	for _, line := range strings.Split(readmeBlock(t, "install-npm"), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		f := strings.Fields(cmd)
		if len(f) < 2 || f[0] != "npm" || (f[1] != "install" && f[1] != "i") || slices.Contains(f, "-g") {
			continue
		}
		n++
		if !slices.Contains(f, "-E") && !slices.Contains(f, "--save-exact") {
			t.Errorf("%q saves a range (^X) in package.json: add -E", strings.TrimSpace(cmd))
		}
		if pin := npmPin(t); !slices.Contains(f, pin) {
			t.Errorf("%q does not install %s", strings.TrimSpace(cmd), pin)
		}
	}
	if n == 0 {
		t.Error("the install-npm block has no npm install")
	}
}

// TestREADMEInstall: the install block works from a clone: it installs
// packages by path in this module, each a command, and fetches no released
// version (there is no release tag to resolve).
func TestREADMEInstall(t *testing.T) {
	var installed []string
	for _, line := range strings.Split(readmeBlock(t, "install"), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		f := strings.Fields(cmd)
		if len(f) < 2 || f[0] != "go" || f[1] != "install" {
			continue
		}
		for _, arg := range f[2:] {
			if strings.Contains(arg, "@") || !strings.HasPrefix(arg, "./") {
				t.Errorf("install argument %q: from a clone, name a package by its path (./cmd/wop)", arg)
			}
			installed = append(installed, strings.TrimPrefix(arg, "./"))
		}
	}
	want := []string{"cmd/wop", "cmd/wop-sigstore", "cmd/wop-graphviz"}
	if !slices.Equal(installed, want) {
		t.Errorf("the install block installs %q, want %q", installed, want)
	}
	if got := goList(t, `{{if eq .Name "main"}}{{.Dir}}{{end}}`, "../../cmd/wop", "../../cmd/wop-sigstore", "../../cmd/wop-graphviz"); len(got) != 3 {
		t.Errorf("the installed packages are not all commands: %q", got)
	}
}

// TestRootBuildsOnlyTheCommands: pre-commit's golang language installs a
// hook repository with `go install ./...` at its root (no way to name a
// package), so ./... must hold no command but wop and its helpers: the
// benchmark helpers stay behind the wopbench build tag.
func TestRootBuildsOnlyTheCommands(t *testing.T) {
	got := goList(t, `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "../../...")
	want := []string{"github.com/wop-cli/wop/cmd/wop", "github.com/wop-cli/wop/cmd/wop-graphviz", "github.com/wop-cli/wop/cmd/wop-sigstore"}
	if !slices.Equal(got, want) {
		t.Errorf("go install ./... at the root builds %q, want only %q", got, want)
	}
}

// TestREADMEModuleCounts: the README's count of the modules a first run
// downloads is the number the build needs: the first command's (cmd/wop)
// and the tests' (every package with its tests), the main module left out.
func TestREADMEModuleCounts(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(\d+) modules for the first command, (\d+) for the tests`).FindStringSubmatch(strings.Join(strings.Fields(string(raw)), " "))
	if m == nil {
		t.Fatal("README does not say how many modules the first run downloads")
	}
	modules := func(args ...string) string {
		seen := map[string]bool{}
		for _, mod := range goList(t, `{{with .Module}}{{if not .Main}}{{.Path}}{{end}}{{end}}`, append([]string{"-deps"}, args...)...) {
			seen[mod] = true
		}
		return fmt.Sprint(len(seen))
	}
	if got := modules("../../cmd/wop"); got != m[1] {
		t.Errorf("go run ./cmd/wop needs %s modules; README says %s", got, m[1])
	}
	if got := modules("-test", "../../..."); got != m[2] {
		t.Errorf("go test ./... needs %s modules; README says %s", got, m[2])
	}
}

// goList runs `go list -f FORMAT ARGS...` and returns the non-empty output
// lines; it skips the test where no go command is on PATH.
func goList(t *testing.T, format string, args ...string) []string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	flags := []string{"list", "-f", format}
	cmd := exec.Command(goCmd, append(flags, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v", strings.Join(append(flags, args...), " "), err)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestREADMEExamples: examples/ holds a pack of every kind wop validates
// and a v2 pack, and the README's "The examples" section names each one
// (examples-build-verify.txtar lints, builds and verifies them).
func TestREADMEExamples(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(raw), "## The examples\n")
	section, _, _ = strings.Cut(section, "\n## ")
	manifests, err := filepath.Glob("../../examples/*/pack.json")
	if err != nil || len(manifests) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	kinds, trees := map[string]bool{}, map[spec.Tree]bool{}
	for _, m := range manifests {
		name := filepath.Base(filepath.Dir(m))
		if !strings.Contains(section, "`examples/"+name+"`") {
			t.Errorf("README's examples section does not name examples/%s", name)
		}
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonpos.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		kind := "node"
		if k := doc.Root.Get("kind"); k != nil {
			kind = k.Str
		}
		kinds[kind] = true
		trees[spec.TreeOf(doc.Root)] = true
	}
	for _, k := range schema.Kinds() {
		if !kinds[k] {
			t.Errorf("no example of kind %s", k)
		}
	}
	if !trees[spec.V1] || !trees[spec.V2] {
		t.Errorf("examples cover the trees %v, want v1 and v2", trees)
	}
}
