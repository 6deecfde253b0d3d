package lint

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/golden"
	"golang.org/x/tools/txtar"
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestRegistryContract(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if !kebab.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("rule id %q is not unique kebab-case", r.ID)
		}
		seen[r.ID] = true
		if r.Summary == "" || strings.Contains(r.Summary, "\n") {
			t.Errorf("rule %s needs a one-line summary", r.ID)
		}
		if _, err := semver.StrictNewVersion(r.Since); err != nil {
			t.Errorf("rule %s: Since %q is not the wop version that added it (x.y.z)", r.ID, r.Since)
		}
		if r.Deprecated != "" {
			if r.Check != nil || r.AgentFormat != nil {
				t.Errorf("deprecated rule %s still has a check: move it to %s", r.ID, r.ReplacedBy)
			}
			if next := All().Lookup(r.ReplacedBy); r.ReplacedBy != "" && (next == nil || next.Deprecated != "") {
				t.Errorf("deprecated rule %s: ReplacedBy %q is not a current rule", r.ID, r.ReplacedBy)
			}
			continue // its catalog entry went with its check
		}
		if (r.Check == nil) == (r.AgentFormat == nil) {
			t.Errorf("rule %s needs exactly one of Check and AgentFormat", r.ID)
		}
		if _, err := catalogFS.ReadFile("catalog/" + r.ID + ".txtar"); err != nil {
			t.Errorf("rule %s has no catalog/%s.txtar", r.ID, r.ID)
		}
	}
	files, _ := catalogFS.ReadDir("catalog")
	for _, f := range files {
		if id := strings.TrimSuffix(f.Name(), ".txtar"); !seen[id] {
			t.Errorf("catalog/%s has no rule", f.Name())
		}
	}
}

// TestCatalog lints every rule's bad example (it must fire, printing exactly
// the want section) and its fixed example (it must not fire).
func TestCatalog(t *testing.T) {
	for _, r := range All() {
		if r.Deprecated != "" {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			path := filepath.Join("catalog", r.ID+".txtar")
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			doc := parseRuleDoc(raw)
			lim := testLimits(t, doc.TestLimits)
			ex := example{lim: lim, rule: r.ID, catalog: exampleCatalog(t, doc.Catalog), enable: r.OptIn, spec: spec.Tree(doc.Spec)}
			bad := ex.lint(t, doc.Bad)
			if len(bad) == 0 {
				t.Errorf("bad example does not fire %s", r.ID)
			}
			var out bytes.Buffer
			if err := report.Print(&out, "text", report.Input{Diags: bad}); err != nil {
				t.Fatal(err)
			}
			if golden.Update() {
				rewriteWant(t, path, raw, out.Bytes())
			} else if out.String() != doc.Want {
				t.Errorf("bad example output differs (go test ./internal/lint -update):\n got: %s\nwant: %s", out.String(), doc.Want)
			}
			if good := ex.lint(t, doc.Good); len(good) > 0 {
				t.Errorf("fixed example still fires: %+v", good)
			}
		})
	}
}

func testLimits(t *testing.T, spec string) tarball.Limits {
	lim := tarball.DefaultLimits
	for _, kv := range strings.Fields(spec) {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("test-limits %q: %v", kv, err)
		}
		switch k {
		case "manifest":
			lim.MaxManifest = n
		case "entry":
			lim.MaxEntry = n
		case "total":
			lim.MaxTotal = n
		}
	}
	return lim
}

// example is how a catalog example is linted: with reduced limits, the
// catalog its entry carries, and its rule switched on when it is opt-in.
type example struct {
	lim     tarball.Limits
	rule    string
	catalog *catalog.Catalog
	enable  bool
	spec    spec.Tree // from a "lint-spec:" line
}

