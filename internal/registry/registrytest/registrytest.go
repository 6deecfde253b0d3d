// Package registrytest is an in-process OpenWOP registry for tests: the
// discovery document, the read side and the write API of FORMAT.md §5 with
// its error catalogue, plus fault injection as a hostile network would do
// it: dropped connections, 503 with Retry-After, 501, slow answers and
// throttled reads, HTML error pages from a "proxy", redirected uploads,
// a 401 that echoes the credentials, discovery documents naming other
// origins or listing a key twice. Recorder is the "other server" such
// answers point to: it notes everything it is sent.
package registrytest

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

// Key is a signing key the registry accepts.
type Key struct {
	Public     ed25519.PublicKey
	Namespaces []string
	Status     string
}

// Faults make the next requests misbehave; each counter is consumed once
// per affected request.
type Faults struct {
	DropMidBody int           // PUTs whose connection is closed halfway through the body
	Unavailable int           // PUTs answered 503 with Retry-After: 1
	TooMany     int           // PUTs answered 429
	Slow        time.Duration // delay before answering any request
	HTML413     bool          // PUTs answered by an HTML 413 page

	NotImplemented       int    // PUTs answered 501
	DiscoveryUnavailable int    // discovery GETs answered 503 with Retry-After: 1
	RedirectPut          int    // PUTs answered with this redirect status ...
	RedirectTo           string // ... to this Location (the path is appended)
	EchoAuth             bool   // 401 answers echo the request's Authorization header
	// RefuseCode, when set, answers every PUT with RefuseStatus and this
	// error code, as a v2 registry refusing the pack does.
	RefuseCode   string
	RefuseStatus int
	// ReadRate throttles the reading of PUT bodies to this many bytes per
	// second, as a slow uplink does (0: as fast as possible).
	ReadRate int
}

// Discovery overrides what the discovery document says.
type Discovery struct {
	Endpoints map[string]string     // replace endpoint templates, e.g. "versionTarball"
	KeyURLs   map[string]string     // keyId -> publicKeyUrl
	ExtraKeys []registry.SigningKey // appended to signingKeys as they are (duplicates too)
}

// Server is the fake registry. Lock-free fields must not be changed while
// requests are in flight; use the methods.
type Server struct {
	*httptest.Server
	mu        sync.Mutex
	token     string
	grants    []string // namespaces the token may publish to; empty = all
	keys      map[string]Key
	versions  map[string]map[string][]byte // name -> version -> tgz
	yanked    map[string]bool              // name@version
	faults    Faults
	puts      int
	received  int64 // PUT body bytes read
	disc      Discovery
	writeAPI  bool
	maxUpload int64
}

// New starts a registry on loopback that accepts token and has a write API.
func New(token string) *Server {
	s := &Server{token: token, keys: map[string]Key{}, versions: map[string]map[string][]byte{}, yanked: map[string]bool{}, writeAPI: true, maxUpload: 50 << 20}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// AddKey registers a signing key.
func (s *Server) AddKey(id string, k Key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k.Status == "" {
		k.Status = "active"
	}
	s.keys[id] = k
}

// KeyOf returns the registered key id (zero Key if none).
func (s *Server) KeyOf(id string) Key {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys[id]
}

// SetFaults replaces the pending faults.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

// SetDiscovery replaces the discovery document's overrides.
func (s *Server) SetDiscovery(d Discovery) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.disc = d
}

// Received is the number of PUT body bytes the registry read, over all PUTs.
func (s *Server) Received() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.received
}

// SetWriteAPI turns the write API on or off (off: like packs.openwop.dev).
func (s *Server) SetWriteAPI(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeAPI = on
}

// Grant limits the token to namespaces ("community.acme.*").
func (s *Server) Grant(ns ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.grants = ns
}

// Puts is the number of PUT requests received, whatever their answer.
func (s *Server) Puts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.puts
}

// Versions lists the published versions of name.
func (s *Server) Versions(name string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for v := range s.versions[name] {
		out = append(out, v)
	}
	return out
}

