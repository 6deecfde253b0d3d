package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/cmd/wop/internal/root"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

// TestMain lets the test binary run as `wop` inside scripts, so every
// `exec wop` is a real process with real argv, environment and exit status.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"wop": func() { os.Exit(root.Main(context.Background(), os.Args[1:], cli.System("test"))) },
	})
}

func TestScript(t *testing.T) {
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       golden.Update(),
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			e.Setenv("HOME", e.WorkDir)
			e.Setenv("EXAMPLES", examples)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"gen-bomb":   genBomb,
			"gen-deep":   genDeep,
			"gen-sparse": genSparse,
		},
	})
}

// genBomb writes a small .tgz that inflates to N MiB of zeros inside one
// tar entry claiming a huge size: `gen-bomb FILE MIB`.
func genBomb(ts *testscript.TestScript, neg bool, args []string) {
	mib, _ := strconv.Atoi(args[1])
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	hdr := make([]byte, 512)
	copy(hdr, "pack.json")
	copy(hdr[124:], "77777777777\x00") // 8 GiB - 1
	copy(hdr[257:], "ustar\x0000")
	copy(hdr[148:], "        ")
	sum := 0
	for _, b := range hdr {
		sum += int(b)
	}
	copy(hdr[148:], fmt.Sprintf("%06o\x00 ", sum))
	zw.Write(hdr)
	zero := make([]byte, 1<<20)
	for range mib {
		zw.Write(zero)
	}
	zw.Close()
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf.Bytes(), 0o644))
}

// genDeep writes a JSON file nested N levels deep: `gen-deep FILE N`.
func genDeep(ts *testscript.TestScript, neg bool, args []string) {
	n, _ := strconv.Atoi(args[1])
	ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(args[0])), 0o755))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Repeat("[", n)), 0o644))
}

// genSparse makes a sparse file of SIZE bytes: `gen-sparse FILE SIZE`.
func genSparse(ts *testscript.TestScript, neg bool, args []string) {
	size, _ := strconv.ParseInt(args[1], 10, 64)
	p := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
	f, err := os.Create(p)
	ts.Check(err)
	ts.Check(f.Truncate(size))
	ts.Check(f.Close())
}