// exampleCatalog writes an entry's catalog/ files to a folder of packs and
// opens it (nil when the entry has none).
func exampleCatalog(t *testing.T, files []ExampleFile) *catalog.Catalog {
	if len(files) == 0 {
		return nil
	}
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.Data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := catalog.Open(t.Context(), dir, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (ex example) lint(t *testing.T, files []ExampleFile) []diag.Diagnostic {
	t.Helper()
	opt := Options{Catalog: ex.catalog, Spec: ex.spec}
	if ex.enable {
		opt.Severities = map[string]diag.Severity{ex.rule: Lookup(ex.rule).Severity}
	}
	return lintExampleWith(t, files, ex.lim, ex.rule, opt)
}

// lintExample writes files into a temp dir named like the examples' pack
// (or, for an "@archive" spec, builds a .tgz), lints it and keeps rule's
// findings (every finding when rule is ""). An example of AgentFormat files
// alone is linted as `wop agf lint` does, every file named.
func lintExample(t *testing.T, files []ExampleFile, lim tarball.Limits, rule string) []diag.Diagnostic {
	t.Helper()
	return lintExampleWith(t, files, lim, rule, Options{})
}

func lintExampleWith(t *testing.T, files []ExampleFile, lim tarball.Limits, rule string, opt Options) []diag.Diagnostic {
	t.Helper()
	if !slices.ContainsFunc(files, func(f ExampleFile) bool { return !agf.IsFile(f.Name) }) {
		return keepRule(lintAgentFormatExample(t, files), rule)
	}
	dir := filepath.Join(t.TempDir(), "community.acme.demo")
	target := dir
	for _, f := range files {
		if f.Name == "@archive" {
			target = filepath.Join(t.TempDir(), "pack.tgz")
			if err := os.WriteFile(target, buildArchive(t, f.Data), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		name, isLink := strings.CutSuffix(f.Name, "@symlink")
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if isLink {
			err := os.Symlink(strings.TrimSpace(f.Data), p)
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(f.Data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pk, err := pack.Load(target, lim)
	if err != nil {
		t.Fatal(err)
	}
	pk.Display = ""
	ds, err := Run(pk, opt)
	if err != nil {
		t.Fatal(err)
	}
	return keepRule(ds, rule)
}

func keepRule(ds []diag.Diagnostic, rule string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if rule == "" || d.Rule == rule {
			out = append(out, d)
		}
	}
	return out
}

// lintAgentFormatExample lints AgentFormat example files from memory.
func lintAgentFormatExample(t *testing.T, files []ExampleFile) []diag.Diagnostic {
	t.Helper()
	byName := map[string]string{}
	var names []string
	for _, f := range files {
		byName[f.Name] = f.Data
		names = append(names, f.Name)
	}
	src := agf.Source{
		Read: func(name string) ([]byte, error) {
			if d, ok := byName[name]; ok {
				return []byte(d), nil
			}
			return nil, fs.ErrNotExist
		},
		Display: func(name string) string { return name },
	}
	ds, err := AgentFormat(names, src, AgentFormatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func rewriteWant(t *testing.T, path string, raw, want []byte) {
	a := txtar.Parse(raw)
	for i := range a.Files {
		if a.Files[i].Name == "want" {
			a.Files[i].Data = want
		}
	}
	if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
		t.Fatal(err)
	}
}

// precisionRow is one rule's row of docs/rules-precision.csv: its findings
// on the registry checkout and how many were judged true.
type precisionRow struct {
	rule            string
	findings, right int
	note            string
}

func (r precisionRow) judged() string {
	if r.findings == 0 {
		return "no finding"
	}
	return fmt.Sprintf("%d of %d findings judged true (%s)", r.right, r.findings, r.precision())
}

// precision is the share of findings judged true, "-" for none.
func (r precisionRow) precision() string {
	if r.findings == 0 {
		return "-"
	}
	return fmt.Sprintf("%d%%", 100*r.right/r.findings)
}

// readPrecision reads docs/rules-precision.csv, the numbers the integrator
// updates after judging a rule's findings again; a row must name a rule
// and judge no more findings true than there are.
func readPrecision(t *testing.T) map[string]precisionRow {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "docs", "rules-precision.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment, r.FieldsPerRecord = '#', 4
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("docs/rules-precision.csv: %v", err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], []string{"rule", "findings", "true", "note"}) {
		t.Fatalf("docs/rules-precision.csv: the first row is not the header rule,findings,true,note")
	}
	rows := map[string]precisionRow{}
	for _, rec := range recs[1:] {
		n, errN := strconv.Atoi(rec[1])
		k, errK := strconv.Atoi(rec[2])
		switch {
		case Lookup(rec[0]) == nil:
			t.Errorf("docs/rules-precision.csv: no rule %q", rec[0])
		case errN != nil || errK != nil || k < 0 || k > n:
			t.Errorf("docs/rules-precision.csv: %s: %s of %s findings judged true", rec[0], rec[2], rec[1])
		case rows[rec[0]].rule != "":
			t.Errorf("docs/rules-precision.csv: %s has two rows", rec[0])
		}
		rows[rec[0]] = precisionRow{rule: rec[0], findings: n, right: k, note: rec[3]}
	}
	return rows
}

// precisionTable is docs/rules.md's table of the judged rules, by id.
func precisionTable(rows map[string]precisionRow) string {
	var b strings.Builder
	b.WriteString("\n## Precision on the registry checkout\n\n")
	b.WriteString("Each judged rule's findings on the registry checkout (89 packs of openwop-registry, `wop pack lint --info --catalog packs packs`), each judged by hand against the packs' code, the registry's history, the spec and the reference host, so a maintainer knows what a rule's findings are worth. Rules without a row have not been judged. The numbers live in [rules-precision.csv](rules-precision.csv).\n\n")
	b.WriteString("| rule | findings | judged true | precision | note |\n|---|---|---|---|---|\n")
	for _, id := range slices.Sorted(maps.Keys(rows)) {
		r := rows[id]
		fmt.Fprintf(&b, "| [%s](#%s) | %d | %d | %s | %s |\n", id, id, r.findings, r.right, r.precision(), strings.ReplaceAll(r.note, "|", "\\|"))
	}
	return b.String()
}

// TestRulesDoc keeps docs/rules.md in step with the registry and catalog.
func TestRulesDoc(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Lint rules\n\nGenerated from `internal/lint` (`go test ./internal/lint -update`); `wop pack lint --explain ID` prints the same.\n")
	b.WriteString("To switch a rule off, change its severity or ignore its findings in some files, see [config.md](config.md).\n")
	b.WriteString("The `agf-*` rules check AgentFormat (`*.agf.yaml`) files: `wop agf lint` applies them, and `wop pack lint` applies them to such files inside a pack.\n\n| id | severity | since | summary |\n|---|---|---|---|\n")
	for _, r := range All() {
		summary := r.Summary
		if r.Deprecated != "" {
			summary = fmt.Sprintf("deprecated (%s), replaced by %s: %s", r.Deprecated, r.ReplacedBy, summary)
		}
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s |\n", r.ID, r.ID, r.Severity, r.Since, strings.ReplaceAll(summary, "|", "\\|"))
	}
	rows := readPrecision(t)
	b.WriteString(precisionTable(rows))
	for _, r := range All() {
		if r.Deprecated != "" {
			continue
		}
		doc, err := Explain(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s (%s)\n\n%s\n\n%s\n", r.ID, r.Summary, r.Severity, strings.TrimSpace(doc.Prose), r.ConfigNote())
		if row, ok := rows[r.ID]; ok {
			fmt.Fprintf(&b, "\nOn the registry checkout: %s ([precision](#precision-on-the-registry-checkout)).\n", row.judged())
		}
		fmt.Fprintf(&b, "\nwop says about the bad example:\n\n```\n%s```\n", doc.Want)
	}
	path := filepath.Join("..", "..", "docs", "rules.md")
	if golden.Update() {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != b.String() {
		t.Errorf("docs/rules.md is stale: go test ./internal/lint -update")
	}
}

// buildArchive makes a .tgz from lines "name=data", "name@symlink=target"
// and "name@char=", writing names verbatim (legacy "./" included) with
// archive/tar, which can produce the shapes wop's own writer refuses.
func buildArchive(t *testing.T, spec string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, line := range strings.Split(strings.TrimSpace(spec), "\n") {
		name, data, _ := strings.Cut(line, "=")
		hdr := &tar.Header{Name: name, Mode: 0o644, Typeflag: tar.TypeReg, Size: int64(len(data)), Format: tar.FormatGNU}
		if n, ok := strings.CutSuffix(name, "@symlink"); ok {
			hdr = &tar.Header{Name: n, Typeflag: tar.TypeSymlink, Linkname: data, Format: tar.FormatGNU}
			data = ""
		} else if n, ok := strings.CutSuffix(name, "@char"); ok {
			hdr = &tar.Header{Name: n, Typeflag: tar.TypeChar, Format: tar.FormatGNU}
		}
		if strings.HasPrefix(name, "./") {
			hdr.Uid, hdr.Uname = 501, "dev"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestOneMistakeOneFinding: where a specific rule explains a schema failure,
// manifest-schema stays silent about it (claimedElsewhere).
func TestOneMistakeOneFinding(t *testing.T) {
	for _, id := range []string{"semver-invalid", "engines-range-invalid", "system-prompt-xor", "skill-profile-violation",
		"agent-id-host-namespace", "name-scope-local", "declarative-kind-has-runtime", "kind-unknown",
		"v2-kind-required", "v2-signing-block"} {
		t.Run(id, func(t *testing.T) {
			doc, err := Explain(id)
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Spec: spec.Tree(doc.Spec)}
			if own := lintExampleWith(t, doc.Bad, tarball.DefaultLimits, id, opt); len(own) == 0 {
				t.Fatalf("%s does not fire on its bad example", id)
			}
			if dup := lintExampleWith(t, doc.Bad, tarball.DefaultLimits, "manifest-schema", opt); len(dup) > 0 {
				t.Errorf("manifest-schema repeats it: %+v", dup)
			}
		})
	}
}

// SARIF's rule help comes from the catalogue: every current lint rule has
// prose (a deprecated rule's entry went with its check).
func TestInfosWithDocsCarryCatalogueProse(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range All() {
		ids[r.ID] = true
	}
	for _, info := range InfosWithDocs() {
		if ids[info.ID] && info.Doc == "" && info.Deprecated == "" {
			t.Errorf("%s: no catalogue prose for SARIF help", info.ID)
		}
	}
	for _, info := range Infos() {
		if info.Doc != "" {
			t.Errorf("%s: Infos parsed the catalogue; only InfosWithDocs may", info.ID)
		}
	}
}
