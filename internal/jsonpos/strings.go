package jsonpos

// StringValues calls fn with every string value of src, decoded, in
// document order; member names are not values and are skipped. It reads src
// once without building a tree, for callers that want only the strings (the
// lint cache's key names the catalog ids a pack mentions), and it does not
// validate: for a document Parse accepts it yields exactly the string values
// of Parse's tree (FuzzStringValues). It stops at the first string literal
// it cannot read and reports false; the strings before it were yielded.
func StringValues(src []byte, fn func(string)) bool {
	s := &scanner{src: src}
	for s.pos < len(src) {
		if src[s.pos] != '"' {
			s.pos++
			continue
		}
		str, ok := s.string()
		if !ok {
			return false
		}
		s.space()
		if s.pos < len(src) && src[s.pos] == ':' {
			continue // a member name
		}
		fn(str)
	}
	return true
}
