package lint

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/regex"
)

// This file reads a JavaScript node executor the way the node rules need
// it: which code implements a typeId, which host surfaces that code reaches
// (directly, through a destructured ctx, or through a helper it hands ctx
// to), and whether it copes with a missing input. It is a scanner, not a
// parser: it knows strings, comments and brackets, and the forms hosts'
// executors are written in (a nodes map of typeId keys, methods, arrow and
// function helpers). What it cannot follow it does not claim.

// hostSurfaces are the ctx members through which a node reaches the host:
// the reference host's executor context (openwop-app-install,
// backend/typescript/src/executor/executor.ts) and the host.* surfaces of
// spec/v1/host-capabilities.md. ctx.emit, ctx.inputs, ctx.config and the
// interrupt primitives are not among them: they do not make a node's output
// depend on anything but its input.
var hostSurfaces = []string{
	"a2a", "agentRuntime", "aiEnvelope", "brand", "callAI", "callAIWithTools",
	"callImageGenerator", "callSpeechSynthesizer", "callTranscriber", "callVideoGenerator",
	"campaignMessaging", "canvas", "chat", "coordination", "db", "entities", "features",
	"fs", "http", "kanban", "knowledge", "launchStudio", "mcp", "memory", "messaging",
	"queueBus", "secrets", "storage", "variables", "webResearch",
}

// executor is a JavaScript entry's source with its top-level definitions.
// budget bounds the bytes its scans may read in all: crafted sources
// (thousands of brackets that never close) would otherwise cost time
// quadratic in their size; once spent, scans stop and claim nothing more.
type executor struct {
	src    string
	defs   map[string]jsDef
	budget int
}

// scanBudget is what one executor's scans may read: many times any real
// entry, a fraction of a second of work.
const scanBudget = 32 << 20

// spend takes n bytes of scanning from the budget and reports whether any
// was left.
func (x *executor) spend(n int) bool {
	x.budget -= n
	return x.budget > 0
}

// jsDef is a top-level function or const: its parameter list (the text
// between the parentheses, "" when it is no function) and its whole text.
type jsDef struct {
	params string
	code   string
}

var (
	jsFuncDecl  = regex.Lazy(`(?:^|[^\w$.])(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(`)
	jsConstDecl = regex.Lazy(`(?:^|[^\w$.])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*`)
	jsIdent     = regex.Lazy(`[A-Za-z_$][\w$]*`)
	// jsFuncHead finds where a value is a function: `function (p`,
	// `async (p`, `(p) =>`, `p =>`, or a method `name(p) {`.
	jsArrowIdent = regex.Lazy(`^(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>`)
	jsFuncParams = regex.Lazy(`^(?:async\s+)?(?:function\s*\*?\s*[\w$]*\s*)?\(`)
	jsMethod     = regex.Lazy(`(?:^|[{,;\s])(?:async\s+)?(?:execute|run|handler|invoke)\s*(?::\s*(?:async\s+)?(?:function\s*[\w$]*\s*)?)?\(`)
	jsFuncForm   = regex.Lazy(`(?:^|[^\w$.])function\s*\*?\s*[\w$]*\s*\(`)
	jsCallHead   = regex.Lazy(`^\s*([A-Za-z_$][\w$]*)\s*\(`)
	jsMethodRef  = regex.Lazy(`(?:^|[{,;\s])(?:execute|run|handler|invoke)\s*:\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*(?:=>)?`)
)

// executorSource reads the pack's JavaScript runtime entry ("" when the
// pack has none, or it is not in the pack).
func executorSource(p *Pass) string {
	rt := p.Root().Get("runtime")
	if rt.Get("language").String() != "javascript" {
		return ""
	}
	name := path.Clean(rt.Get("entry").String())
	if t, _ := resolve(p, name); t != targetFile {
		return ""
	}
	src, err := p.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(src)
}

// packExecutor is the pack's executor ("" source when there is none),
// parsed once per pass. Each caller gets its own scan budget over the shared
// definitions, so what one rule finds never depends on which rule ran first.
func packExecutor(p *Pass) *executor {
	if p.executor == nil {
		p.executor = parseExecutor(executorSource(p))
	}
	x := *p.executor
	x.budget = scanBudget
	return &x
}

