// Command wop-graphviz is wop's layout helper (internal/graphviz): one
// JSON request with a DOT graph on stdin, one JSON answer with the SVG on
// stdout. wop runs it only to draw, so no other command loads Graphviz.
package main

import "github.com/wop-cli/wop/internal/graphviz/engine"

// version is set at release time by -ldflags "-X main.version=...".
var version = "dev"

func main() { engine.Main(version) }
