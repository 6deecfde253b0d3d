package stage

import (
	"bytes"
	"strings"

	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/registry"
)

// Bounds on what a step's output leaves in memory: a gate may print
// megabytes (a verbose build log, a runaway loop), and only its end, its
// last gate heading and the registry error codes it named are reported.
const (
	// tailBytes is the most of the output's end kept for the error.
	tailBytes = 16 << 10
	// maxLine is the longest line scanned for a heading or an error code;
	// the rest of a longer line is shown only if it is at the output's end.
	maxLine = 4 << 10
	// maxHintText bounds the lines kept because they name an error code.
	maxHintText = 64 << 10
)

// outputWatcher is a step's combined stdout and stderr: it keeps the last
// tailBytes and, line by line as the output streams, the last gate heading
// and the lines naming a registry error code, so memory stays bounded
// however much the step prints. exec.Cmd calls Write from one goroutine
// at a time when Stdout and Stderr are the same writer.
type outputWatcher struct {
	tail     []byte
	written  int64  // bytes written in all
	line     []byte // the current line, up to maxLine bytes
	heading  string
	hintText strings.Builder
}

func (w *outputWatcher) Write(p []byte) (int, error) {
	w.written += int64(len(p))
	w.keepTail(p)
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			w.addToLine(rest)
			break
		}
		w.addToLine(rest[:i])
		w.endLine()
		rest = rest[i+1:]
	}
	return len(p), nil
}

// keepTail appends p and drops all but the last tailBytes, copying only
// when the buffer has grown to twice that.
func (w *outputWatcher) keepTail(p []byte) {
	if len(p) >= tailBytes {
		w.tail = append(w.tail[:0], p[len(p)-tailBytes:]...)
		return
	}
	w.tail = append(w.tail, p...)
	if len(w.tail) > 2*tailBytes {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-tailBytes:]...)
	}
}

func (w *outputWatcher) addToLine(p []byte) {
	if room := maxLine - len(w.line); room > 0 {
		w.line = append(w.line, p[:min(room, len(p))]...)
	}
}

// endLine scans a finished line the way the whole output used to be
// scanned: for a gate heading and for registry error codes.
func (w *outputWatcher) endLine() {
	line := string(w.line)
	w.line = w.line[:0]
	if h := gateHeading().FindString(line); h != "" {
		w.heading = strings.TrimSpace(h)
	}
	if registry.HintsIn(line, "") != "" && w.hintText.Len()+len(line) < maxHintText {
		w.hintText.WriteString(line)
		w.hintText.WriteByte('\n')
	}
}

// finish scans an unterminated last line.
func (w *outputWatcher) finish() {
	if len(w.line) > 0 {
		w.endLine()
	}
}

// hints is the fix for each error code the output named, in the order of
// their first mention, its commands as invoked runs them.
func (w *outputWatcher) hints(invoked invocation.Name) string {
	return registry.HintsIn(w.hintText.String(), invoked)
}

// lastLines is the output's end, a partial first line dropped when the
// kept tail starts mid-line.
func (w *outputWatcher) lastLines() string {
	s := string(w.tail[max(0, len(w.tail)-tailBytes):])
	if w.written > int64(len(s)) {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return s
}
