package jsfacts

import (
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Bounds: many times any real executor (the registry's largest entries are
// tens of kilobytes), a fraction of a second of work.
const (
	// MaxSource is the largest source analysed; a larger one yields no facts.
	MaxSource  = 1 << 20
	maxDepth   = 200     // bracket nesting, and operator chains within a statement
	maxSteps   = 1 << 18 // expressions and statements visited, per node
	maxTotal   = 1 << 22 // and for the whole file: past it, no more nodes are claimed
	maxCalls   = 32      // nested calls into the pack's own functions
	maxModules = 16      // modules of the pack an entry's imports lead to
)

// shallow reports whether src's nesting stays within maxDepth: brackets,
// and the operators the parser descends into one level each (a = b = c,
// a ? b : c ? ..., !!!x, x => y => z), counted per statement. The parser
// recurses on both, so a hostile source could otherwise exhaust the stack.
func shallow(src []byte) bool {
	l := js.NewLexer(parse.NewInputBytes([]byte(string(src))))
	depth, chain := 0, 0
	for {
		tt, data := l.Next()
		switch {
		case tt == js.ErrorToken:
			return true // the end, or a lexing error the parser reports
		case tt == js.TemplateStartToken:
			depth++
		case tt == js.TemplateEndToken:
			depth--
		}
		if !js.IsPunctuator(tt) && !js.IsOperator(tt) {
			if depth > maxDepth {
				return false
			}
			continue
		}
		switch string(data) {
		case "(", "[", "{":
			depth++
			chain = 0
		case ")", "]", "}":
			depth--
			chain = 0
		case ";", ",":
			chain = 0
		default:
			chain++
		}
		if depth > maxDepth || chain > maxDepth {
			return false
		}
	}
}

// step counts one unit of work; past the budget the analysis stops and
// claims nothing.
func (a *analysis) step() bool {
	a.steps++
	if a.steps > maxSteps {
		a.exhausted = true
	}
	return !a.exhausted
}
