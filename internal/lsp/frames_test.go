package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// TestHugeContentLength: a header declaring 2 GB ends the session at once
// with the reason; jsonrpc2 alone would allocate 2 GB and wait for it.
func TestHugeContentLength(t *testing.T) {
	for name, header := range map[string]string{
		"2 GB":                "Content-Length: 2147483647\r\n\r\n{",
		"endless header line": "Content-Type: " + strings.Repeat("x", 2*maxHeader),
	} {
		t.Run(name, func(t *testing.T) {
			a, b := net.Pipe()
			defer b.Close()
			served := make(chan error, 1)
			go func() { served <- Serve(context.Background(), a, Options{Env: testEnv("/", io.Discard)}) }()
			go func() { _, _ = b.Write([]byte(header)) }()
			select {
			case err := <-served:
				var fe *FrameError
				if !errors.As(err, &fe) {
					t.Fatalf("Serve = %v, want a FrameError", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Serve still reading after an oversized header")
			}
		})
	}
}

// TestSecondHeaderInOneWrite: a normal message and an oversized header
// arriving in one write (one read of the stream holds both) pass the first
// on and refuse the second: every header is checked, not the first only.
func TestSecondHeaderInOneWrite(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	first := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	for name, second := range map[string]string{
		"2 GB":                "Content-Length: 2147483647\r\n\r\n{",
		"endless header line": "Content-Type: " + strings.Repeat("x", 2*maxHeader),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := io.ReadAll(newFrameGuard(bytes.NewReader([]byte(first + second))))
			var fe *FrameError
			if string(got) != first || !errors.As(err, &fe) {
				t.Errorf("passed on %d bytes (%.100q), %v; want the %d of the first message, then a FrameError", len(got), got, err, len(first))
			}

			a, b := net.Pipe()
			defer b.Close()
			served := make(chan error, 1)
			go func() { served <- Serve(context.Background(), a, Options{Env: testEnv("/", io.Discard)}) }()
			go func() { _, _ = b.Write([]byte(first + second)) }()
			go func() { _, _ = io.Copy(io.Discard, b) }() // the initialize reply
			select {
			case err := <-served:
				if !errors.As(err, &fe) {
					t.Fatalf("Serve = %v, want a FrameError", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Serve still reading after an oversized second header")
			}
		})
	}
}

// TestFrameGuardPassesMessages: messages within the limits come through
// byte for byte, however the reads split them.
func TestFrameGuardPassesMessages(t *testing.T) {
	in := "Content-Length: 2\r\n\r\n{}Content-Type: x\r\nContent-Length: 5\r\n\r\n[1,2]"
	got, err := io.ReadAll(io.LimitReader(newFrameGuard(iotestOneByte{strings.NewReader(in)}), int64(len(in))))
	if err != nil || string(got) != in {
		t.Errorf("read %q, %v; want %q", got, err, in)
	}
}

// iotestOneByte reads one byte at a time.
type iotestOneByte struct{ r io.Reader }

func (o iotestOneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }

// FuzzFrameGuard: the guard never changes a byte it passes on, and stops
// only with a FrameError or the stream's own end.
func FuzzFrameGuard(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n"))
	f.Add([]byte("garbage\n"))
	f.Add([]byte("Content-Length: 3\r\nX: y\r\n\r\nabcContent-Length: -1\r\n\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := io.ReadAll(newFrameGuard(bytes.NewReader(in)))
		var fe *FrameError
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("error %v is not a FrameError", err)
		}
		if !bytes.HasPrefix(in, got) {
			t.Fatalf("passed on %q, not a prefix of %q", got, in)
		}
		if err == nil && len(got) != len(in) && !bytes.Contains(in[len(got):], []byte("\n")) {
			t.Fatalf("stopped at %d of %d bytes without a reason", len(got), len(in))
		}
	})
}
