package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function under cmd/ may be (issue 27: a
// command parses flags, calls one internal entry point, and prints).
const maxFuncLines = 60

// maxCmdLines is the most non-test Go cmd/ may hold (issue 27): logic
// lives in internal/ packages, not in the commands.
const maxCmdLines = 3000

// goFile is one non-test Go file under cmd/, parsed.
type goFile struct {
	rel   string // relative to cmd/wop/internal (or cmd/ for the mains)
	pkg   string // its directory
	lines int
	ast   *ast.File
}

func parseCmd(t *testing.T, fset *token.FileSet) []goFile {
	t.Helper()
	var files []goFile
	root := ".." // cmd/
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join("..", "wop", "internal"), path)
		files = append(files, goFile{rel: filepath.ToSlash(rel), pkg: filepath.Dir(path), lines: strings.Count(string(src), "\n"), ast: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(files, func(f goFile) bool { return filepath.ToSlash(f.pkg) == "../wop" }) {
		t.Fatalf("walked %d files under %s without cmd/wop/main.go: the measures below would hold of nothing", len(files), root)
	}
	return files
}

// funcLines is how many lines a declaration spans, braces included.
func funcLines(fset *token.FileSet, fn *ast.FuncDecl) int {
	return fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
}

// crossFileUses lists, per package, the pairs "a.go -> b.go" where a.go
// uses a top-level name declared in b.go (a bare name the parser could not
// resolve inside a.go, or a method called by name): the dependencies
// between a command package's files. mutual are the pairs that run both
// ways.
func crossFileUses(files []goFile) (uses, mutual []string) {
	declared := map[string]string{}  // pkg + "." + name -> file
	methods := map[string][]string{} // pkg + "." + method name -> files
	fields := map[string]bool{}      // pkg + "." + struct field name
	for _, f := range files {
		for _, d := range f.ast.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				methods[f.pkg+"."+fd.Name.Name] = append(methods[f.pkg+"."+fd.Name.Name], f.rel)
				continue
			}
			for _, name := range declNames(d) {
				if name != "_" {
					declared[f.pkg+"."+name] = f.rel
				}
			}
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok {
				for _, fl := range st.Fields.List {
					for _, name := range fl.Names {
						fields[f.pkg+"."+name.Name] = true
					}
				}
			}
			return true
		})
	}
	seen := map[[2]string][]string{} // the names used
	for _, f := range files {
		keys := map[*ast.Ident]bool{} // composite literal keys name fields
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok {
					keys[id] = true
				}
			case *ast.SelectorExpr:
				// A method called by name; a name that is also a field, or
				// a method of this file, is too ambiguous to count.
				owners := methods[f.pkg+"."+x.Sel.Name]
				if !fields[f.pkg+"."+x.Sel.Name] && !slices.Contains(owners, f.rel) {
					for _, owner := range owners {
						use(seen, f.rel, owner, x.Sel.Name)
					}
				}
				ast.Inspect(x.X, func(m ast.Node) bool { return inspectIdent(m, f, declared, keys, seen) })
				return false
			}
			return inspectIdent(n, f, declared, keys, seen)
		})
	}
	for k, names := range seen {
		uses = append(uses, k[0]+" -> "+k[1])
		if back, ok := seen[[2]string{k[1], k[0]}]; ok && k[0] < k[1] {
			mutual = append(mutual, fmt.Sprintf("%s <-> %s (%s; %s)", k[0], k[1], strings.Join(names, " "), strings.Join(back, " ")))
		}
	}
	slices.Sort(uses)
	slices.Sort(mutual)
	return uses, mutual
}

// use records that file from uses name, declared in to.
func use(seen map[[2]string][]string, from, to, name string) {
	k := [2]string{from, to}
	if !slices.Contains(seen[k], name) {
		seen[k] = append(seen[k], name)
	}
}

func inspectIdent(n ast.Node, f goFile, declared map[string]string, keys map[*ast.Ident]bool, seen map[[2]string][]string) bool {
	id, ok := n.(*ast.Ident)
	if !ok || id.Obj != nil || keys[id] {
		return true
	}
	if owner, ok := declared[f.pkg+"."+id.Name]; ok && owner != f.rel {
		use(seen, f.rel, owner, id.Name)
	}
	return true
}

// declNames are the top-level names a declaration introduces (methods as
// their name: they are what another file calls).
func declNames(d ast.Decl) []string {
	switch x := d.(type) {
	case *ast.FuncDecl:
		return []string{x.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, s := range x.Specs {
			switch sp := s.(type) {
			case *ast.TypeSpec:
				names = append(names, sp.Name.Name)
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					names = append(names, n.Name)
				}
			}
		}
		return names
	}
	return nil
}

// TestCmdShape measures cmd/ (run with -v to see the figures) and holds
// every function to maxFuncLines, and every pair of files to using each
// other one way at most.
func TestCmdShape(t *testing.T) {
	fset := token.NewFileSet()
	files := parseCmd(t, fset)
	total := 0
	type fn struct {
		name  string
		lines int
	}
	var funcs []fn
	for _, f := range files {
		total += f.lines
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := f.rel + ":" + fd.Name.Name
			if fd.Recv != nil {
				name = f.rel + ":" + types(fd.Recv.List[0].Type) + "." + fd.Name.Name
			}
			n := funcLines(fset, fd)
			funcs = append(funcs, fn{name, n})
			if n > maxFuncLines {
				t.Errorf("%s is %d lines, over %d: move its logic into internal/", name, n, maxFuncLines)
			}
		}
	}
	slices.SortFunc(funcs, func(a, b fn) int { return b.lines - a.lines })
	t.Logf("cmd/: %d lines of non-test Go in %d files", total, len(files))
	if total > maxCmdLines {
		t.Errorf("cmd/ holds %d lines of non-test Go, over %d: move a command's logic into internal/", total, maxCmdLines)
	}
	for _, f := range funcs[:min(8, len(funcs))] {
		t.Logf("  %4d  %s", f.lines, f.name)
	}
	uses, mutual := crossFileUses(files)
	t.Logf("files of one command package using each other's names: %d uses, %d both ways", len(uses), len(mutual))
	for _, u := range mutual {
		t.Logf("  %s", u)
		a, rest, _ := strings.Cut(u, " <-> ")
		b, _, _ := strings.Cut(rest, " ")
		t.Errorf("%s and %s use each other: one of them should only be used", a, b)
	}
}

func types(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return types(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}