// parseExecutor finds src's top-level function and const definitions.
func parseExecutor(src string) *executor {
	x := &executor{src: src, defs: map[string]jsDef{}, budget: scanBudget}
	if src == "" {
		return x
	}
	for _, m := range jsFuncDecl().FindAllStringSubmatchIndex(src, -1) {
		open := m[1] - 1
		closeParen := x.matchBracket(src, open)
		if closeParen < 0 {
			continue
		}
		body := skipSpace(src, closeParen+1)
		if body >= len(src) || src[body] != '{' {
			continue
		}
		end := x.matchBracket(src, body)
		if end < 0 {
			continue
		}
		start := m[0]
		if !isIdentByte(src[start]) {
			start++ // the character before the declaration
		}
		x.add(src[m[2]:m[3]], jsDef{params: src[open+1 : closeParen], code: src[start : end+1]})
	}
	for _, m := range jsConstDecl().FindAllStringSubmatchIndex(src, -1) {
		end := x.exprEnd(src, m[1])
		value := src[m[1]:end]
		x.add(src[m[2]:m[3]], jsDef{params: x.funcParams(value), code: value})
	}
	return x
}

// add keeps the first definition of a name: a nested redefinition of the
// same name is usually a shadowing local, not the top-level one.
func (x *executor) add(name string, d jsDef) {
	if _, seen := x.defs[name]; !seen {
		x.defs[name] = d
	}
}

// funcParams returns the parameter list of a function value, or "" when
// value is no function.
func (x *executor) funcParams(value string) string {
	value = strings.TrimSpace(value)
	if m := jsArrowIdent().FindStringSubmatch(value); m != nil {
		return m[1]
	}
	if loc := jsFuncParams().FindStringIndex(value); loc != nil {
		if end := x.matchBracket(value, loc[1]-1); end > 0 {
			rest := strings.TrimSpace(value[end+1:])
			if strings.HasPrefix(rest, "=>") || strings.HasPrefix(rest, "{") {
				return value[loc[1]:end]
			}
		}
	}
	return ""
}

// implementation returns the text that implements typeID in the nodes map
// ("'<typeId>': value" or an object with typeId: '<typeId>'), or "".
func (x *executor) implementation(typeID string) string {
	if x.src == "" || typeID == "" || !x.spend(len(x.src)) {
		return ""
	}
	for _, q := range []string{`'`, `"`, "`"} {
		key := q + typeID + q
		for from := 0; ; {
			i := strings.Index(x.src[from:], key)
			if i < 0 {
				break
			}
			at := skipSpace(x.src, from+i+len(key))
			from += i + len(key)
			if at < len(x.src) && x.src[at] == ':' {
				return x.src[at+1 : x.exprEnd(x.src, at+1)]
			}
			if obj := x.enclosingObject(x.src, from-len(key), "typeId"); obj != "" {
				return obj
			}
		}
	}
	return ""
}

// enclosingObject returns the innermost {...} around position at when the
// text just before at is `member:` (an array entry { typeId: 'x', ... }).
func (x *executor) enclosingObject(src string, at int, member string) string {
	before := strings.TrimRight(src[:at], " \t\r\n")
	if !strings.HasSuffix(before, ":") || !strings.HasSuffix(strings.TrimRight(before[:len(before)-1], " \t\r\n"), member) {
		return ""
	}
	depth := 0
	for i := at - 1; i >= 0; i-- {
		switch src[i] {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				if end := x.matchBracket(src, i); end > at {
					return src[i : end+1]
				}
				return ""
			}
			depth--
		}
	}
	return ""
}

