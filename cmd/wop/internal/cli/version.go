package cli

import "runtime/debug"

// Version is wop's version: the one injected at release time
// (-ldflags -X main.version=...), else the module version Go recorded in
// the binary (`go install github.com/wop-cli/wop/cmd/wop@v0.1.0` gives
// "v0.1.0"; a build in a checkout gives a pseudo-version, "+dirty" when
// modified), else "dev". readBuildInfo is debug.ReadBuildInfo outside tests.
func Version(injected string, readBuildInfo func() (*debug.BuildInfo, bool)) string {
	if injected != "" {
		return injected
	}
	if info, ok := readBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}
