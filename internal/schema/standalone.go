package schema

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wop-cli/wop/internal/regex"
)

// CompileStandalone compiles one schema document that must stand on its
// own (an AgentFormat interface schema): JSON Schema 2020-12 unless it says
// otherwise, no file or network access. Patterns are ECMAScript: one that
// uses a feature RE2 lacks is accepted unchecked rather than called invalid.
// It returns nil when the document compiles, else every reason it does not.
func (s *Set) CompileStandalone(doc any) []CompileError {
	const url = "urn:wop:standalone"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{}) // refuse every URL
	c.UseRegexpEngine(ecmaPatterns)
	if err := c.AddResource(url, doc); err != nil {
		return []CompileError{{Message: err.Error()}}
	}
	if _, err := c.Compile(url); err != nil {
		return s.describeCompileError(url, doc, err)
	}
	return nil
}

// ecmaPatterns compiles a pattern with RE2, standing in a matcher that
// accepts everything for one RE2 cannot check. Only compiling uses it: wop
// never validates data against these schemas.
func ecmaPatterns(expr string) (jsonschema.Regexp, error) {
	re, lacks, err := regex.Compile(expr)
	switch {
	case err != nil:
		return nil, err
	case lacks != "":
		return unchecked(expr), nil
	}
	return re, nil
}

// unchecked is a pattern RE2 cannot evaluate.
type unchecked string

func (u unchecked) MatchString(string) bool { return true }
func (u unchecked) String() string          { return string(u) }