// surfaces returns the host surfaces the implementation of typeID reaches,
// sorted (empty when the executor has no such implementation or it reaches
// none).
func (x *executor) surfaces(typeID string) []string {
	impl := x.implementation(typeID)
	if impl == "" {
		return nil
	}
	found := map[string]bool{}
	x.implSurfaces(impl, found, map[string]bool{})
	out := make([]string, 0, len(found))
	for s := range found {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// implSurfaces collects what a node implementation reaches: its own
// functions' first parameters are ctx, and a definition it names without
// calling (execute: runIt) is an implementation too.
func (x *executor) implSurfaces(code string, found, seen map[string]bool) {
	aliases := []string{"ctx"}
	if ps := x.funcParams(code); ps != "" {
		aliases = x.appendParam(aliases, found, ps, 0, code)
	}
	for _, re := range []*regexp.Regexp{jsMethod(), jsFuncForm()} {
		for _, m := range re.FindAllStringIndex(code, -1) {
			if end := x.matchBracket(code, m[1]-1); end > 0 {
				aliases = x.appendParam(aliases, found, code[m[1]:end], 0, code)
			}
		}
	}
	if m := jsCallHead().FindStringSubmatch(code); m != nil {
		x.defSurfaces(m[1], -1, found, seen) // 'typeId': makeNode('kind'), a factory
	}
	for _, m := range jsMethodRef().FindAllStringSubmatch(code, -1) {
		x.defSurfaces(m[1], -1, found, seen)
	}
	if name := strings.TrimSpace(code); jsIdent().FindString(name) == name {
		x.defSurfaces(name, -1, found, seen) // 'typeId': runIt
	}
	x.codeSurfaces(code, aliases, found, seen)
}

// defSurfaces follows a definition whose parameter at index arg receives
// ctx (-1: a node implementation named by reference).
func (x *executor) defSurfaces(name string, arg int, found, seen map[string]bool) {
	d, ok := x.defs[name]
	key := name + "#" + strconv.Itoa(arg)
	if !ok || seen[key] || len(seen) > 256 {
		return
	}
	seen[key] = true
	if arg < 0 {
		x.implSurfaces(d.code, found, seen)
		return
	}
	aliases := x.appendParam(nil, found, d.params, arg, d.code)
	if len(aliases) > 0 {
		x.codeSurfaces(d.code, aliases, found, seen)
	}
}

// appendParam adds parameter i of a parameter list to aliases; a
// destructured parameter ({ db, inputs }) names its surfaces outright, and
// the methods code calls on its other members ({ dataIntegration }).
func (x *executor) appendParam(aliases []string, found map[string]bool, params string, i int, code string) []string {
	ps := x.splitTopLevel(params)
	if i >= len(ps) {
		return aliases
	}
	p := strings.TrimSpace(ps[i])
	if strings.HasPrefix(p, "{") {
		x.boundCalls(code, x.destructured(p, found), found)
		return aliases
	}
	if name, _, _ := strings.Cut(p, "="); jsIdent().MatchString(strings.TrimSpace(name)) {
		return append(aliases, strings.TrimSpace(name))
	}
	return aliases
}

// destructured records the surfaces a pattern { a, b: c, ...rest } takes,
// and returns the names it binds to the context's other members that are
// not its data (local name -> member: { dataIntegration: di } gives
// di -> dataIntegration), whose method calls reach the host as hostCall's do.
func (x *executor) destructured(pattern string, found map[string]bool) map[string]string {
	pattern = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(pattern), "{"), "}")
	var bound map[string]string
	for _, part := range x.splitTopLevel(pattern) {
		key, local, renamed := strings.Cut(part, ":")
		if !renamed {
			local = key
		}
		key, _, _ = strings.Cut(key, "=")
		local, _, _ = strings.Cut(local, "=")
		key, local = strings.TrimSpace(key), strings.TrimSpace(local)
		switch {
		case slices.Contains(hostSurfaces, key):
			found[key] = true
		case isContextMember(key) && jsIdent().FindString(local) == local:
			if bound == nil {
				bound = map[string]string{}
			}
			bound[local] = key
		}
	}
	return bound
}

// boundCalls records "member.method()" for each call code makes through a
// name a destructuring bound to a context member (see destructured).
func (x *executor) boundCalls(code string, bound map[string]string, found map[string]bool) {
	if len(bound) == 0 || !x.spend(len(code)) {
		return
	}
	eachVariable(code, func(start, end int) {
		if member, ok := bound[code[start:end]]; ok {
			if method, at := memberAfter(code, end); method != "" && callAt(code, at) {
				found[member+"."+method+"()"] = true
			}
		}
	})
}

// eachVariable calls fn with the start and end of every name in code that
// can be a variable: outside string literals and comments, not a member
// (.name) and not a number.
func eachVariable(code string, fn func(start, end int)) {
	for i := 0; i < len(code); {
		if j := skipLiteral(code, i); j > i {
			i = j
			continue
		}
		if !isIdentByte(code[i]) {
			i++
			continue
		}
		start, end := i, i
		for end < len(code) && isIdentByte(code[end]) {
			end++
		}
		i = end
		if start > 0 && code[start-1] == '.' || code[start] >= '0' && code[start] <= '9' {
			continue // a member name or a number, not a variable
		}
		fn(start, end)
	}
}

