package packcmd

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// parsed is what a command's runF received.
type parsed struct {
	build   *buildOptions
	verify  *verifyOptions
	publish *publishOptions
}

// newCmd builds one command through its constructor with a runF that
// records the options instead of running.
func newCmd(name string, env *cli.Env, got *parsed) *cobra.Command {
	switch name {
	case "build":
		return newBuildCmd(env, func(_ context.Context, o *buildOptions) error { got.build = o; return nil })
	case "sign":
		return newSignCmd(env, func(_ context.Context, o *buildOptions) error { got.build = o; return nil })
	case "verify":
		return newVerifyCmd(env, func(_ context.Context, o *verifyOptions) error { got.verify = o; return nil })
	case "publish":
		return newPublishCmd(env, func(_ context.Context, o *publishOptions) error { got.publish = o; return nil })
	case "lint":
		return newLintCmd(env, func(context.Context, *lintOptions) error { return nil })
	}
	panic("no command " + name)
}

// TestFlagCombinations runs each command's flag parsing and validation
// through its constructor: combinations that must be refused are usage
// errors (exit 2) before anything is read, and accepted ones reach the
// command with the options set.
func TestFlagCombinations(t *testing.T) {
	tests := []struct {
		cmd     string
		args    []string
		env     map[string]string
		wantErr string // "" accepted
		check   func(*parsed) bool
	}{
		// build
		{cmd: "build", check: func(p *parsed) bool { return len(p.build.dirs) == 1 && p.build.dirs[0] == "." && p.build.outDir == "." }},
		{cmd: "build", args: []string{"a", "b", "-o", "dist", "--no-lint"}, check: func(p *parsed) bool {
			return len(p.build.dirs) == 2 && p.build.outDir == "dist" && p.build.noLint
		}},
		{cmd: "build", args: []string{"--dry-run"}, check: func(p *parsed) bool { return p.build.list }},
		// The key id may come from WOP_KEY_ID or .wop.yaml, so --key alone
		// parses; signing refuses it later if no id turns up.
		{cmd: "build", args: []string{"--key", "k.pem"}, check: func(p *parsed) bool { return p.build.keys.key == "k.pem" && p.build.keys.keyID == "" }},
		{cmd: "build", args: []string{"--key", "k.pem", "--key-id", "k", "--spec", "v3"}, wantErr: `--spec "v3": want auto, v1 or v2`},
		{cmd: "build", args: []string{"--key", "k.pem", "--key-id", "k", "--spec", "v2"}, check: func(p *parsed) bool { return p.build.keys.spec == "v2" }},
		{cmd: "build", args: []string{"--key", "k.pem", "--unsigned"}, wantErr: "none of the others can be"},
		{cmd: "build", args: []string{"--key", "k.pem", "--signature", "x.sig", "--key-id", "k"}, wantErr: "none of the others can be"},
		{cmd: "build", args: []string{"--sigstore", "--signature", "x.sig"}, wantErr: "none of the others can be"},
		{cmd: "build", args: []string{"--sigstore", "--unsigned"}, wantErr: "none of the others can be"},
		{cmd: "build", args: []string{"--sigstore"}, check: func(p *parsed) bool { return p.build.keys.sigstore.enabled }},
		{cmd: "build", args: []string{"--unsigned"}, check: func(p *parsed) bool { return p.build.keys.unsigned }},
		// sign
		{cmd: "sign", args: []string{"p"}, wantErr: "sign needs --key"},
		{cmd: "sign", wantErr: "accepts 1 arg"},
		{cmd: "sign", args: []string{"p", "--unsigned"}, wantErr: "sign needs --key"},
		{cmd: "sign", args: []string{"p.tgz", "--key", "k.pem", "--key-id", "k"}, check: func(p *parsed) bool {
			return p.build.dirs[0] == "p.tgz" && p.build.outDir == ""
		}},
		{cmd: "sign", args: []string{"p", "--sigstore"}, check: func(p *parsed) bool { return p.build.keys.sigstore.enabled }},
		// verify
		{cmd: "verify", wantErr: "accepts 1 arg"},
		{cmd: "verify", args: []string{"a.tgz", "--key", "k.pub", "--registry", "https://r"}, wantErr: "--key and --registry both name the key"},
		{cmd: "verify", args: []string{"a.tgz", "--registry", "https://r", "--integrity", "sha256-x", "--source", "src"}, check: func(p *parsed) bool {
			return p.verify.reg.url == "https://r" && p.verify.integrity == "sha256-x" && p.verify.source == "src"
		}},
		{cmd: "verify", args: []string{"1.0.0.json", "--key", "k.pub", "--signature", "1.0.0.sig"}, check: func(p *parsed) bool {
			return p.verify.archive == "1.0.0.json" && p.verify.signature == "1.0.0.sig"
		}},
		// publish
		{cmd: "publish", wantErr: "--registry URL is required"},
		{cmd: "publish", env: map[string]string{"WOP_REGISTRY": "https://env.example"}, check: func(p *parsed) bool {
			return p.publish.reg.url == "https://env.example" && p.publish.target == "."
		}},
		{cmd: "publish", args: []string{"--registry", "https://flag.example"}, env: map[string]string{"WOP_REGISTRY": "https://env.example"}, check: func(p *parsed) bool {
			return p.publish.reg.url == "https://flag.example"
		}},
		{cmd: "publish", args: []string{"--registry", "ftp://r"}, wantErr: "want an http(s) URL"},
		{cmd: "publish", args: []string{"--registry", "https://"}, wantErr: "want an http(s) URL"},
		{cmd: "publish", args: []string{"--registry", "https://r", "--format", "xml"}, wantErr: `--format "xml": want text or json`},
		{cmd: "publish", args: []string{"--registry", "https://r", "--spec", "v9"}, wantErr: `--spec "v9"`},
		{cmd: "publish", args: []string{"--registry", "https://r", "--key", "k.pem", "--unsigned"}, wantErr: "none of the others can be"},
		{cmd: "publish", args: []string{"a", "b", "--registry", "https://r"}, wantErr: "accepts at most 1 arg"},
		{cmd: "publish", args: []string{"p.tgz", "--registry", "https://r", "--dry-run", "--format", "json", "--retries", "0", "--timeout", "5s"}, check: func(p *parsed) bool {
			o := p.publish
			return o.target == "p.tgz" && o.dryRun && o.format == "json" && o.retries == 0 && o.timeout.Seconds() == 5 && o.outDir == "dist"
		}},
		// lint, whose runF already existed
		{cmd: "lint", args: []string{"--format", "xml"}, wantErr: `--format "xml"`},
	}
	for _, tt := range tests {
		t.Run(tt.cmd+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			env := &cli.Env{Out: &out, ErrOut: &out, Getenv: func(k string) string { return tt.env[k] }, WorkDir: t.TempDir()}
			got := &parsed{}
			cmd := newCmd(tt.cmd, env, got)
			cmd.SetArgs(tt.args)
			cmd.SetOut(&out)
			cmd.SetErr(&out)
			cmd.SilenceUsage, cmd.SilenceErrors = true, true
			err := cmd.ExecuteContext(context.Background())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				var usage *cli.UsageError
				if !errors.As(err, &usage) && !strings.Contains(err.Error(), "arg") && !strings.Contains(err.Error(), "none of the others") {
					t.Errorf("err %v is not a usage error (exit 2)", err)
				}
				if *got != (parsed{}) {
					t.Error("the command ran despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil && !tt.check(got) {
				t.Errorf("options not as given: %+v", got)
			}
		})
	}
}
