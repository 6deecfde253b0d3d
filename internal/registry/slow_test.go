package registry

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowLine is a client's uplink of rate bytes per second: writes leave in
// tenths of a second's worth, and after blackholeAfter bytes (0: never)
// nothing leaves at all, as when a network path dies without a reset.
type slowLine struct {
	net.Conn
	rate, blackholeAfter int
	sent                 int
	closed               chan struct{}
	once                 sync.Once
}

func (c *slowLine) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if c.blackholeAfter > 0 && c.sent >= c.blackholeAfter {
			<-c.closed
			return written, net.ErrClosed
		}
		n := min(len(p), max(c.rate/10, 1))
		time.Sleep(100 * time.Millisecond)
		m, err := c.Conn.Write(p[:n])
		written, c.sent, p = written+m, c.sent+m, p[m:]
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

func (c *slowLine) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// slowLineTransport is the production stack (stall watchdog over an
// http.Transport) dialling through a slowLine.
func slowLineTransport(stall time.Duration, rate, blackholeAfter int) http.RoundTripper {
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &slowLine{Conn: c, rate: rate, blackholeAfter: blackholeAfter, closed: make(chan struct{})}, nil
	}
	return &stallTransport{stall: stall, base: &http.Transport{DialContext: dial, ResponseHeaderTimeout: 10 * time.Second, ExpectContinueTimeout: time.Second}}
}

// sink is a registry that reads the whole body and answers 201.
func sink(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err == nil {
			w.WriteHeader(http.StatusCreated)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func body(size int) PutBody {
	return PutBody{Size: int64(size), Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(strings.Repeat("x", size))), nil }}
}

// TestSlowUploadSucceeds is the "90 s upload at 40 KB/s" with the
// duration scaled down to keep the suite fast: 448 KB at 64 KB/s takes
// about 7 s, seven times the 1 s stall timeout, as 90 s is longer than
// the 60 s whole-request timeout wop had. It succeeds because nothing
// bounds the whole request, only the wait for the next byte; the same
// upload under an http.Client whose Timeout is shorter than the upload
// (the old design) fails, so the test would catch a regression.
func TestSlowUploadSucceeds(t *testing.T) {
	if testing.Short() {
		t.Skip("takes about 7 s")
	}
	const rate, size, stall = 64 << 10, 448 << 10, time.Second // a 1 s stall limit: a loaded CI machine can pause a goroutine for half that
	srv := sink(t)
	c := newClient(t, Options{Registry: srv.URL, Token: "slow-line-token", Transport: slowLineTransport(stall, rate, 0)})
	start := time.Now()
	resp, err := c.Put(context.Background(), "/v1/packs/a/-/1.0.0.tgz", body(size))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("slow upload failed after %s: %v", time.Since(start), err)
	}
	if took := time.Since(start); took < 6*stall {
		t.Fatalf("the upload took %s: too fast to prove anything", took)
	}

	old := &http.Client{Timeout: 2 * time.Second, Transport: slowLineTransport(0, rate, 0)}
	req, _ := http.NewRequest(http.MethodPut, srv.URL+"/v1/packs/a/-/1.0.0.tgz", strings.NewReader(strings.Repeat("x", size)))
	if resp, err := old.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("a whole-request timeout shorter than the upload did not fail it: the test proves nothing")
	}
}

// TestStalledUploadFails: an upload whose bytes stop leaving ends after the
// stall timeout, as a timeout (which is retried).
func TestStalledUploadFails(t *testing.T) {
	srv := sink(t)
	c := newClient(t, Options{Registry: srv.URL, Transport: slowLineTransport(300*time.Millisecond, 1<<20, 64<<10), MaxAttempts: 2})
	start := time.Now()
	_, err := c.Put(context.Background(), "/v1/packs/a/-/1.0.0.tgz", body(1<<20))
	var se *StallError
	if !errors.As(err, &se) || se.What != "upload" || !strings.Contains(err.Error(), "no byte moved for 300ms") {
		t.Fatalf("err = %v", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s", took)
	}
}

// TestStalledAnswerFails: an answer whose body stops coming ends too.
func TestStalledAnswerFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		io.WriteString(w, "{")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	c := newClient(t, Options{Registry: srv.URL, Transport: slowLineTransport(300*time.Millisecond, 1<<20, 0)})
	_, err := c.Get(context.Background(), DiscoveryPath, GetOptions{})
	var se *StallError
	if !errors.As(err, &se) || se.What != "answer" {
		t.Fatalf("err = %v", err)
	}
}