// codeSurfaces finds uses of ctx (under any of its alias names) in code:
// alias.surface, const { surface } = alias, and helper(alias) calls.
func (x *executor) codeSurfaces(code string, aliases []string, found, seen map[string]bool) {
	if !x.spend(len(code)) {
		return
	}
	// Names bound to context members, from every declaration: their calls
	// are looked for in one more pass, however many there are.
	bound := map[string]string{}
	eachVariable(code, func(start, end int) {
		word := code[start:end]
		if slices.Contains(aliases, word) {
			if s, _ := memberAfter(code, end); slices.Contains(hostSurfaces, s) {
				found[s] = true
			} else if call := hostCall(code, end); call != "" {
				found[call] = true
			} else if local, member := assignedMember(code, start, end); local != "" {
				bound[local] = member
			}
			if open := lastDestructure(code[:start]); open >= 0 {
				names := x.destructured(code[open:start], found)
				if m, _ := memberAfter(code, end); m == "" { // = ctx itself, not = ctx.inputs
					maps.Copy(bound, names)
				}
			}
			return
		}
		x.helperCall(code, word, end, aliases, found, seen)
	})
	x.boundCalls(code, bound, found)
}

// helperCall follows a call of a top-level definition (word, ending at
// end) that is handed ctx under one of its aliases.
func (x *executor) helperCall(code, word string, end int, aliases []string, found, seen map[string]bool) {
	if _, isDef := x.defs[word]; !isDef {
		return
	}
	at := skipSpace(code, end)
	if at >= len(code) || code[at] != '(' {
		return
	}
	closeParen := x.matchBracket(code, at)
	if closeParen < 0 {
		return
	}
	for n, arg := range x.splitTopLevel(code[at+1 : closeParen]) {
		if slices.Contains(aliases, strings.TrimSpace(arg)) {
			x.defSurfaces(word, n, found, seen)
		}
	}
}

// memberAfter returns the member name read right after position i
// (".name", "?.name", "['name']" or "?.['name']"), or "", and where the
// member ends.
func memberAfter(code string, i int) (name string, end int) {
	i = skipSpace(code, i)
	optional := strings.HasPrefix(code[i:], "?.")
	if optional {
		i = skipSpace(code, i+2)
	}
	if i < len(code) && code[i] == '[' {
		return bracketMember(code, i)
	}
	if !optional {
		if i >= len(code) || code[i] != '.' {
			return "", i
		}
		i = skipSpace(code, i+1)
	}
	if loc := jsIdent().FindStringIndex(code[i:]); loc != nil && loc[0] == 0 {
		return code[i : i+loc[1]], i + loc[1]
	}
	return "", i
}

// bracketMember reads a member named by a string literal, ['name'] or
// ["name"], at code[open] == '['; a computed one ([key]) is no name.
func bracketMember(code string, open int) (name string, end int) {
	i := skipSpace(code, open+1)
	if i >= len(code) || code[i] != '\'' && code[i] != '"' {
		return "", open
	}
	quote := code[i]
	loc := jsIdent().FindStringIndex(code[i+1:])
	if loc == nil || loc[0] != 0 {
		return "", open
	}
	name, i = code[i+1:i+1+loc[1]], i+1+loc[1]
	if i >= len(code) || code[i] != quote {
		return "", open
	}
	if i = skipSpace(code, i+1); i >= len(code) || code[i] != ']' {
		return "", open
	}
	return name, i + 1
}

// assignedMember reads `const local = ctx.member` around a ctx alias at
// code[start:end]: a declaration giving a context member that is not its
// data (isContextMember) a name of its own, whose method calls reach the
// host as hostCall's do. It returns "" unless the whole initialiser is
// that member.
func assignedMember(code string, start, end int) (local, member string) {
	member, after := memberAfter(code, end)
	if !isContextMember(member) {
		return "", ""
	}
	next := skipSpace(code, after)
	if next < len(code) && !strings.ContainsRune(";,)}", rune(code[next])) &&
		(strings.ContainsRune(".?[(", rune(code[next])) || !strings.Contains(code[after:next], "\n")) {
		return "", "" // ctx.member.more, ctx.member(...), ctx.member || x; a line break ends it (ASI)
	}
	if local = declaredName(code[:start]); local == "" {
		return "", ""
	}
	return local, member
}