// Publish stores a version directly, as if published earlier.
func (s *Server) Publish(name, version string, tgz []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.versions[name] == nil {
		s.versions[name] = map[string][]byte{}
	}
	s.versions[name][version] = tgz
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	slow := s.faults.Slow
	s.mu.Unlock()
	if slow > 0 {
		select {
		case <-time.After(slow):
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case r.URL.Path == registry.DiscoveryPath && s.take(&s.faults.DiscoveryUnavailable):
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusServiceUnavailable, "unavailable", "try again")
	case r.URL.Path == registry.DiscoveryPath:
		s.discovery(w)
	case strings.HasPrefix(r.URL.Path, "/keys/"):
		s.key(w, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/keys/"), ".pub"))
	case strings.HasPrefix(r.URL.Path, "/v1/packs/"):
		s.pack(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) discovery(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []registry.SigningKey
	for id, k := range s.keys {
		keys = append(keys, registry.SigningKey{KeyID: id, Algorithm: "ed25519", PublicKeyURL: cmp.Or(s.disc.KeyURLs[id], "/keys/"+id+".pub"), PermittedNamespaces: k.Namespaces, Status: k.Status})
	}
	keys = append(keys, s.disc.ExtraKeys...)
	endpoints := map[string]string{"versionManifest": "/v1/packs/{name}/-/{version}.json", "versionTarball": "/v1/packs/{name}/-/{version}.tgz",
		"packMetadata": "/v1/packs/{name}/index.json", "publicKey": "/keys/{keyId}.pub"}
	maps.Copy(endpoints, s.disc.Endpoints)
	doc := map[string]any{
		"name": "test registry", "url": s.URL,
		"supportedNamespaces": []string{"core", "vendor", "community"},
		"endpoints":           endpoints,
		"signingKeys":         keys,
		"writeApi":            map[string]any{"supported": s.writeAPI, "publishMethod": map[bool]string{true: "http-put", false: "github-pull-request"}[s.writeAPI]},
	}
	writeJSON(w, http.StatusOK, doc)
}

func (s *Server) key(w http.ResponseWriter, id string) {
	s.mu.Lock()
	k, ok := s.keys[id]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, nil)
		return
	}
	der, _ := x509.MarshalPKIXPublicKey(k.Public)
	w.Write(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// pack serves /v1/packs/{name}/-/{version}.(json|tgz) and the PUT.
func (s *Server) pack(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/v1/packs/")
	if name, ok := strings.CutSuffix(rest, "/index.json"); ok && r.Method == http.MethodGet {
		s.metadata(w, name)
		return
	}
	name, file, ok := strings.Cut(rest, "/-/")
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch {
	case r.Method == http.MethodPut && strings.HasSuffix(file, ".tgz"):
		s.put(w, r, name, strings.TrimSuffix(file, ".tgz"))
	case r.Method == http.MethodGet && strings.HasSuffix(file, ".json"):
		s.getManifest(w, name, strings.TrimSuffix(file, ".json"))
	case r.Method == http.MethodGet && strings.HasSuffix(file, ".tgz"):
		s.mu.Lock()
		tgz, ok := s.versions[name][strings.TrimSuffix(file, ".tgz")]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(tgz)
	default:
		http.NotFound(w, r)
	}
}

// metadata serves a pack's index.json: its versions with integrity and
// tarball URL, as the public registry does.
func (s *Server) metadata(w http.ResponseWriter, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.versions[name]) == 0 {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
		return
	}
	var versions []map[string]any
	for v, tgz := range s.versions[name] {
		versions = append(versions, map[string]any{"version": v, "tarballUrl": "/v1/packs/" + name + "/-/" + v + ".tgz",
			"integrity": integrity(tgz), "yanked": s.yanked[name+"@"+v]})
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": name, "versions": versions})
}

// Yank marks a published version yanked in the pack metadata.
func (s *Server) Yank(name, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.yanked[name+"@"+version] = true
}

func (s *Server) getManifest(w http.ResponseWriter, name, version string) {
	s.mu.Lock()
	tgz, ok := s.versions[name][version]
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
		return
	}
	m := map[string]any{"name": name, "version": version}
	if a, err := tarball.Read(bytes.NewReader(tgz), tarball.DefaultLimits); err == nil {
		if e, ok := a.Find("pack.json"); ok {
			json.Unmarshal(e.Data, &m)
		}
	}
	m["integrity"] = integrity(tgz)
	writeJSON(w, http.StatusOK, m)
}

func integrity(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"error": code, "message": msg})
}

// take consumes one count of a fault counter.
func (s *Server) take(n *int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if *n > 0 {
		*n--
		return true
	}
	return false
}

// takeFault consumes one pending PUT fault.
func (s *Server) takeFault() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	switch {
	case s.faults.RedirectPut != 0:
		return "redirect"
	case s.faults.NotImplemented > 0:
		s.faults.NotImplemented--
		return "501"
	case s.faults.DropMidBody > 0:
		s.faults.DropMidBody--
		return "drop"
	case s.faults.Unavailable > 0:
		s.faults.Unavailable--
		return "503"
	case s.faults.TooMany > 0:
		s.faults.TooMany--
		return "429"
	case s.faults.HTML413:
		return "html413"
	case s.faults.RefuseCode != "":
		return "refuse"
	}
	return ""
}

