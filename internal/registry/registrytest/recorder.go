package registrytest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// Request is what a Recorder was sent.
type Request struct {
	Method, Path  string
	Authorization string
	BodyBytes     int64
}

// Recorder is the other server a hostile registry points wop to (a
// redirect target, an endpoint on another origin). It notes every request
// and answers as a naive server would: 200 with "{}" to anything, so a
// client that trusted it would believe it had succeeded.
type Recorder struct {
	*httptest.Server
	mu   sync.Mutex
	seen []Request
}

// NewRecorder starts a Recorder on loopback over http.
func NewRecorder() *Recorder {
	r := &Recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	return r
}

// NewTLSRecorder starts a Recorder on loopback over https, with a
// certificate no client trusts unless given the server's pool.
func NewTLSRecorder() *Recorder {
	r := &Recorder{}
	r.Server = httptest.NewTLSServer(http.HandlerFunc(r.serve))
	return r
}

// Seen returns the requests received so far.
func (r *Recorder) Seen() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.seen...)
}

func (r *Recorder) serve(w http.ResponseWriter, req *http.Request) {
	n, _ := io.Copy(io.Discard, req.Body)
	r.mu.Lock()
	r.seen = append(r.seen, Request{Method: req.Method, Path: req.URL.Path, Authorization: req.Header.Get("Authorization"), BodyBytes: n})
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, "{}")
}