// declaredName returns name when before ends with `const name =` (let,
// var), right before an initialiser; "" otherwise. It reads backwards, a
// few bytes, whatever the length of before.
func declaredName(before string) string {
	i := len(strings.TrimRight(before, " \t\r\n"))
	if i == 0 || before[i-1] != '=' || i > 1 && strings.IndexByte("=!<>+-*/%&|^?", before[i-2]) >= 0 {
		return ""
	}
	end := len(strings.TrimRight(before[:i-1], " \t\r\n"))
	start := end
	for start > 0 && isIdentByte(before[start-1]) {
		start--
	}
	if start == end || before[start] >= '0' && before[start] <= '9' {
		return ""
	}
	kwEnd := len(strings.TrimRight(before[:start], " \t\r\n"))
	if kwEnd == start {
		return "" // no space between keyword and name
	}
	for _, kw := range []string{"const", "let", "var"} {
		if k := kwEnd - len(kw); k >= 0 && before[k:kwEnd] == kw && (k == 0 || !isIdentByte(before[k-1])) {
			return before[start:end]
		}
	}
	return ""
}

// ctxData are the executor context's members that carry the run's own data
// (its input, configuration, trigger and ids) or touch nothing the output
// depends on (logging, cancellation): a method called on them is no call
// into the host.
var ctxData = []string{"inputs", "input", "config", "triggerData", "state", "signal", "log", "logger", "console"}

// hostCall returns "name.method()" when code at i (right after a ctx alias)
// calls a method through a member of the context that is not its data:
// ctx.dataIntegration.transform(...) reaches the host whatever the host
// calls that member, so a pure node's answer would depend on it. Members
// named like ids (nodeId, runId) are data too.
func hostCall(code string, i int) string {
	name, end := memberAfter(code, i)
	if name == "" || !isContextMember(name) {
		return ""
	}
	method, end := memberAfter(code, end)
	if method == "" || !callAt(code, end) {
		return ""
	}
	return name + "." + method + "()"
}

// isContextMember says whether a ctx member is neither the run's data nor
// an id (see ctxData), so a method called through it reaches the host.
func isContextMember(name string) bool {
	return name != "" && !slices.Contains(ctxData, name) && !strings.HasSuffix(name, "Id") && !strings.HasSuffix(name, "ID")
}

// callAt reports whether code at i (after a member name) calls it: "(" or
// "?.(".
func callAt(code string, i int) bool {
	at := skipSpace(code, i)
	if strings.HasPrefix(code[at:], "?.") {
		at = skipSpace(code, at+2)
	}
	return at < len(code) && code[at] == '('
}