func (s *Server) put(w http.ResponseWriter, r *http.Request, name, version string) {
	switch s.takeFault() {
	case "redirect":
		s.mu.Lock()
		status, to := s.faults.RedirectPut, s.faults.RedirectTo
		s.mu.Unlock()
		w.Header().Set("Location", to+r.URL.Path)
		w.WriteHeader(status)
		return
	case "501":
		fail(w, http.StatusNotImplemented, "not_implemented", "no uploads here")
		return
	case "drop":
		io.CopyN(io.Discard, r.Body, r.ContentLength/2)
		hijackAndClose(w)
		return
	case "503":
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusServiceUnavailable, "unavailable", "try again")
		return
	case "429":
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusTooManyRequests, "rate_limited", "slow down")
		return
	case "refuse":
		io.Copy(io.Discard, r.Body)
		s.mu.Lock()
		status, code := s.faults.RefuseStatus, s.faults.RefuseCode
		s.mu.Unlock()
		fail(w, status, code, "refused by the test registry")
		return
	case "html413":
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		io.WriteString(w, "<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>")
		return
	}
	// Credentials are checked before the body is read, as registries do:
	// a client that sent "Expect: 100-continue" then sends no body at all.
	if status, code, msg := s.authorize(r, name); status != 0 {
		s.mu.Lock()
		echo := s.faults.EchoAuth
		s.mu.Unlock()
		if echo {
			msg += " (got " + r.Header.Get("Authorization") + ")"
		}
		fail(w, status, code, msg)
		return
	}
	body, err := s.readBody(r)
	if err != nil {
		return
	}
	if int64(len(body)) > s.maxUpload {
		fail(w, http.StatusRequestEntityTooLarge, "tarball_too_large", "over the upload limit")
		return
	}
	status, code, msg := s.accept(r, name, version, body)
	if status >= 300 {
		fail(w, status, code, msg)
		return
	}
	writeJSON(w, status, map[string]string{"name": name, "version": version, "integrity": integrity(body)})
}

// readBody reads a PUT body, at ReadRate if set, counting the bytes.
func (s *Server) readBody(r *http.Request) ([]byte, error) {
	s.mu.Lock()
	rate := s.faults.ReadRate
	s.mu.Unlock()
	src := io.LimitReader(r.Body, s.maxUpload+1)
	var buf bytes.Buffer
	chunk := int64(32 << 10)
	tick := time.Duration(0)
	if rate > 0 { // ten reads a second
		chunk, tick = int64(max(rate/10, 1)), 100*time.Millisecond
	}
	for {
		n, err := io.CopyN(&buf, src, chunk)
		s.mu.Lock()
		s.received += n
		s.mu.Unlock()
		if err == io.EOF {
			return buf.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		time.Sleep(tick)
	}
}

func (s *Server) authorize(r *http.Request, name string) (int, string, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return http.StatusUnauthorized, "unauthorized", "missing bearer token"
	}
	if auth != "Bearer "+s.token {
		return http.StatusUnauthorized, "unauthorized", "invalid token"
	}
	if len(s.grants) > 0 {
		for _, g := range s.grants {
			if registry.Covers(g, name) {
				return 0, "", ""
			}
		}
		return http.StatusForbidden, "forbidden", "token has no rights on " + name
	}
	return 0, "", ""
}

// accept validates an upload as a registry would and stores it.
func (s *Server) accept(r *http.Request, name, version string, body []byte) (int, string, string) {
	if got := r.Header.Get("X-Pack-Sha256"); got != integrity(body) {
		return http.StatusBadRequest, "pack_integrity_failure", fmt.Sprintf("header %s, body %s", got, integrity(body))
	}
	a, err := tarball.Read(bytes.NewReader(body), tarball.DefaultLimits)
	if err != nil {
		return http.StatusBadRequest, "tarball_gunzip_failed", err.Error()
	}
	if len(a.Refused()) > 0 {
		return http.StatusBadRequest, "tarball_path_traversal", a.Refused()[0].Message
	}
	e, ok := a.Find("pack.json")
	if !ok {
		return http.StatusBadRequest, "tarball_manifest_missing", "no pack.json"
	}
	doc, err := canon.Parse(e.Data)
	if err != nil {
		return http.StatusBadRequest, "tarball_manifest_not_json", err.Error()
	}
	if doc.Root.Get("name").String() != name {
		return http.StatusBadRequest, "manifest_name_mismatch", "name differs from the URL"
	}
	if doc.Root.Get("version").String() != version {
		return http.StatusBadRequest, "manifest_version_mismatch", "version differs from the URL"
	}
	if code, msg := s.checkSignature(doc.Root.Get("signing").Get("publicKeyRef").String(), a, e.Data); code != "" {
		return http.StatusBadRequest, code, msg
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.versions[name][version]; ok {
		if bytes.Equal(old, body) {
			return http.StatusOK, "", ""
		}
		return http.StatusConflict, "version_conflict", "this version exists with other bytes"
	}
	if s.versions[name] == nil {
		s.versions[name] = map[string][]byte{}
	}
	s.versions[name][version] = body
	return http.StatusCreated, "", ""
}

func (s *Server) checkSignature(keyID string, a *tarball.Archive, manifest []byte) (string, string) {
	if keyID == "" {
		return "signature_required", "the pack is not signed"
	}
	s.mu.Lock()
	k, ok := s.keys[keyID]
	s.mu.Unlock()
	sig, _ := a.Find(sign.SignatureEntry)
	if !ok || sign.Verify(k.Public, manifest, sig.Data) != nil {
		return "pack_signature_invalid", "signature does not verify with " + keyID
	}
	return "", ""
}

// hijackAndClose drops the connection without an answer, as a crashed
// proxy or a network cut would.
func hijackAndClose(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			if tc, ok := conn.(*net.TCPConn); ok {
				tc.SetLinger(0)
			}
			conn.Close()
		}
	}
}
