package packcmd

import "embed"

// helpFiles are the commands' long help texts (cli.LongHelp): prose kept
// out of the code that parses flags.
//
//go:embed help/*.txt
var helpFiles embed.FS