// lastDestructure returns where a `{ ... } =` pattern ending right before
// the end of before starts, or -1: `const { db, http } = ctx`.
func lastDestructure(before string) int {
	t := strings.TrimRight(before, " \t\r\n")
	t = strings.TrimSuffix(t, "await")
	t = strings.TrimRight(t, " \t\r\n")
	if !strings.HasSuffix(t, "=") || strings.HasSuffix(t, "==") || strings.HasSuffix(t, "=>") {
		return -1
	}
	t = strings.TrimRight(t[:len(t)-1], " \t\r\n")
	if !strings.HasSuffix(t, "}") {
		return -1
	}
	depth := 0
	for i := len(t) - 1; i >= 0; i-- {
		switch t[i] {
		case '}':
			depth++
		case '{':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// reachable returns the implementation of typeID and every definition it
// names, transitively: the code that runs when the node runs.
func (x *executor) reachable(typeID string) []string {
	impl := x.implementation(typeID)
	if impl == "" {
		return nil
	}
	out := []string{impl}
	seen := map[string]bool{}
	for i := 0; i < len(out) && len(out) < 256 && x.spend(len(out[i])); i++ {
		for _, w := range jsIdent().FindAllString(out[i], -1) {
			if d, ok := x.defs[w]; ok && !seen[w] {
				seen[w] = true
				out = append(out, d.code)
			}
		}
	}
	return out
}

// toleratesMissing reports whether the code that runs for typeID copes
// with input name being absent, and how: a fallback (x.name ?? y,
// x.name || y), a destructuring default ({ name = y }), or a check of its
// presence (Array.isArray(x.name), typeof x.name, if (!x.name)).
func (x *executor) toleratesMissing(typeID, name string) string {
	for _, code := range x.reachable(typeID) {
		if how := x.missingHandled(code, name); how != "" {
			return how
		}
	}
	return ""
}

func (x *executor) missingHandled(code, name string) string {
	if name == "" || !x.spend(len(code)) {
		return ""
	}
	for i := 0; ; {
		j := strings.Index(code[i:], name)
		if j < 0 {
			return ""
		}
		start, end := i+j, i+j+len(name)
		i = end
		if end < len(code) && isIdentByte(code[end]) || start > 0 && isIdentByte(code[start-1]) {
			continue
		}
		after := strings.TrimLeft(code[end:], " \t")
		if !strings.HasSuffix(code[:start], ".") {
			if strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "==") && !strings.HasPrefix(after, "=>") && x.insideDestructure(code, start) {
				return "gives " + name + " a default where it destructures its input"
			}
			continue
		}
		before := strings.TrimRight(code[:memberChainStart(code, start)], " \t")
		switch {
		case strings.HasPrefix(after, "??") || strings.HasPrefix(after, "||"):
			return "falls back when ." + name + " is missing (" + after[:2] + ")"
		case strings.HasSuffix(before, "Array.isArray(") || strings.HasSuffix(before, "typeof"):
			return "checks whether ." + name + " is there before it uses it"
		case strings.HasSuffix(before, "!") && strings.HasSuffix(strings.TrimRight(before[:len(before)-1], " \t"), "("):
			return "checks whether ." + name + " is there before it uses it"
		}
	}
}

// memberChainStart returns where the member chain (a.b?.c) that ends with
// the member starting at i begins.
func memberChainStart(code string, i int) int {
	for i > 0 && (isIdentByte(code[i-1]) || code[i-1] == '.' || code[i-1] == '?' && i < len(code) && code[i] == '.') {
		i--
	}
	return i
}

// insideDestructure reports whether position at lies in a { ... } that is
// followed by `= something` (a destructuring pattern with defaults).
func (x *executor) insideDestructure(code string, at int) bool {
	depth := 0
	for i := at - 1; i >= 0; i-- {
		switch code[i] {
		case '}':
			depth++
		case '{':
			if depth > 0 {
				depth--
				continue
			}
			end := x.matchBracket(code, i)
			if end < 0 {
				return false
			}
			rest := strings.TrimLeft(code[end+1:], " \t\r\n")
			return strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") && !strings.HasPrefix(rest, "=>")
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// matchBracket returns the index of the bracket closing the one at open
// ('(', '[' or '{'), skipping strings, template literals and comments; -1
// when it is not closed or the scan budget is spent.
func (x *executor) matchBracket(s string, open int) int {
	if x.budget <= 0 {
		return -1
	}
	depth, i := 0, open
	defer func() { x.spend(i - open + 1) }()
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
			if depth < 0 {
				return -1
			}
		default:
			if j := skipLiteral(s, i); j > i {
				i = j - 1
			}
		}
	}
	return -1
}

// exprEnd returns where the expression starting at start ends: at a
// top-level ',' or ';', or a bracket that closes an enclosing one (the end
// of s when the scan budget is spent).
func (x *executor) exprEnd(s string, start int) int {
	if x.budget <= 0 {
		return len(s)
	}
	depth, i := 0, start
	defer func() { x.spend(i - start + 1) }()
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return i
			}
			depth--
		case ',', ';':
			if depth == 0 {
				return i
			}
		default:
			if j := skipLiteral(s, i); j > i {
				i = j - 1
			}
		}
	}
	return len(s)
}

// skipLiteral returns the index after a string, template literal or
// comment starting at i, or i when none starts there. A template's ${...}
// parts are skipped with it.
func skipLiteral(s string, i int) int {
	switch c := s[i]; {
	case c == '"' || c == '\'' || c == '`':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case c:
				return j + 1
			case '\n':
				if c != '`' {
					return j + 1
				}
			}
		}
		return len(s)
	case c == '/' && i+1 < len(s) && s[i+1] == '/':
		if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			return i + j + 1
		}
		return len(s)
	case c == '/' && i+1 < len(s) && s[i+1] == '*':
		if j := strings.Index(s[i+2:], "*/"); j >= 0 {
			return i + 2 + j + 2
		}
		return len(s)
	}
	return i
}

// splitTopLevel splits a list at its top-level commas.
func (x *executor) splitTopLevel(list string) []string {
	var out []string
	for start := 0; ; {
		end := x.exprEnd(list, start)
		out = append(out, list[start:end])
		if end >= len(list) || list[end] != ',' {
			return out
		}
		start = end + 1
	}
}
