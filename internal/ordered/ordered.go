// Package ordered records what a job running beside others prints, so that
// jobs finishing in any order print one after another, each whole, in the
// order they were started (a many-pack build's output in argument order).
package ordered

import (
	"bytes"
	"io"
	"sync"
)

// Log records what one job writes to its standard output and error, in
// order. The zero Log is ready to use.
type Log struct {
	mu     sync.Mutex
	chunks []chunk
}

type chunk struct {
	toErr bool
	data  []byte
}

// Writers are the job's standard output and error, writing into the log.
func (l *Log) Writers() (out, errOut io.Writer) {
	return writer{l, false}, writer{l, true}
}

// Replay writes what was recorded to out and errOut, in order, and
// forgets it.
func (l *Log) Replay(out, errOut io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.chunks {
		w := out
		if c.toErr {
			w = errOut
		}
		w.Write(c.data)
	}
	l.chunks = nil
}

type writer struct {
	l     *Log
	toErr bool
}

func (w writer) Write(b []byte) (int, error) {
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	if n := len(w.l.chunks); n > 0 && w.l.chunks[n-1].toErr == w.toErr {
		w.l.chunks[n-1].data = append(w.l.chunks[n-1].data, b...)
	} else {
		w.l.chunks = append(w.l.chunks, chunk{w.toErr, bytes.Clone(b)})
	}
	return len(b), nil
}
