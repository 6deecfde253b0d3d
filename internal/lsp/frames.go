package lsp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// MaxMessage bounds one message's Content-Length: jsonrpc2 allocates the
// declared length before it reads a byte of the body, so a header saying
// 2 GB would cost 2 GB. A 5 MB buffer, JSON-escaped, fits many times over.
const MaxMessage = 64 << 20

// maxHeader bounds a message's header (its lines up to the blank one):
// jsonrpc2 reads a header line whole, however long, before it looks at it.
const maxHeader = 64 << 10

// FrameError is why the server stopped reading its client: a message or
// header over the limits above.
type FrameError struct{ Reason string }

func (e *FrameError) Error() string { return e.Reason }

// frameGuard passes the client's stream through unchanged, one message at
// a time, after reading each header and refusing one over the limits; a
// malformed header is passed on for jsonrpc2 to reject in its own words.
type frameGuard struct {
	in      *bufio.Reader
	pending []byte // the checked header, not yet passed on
	body    int64  // bytes of the current body not yet passed on
}

func newFrameGuard(r io.Reader) *frameGuard { return &frameGuard{in: bufio.NewReader(r)} }

func (g *frameGuard) Read(p []byte) (int, error) {
	if len(g.pending) == 0 && g.body == 0 {
		if err := g.readHeader(); err != nil {
			return 0, err
		}
	}
	if len(g.pending) > 0 {
		n := copy(p, g.pending)
		g.pending = g.pending[n:]
		return n, nil
	}
	n, err := g.in.Read(p[:min(int64(len(p)), g.body)])
	g.body -= int64(n)
	return n, err
}

// readHeader reads one header into g.pending and sets g.body to its
// Content-Length.
func (g *frameGuard) readHeader() error {
	var header []byte
	length := int64(0)
	for {
		line, err := g.in.ReadSlice('\n')
		header = append(header, line...)
		if len(header) > maxHeader {
			return &FrameError{Reason: fmt.Sprintf("a message header over %d bytes (the client is not speaking LSP)", maxHeader)}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(header) > 0 {
				g.pending = header // jsonrpc2 says what is wrong with it
				return nil
			}
			return err
		}
		name, value, found := bytes.Cut(bytes.TrimSpace(line), []byte(":"))
		if len(bytes.TrimSpace(line)) == 0 || !found {
			break // the end of the header, or a line jsonrpc2 rejects
		}
		if string(name) == "Content-Length" {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
			if err == nil && n > MaxMessage {
				return &FrameError{Reason: fmt.Sprintf("a message of %d bytes (its Content-Length) is over the %d MiB limit", n, MaxMessage>>20)}
			}
			if err == nil && n > 0 {
				length = n
			}
		}
	}
	g.pending, g.body = header, length
	return nil
}
