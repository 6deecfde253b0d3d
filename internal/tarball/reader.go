package tarball

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// Limits are the size ceilings a reader enforces. The defaults are the public
// registry's; private registries may allow more.
type Limits struct {
	MaxEntry    int64 // one entry's size
	MaxManifest int64 // pack.json's size
	MaxTotal    int64 // sum of entry sizes (and the bound on inflation)
	// MaxEntries is how many entries (headers of any type) an archive, or
	// files a pack folder, may hold; zero means DefaultMaxEntries. A small
	// archive of empty entries costs nothing in bytes but work per entry
	// in every reader, so it needs its own ceiling.
	MaxEntries int
}

// DefaultMaxEntries is the entry ceiling when none is configured: real
// packs hold tens of files, and a reader handles this many in well under
// a second.
const DefaultMaxEntries = 10_000

// DefaultLimits are the public registry's ceilings (FORMAT.md §2), and
// wop's own entry ceiling.
var DefaultLimits = Limits{MaxEntry: 5 << 20, MaxManifest: 256 << 10, MaxTotal: 50 << 20, MaxEntries: DefaultMaxEntries}

// Entries is the entry ceiling in force: MaxEntries, or the default when
// it is not set (a Limits built field by field keeps a ceiling).
func (l Limits) Entries() int {
	if l.MaxEntries <= 0 {
		return DefaultMaxEntries
	}
	return l.MaxEntries
}

// TooManyEntriesError means an archive or pack folder holds more entries
// than Limits allow; reading stopped at the first one past the ceiling.
type TooManyEntriesError struct {
	Max int
}

func (e *TooManyEntriesError) Error() string {
	return fmt.Sprintf("more than %d entries (the entry ceiling, limits.entries); nothing past the ceiling was read", e.Max)
}

// Hint says what to do.
func (e *TooManyEntriesError) Hint() string {
	return "a pack holds tens of files; if this one really needs more, raise limits.entries in the pack's .wop.yaml"
}

// Entry is one regular file of an archive.
type Entry struct {
	Name string // normalised: a legacy "./" prefix removed
	Data []byte // nil when a Scan did not keep it
	Size int64
}

// Issue is something about the archive's structure that a reader tolerates
// (Refused false: legacy shapes) or refuses (Refused true).
type Issue struct {
	Rule    string // lint rule id, e.g. "archive-duplicate-entry"
	Entry   string // the entry's name as written in the archive; "" for the whole archive
	Message string
	Refused bool
}

// Archive is a read archive: its regular files in archive order and what was
// wrong with it.
type Archive struct {
	Entries []Entry
	Issues  []Issue
	// first indexes Entries by name (the first entry of each name): lint
	// reads every file through Find, and a linear search made that
	// quadratic in the entry count.
	first map[string]int
}

// ErrNotGzip means the input is not a gzip stream.
var ErrNotGzip = errors.New("not a gzip file (a .tgz starts with bytes 1f 8b)")

// ErrCorrupt means the archive is damaged or carries bytes outside its
// entries: a bad gzip checksum or length, a truncated stream, trailing data,
// a second gzip member, or content after the tar end-of-archive marker.
var ErrCorrupt = errors.New("corrupt archive")

// ErrTooLarge means the archive inflates past Limits.MaxTotal; reading
// stopped there, so a gzip bomb costs no more than the limit.
var ErrTooLarge = errors.New("archive inflates past the size limit")

// Refused returns the issues that make the archive unacceptable.
func (a *Archive) Refused() []Issue {
	var out []Issue
	for _, is := range a.Issues {
		if is.Refused {
			out = append(out, is)
		}
	}
	return out
}

// Find returns the first entry called name (installers verify the first).
func (a *Archive) Find(name string) (Entry, bool) {
	i, ok := a.first[name]
	if !ok {
		return Entry{}, false
	}
	return a.Entries[i], true
}

// add appends an entry, indexing it when it is the first of its name.
func (a *Archive) add(e Entry) {
	if _, ok := a.first[e.Name]; !ok {
		a.first[e.Name] = len(a.Entries)
	}
	a.Entries = append(a.Entries, e)
}

// Read reads a gzip-compressed tar archive into memory, enforcing lim. It
// returns an error only when the archive cannot be read at all (not gzip,
// corrupt, too large); structural problems are Issues, and refused entries
// are left out of Entries.
func Read(r io.Reader, lim Limits) (*Archive, error) {
	return Scan(r, lim, func(Entry) bool { return true })
}

// Scan reads an archive like Read, but holds only the entries keep accepts;
// the others are listed with their Size and nil Data. keep sees each entry
// whole (at most lim.MaxEntry bytes), so memory stays bounded by what is
// kept plus one entry; an entry it refuses is read over by the next, so it
// must not keep the Data it was shown.
//
// The whole gzip stream is consumed: its CRC-32 and length are checked, and
// a second gzip member, bytes after the gzip trailer, or anything but zero
// padding after the tar end-of-archive marker make the archive unreadable
// (ErrCorrupt): content that no verifier looks at has no place in a pack.
func Scan(r io.Reader, lim Limits, keep func(Entry) bool) (*Archive, error) {
	return ScanTee(r, lim, keep, nil)
}

// ScanTee is Scan that also writes the uncompressed tar, every byte as
// read, to tarOut (when not nil): a caller comparing the tar with another
// (verify --source) needs neither to hold the archive nor to decompress it
// again. A Scan that succeeds has read the whole stream.
func ScanTee(r io.Reader, lim Limits, keep func(Entry) bool, tarOut io.Writer) (*Archive, error) {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err != nil || magic[0] != 0x1f || magic[1] != 0x8b {
		return nil, ErrNotGzip
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("%w: gzip header: %v", ErrCorrupt, err)
	}
	zr.Multistream(false)
	// Headers and padding add to the entries' sizes; twice the cap bounds
	// any honest archive and stops a bomb early.
	capped := &cappedReader{r: zr, left: 2 * lim.MaxTotal}
	tp := &tap{r: capped}
	if tarOut != nil {
		tp.r = io.TeeReader(capped, tarOut)
	}
	s := &scanner{tr: tar.NewReader(tp), tap: tp, lim: lim, keep: keep, a: &Archive{first: map[string]int{}}, seen: map[string]bool{}}
	err = s.entries()
	if err == nil {
		err = s.tail()
	}
	if err == nil {
		err = endOfGzip(tp, br)
	}
	switch {
	case err == nil:
		return s.a, nil
	case capped.exceeded:
		return nil, ErrTooLarge
	case secondMember(tp, br):
		// Whatever the tar reader made of the first member's end (no
		// end-of-archive marker, a cut entry), the cause is the second.
		return nil, errSecondMember
	}
	return nil, err
}

// errSecondMember names a .tgz of several gzip members: tools that read
// one member see a truncated tar, others see more content than were
// verified.
var errSecondMember = fmt.Errorf("%w: a second gzip member after the archive's first one: a .tgz is one gzip stream "+
	"(the tar was compressed in parts, or something was appended); compress the whole tar as one stream", ErrCorrupt)

// secondMember reports whether the first gzip member has ended and another
// starts after it.
func secondMember(tp *tap, br *bufio.Reader) bool {
	if !tp.eof {
		return false
	}
	magic, err := br.Peek(2)
	return err == nil && magic[0] == 0x1f && magic[1] == 0x8b
}

// scanner walks the tar stream, comparing what archive/tar reports with the
// raw header bytes the tap saw.
type scanner struct {
	tr    *tar.Reader
	tap   *tap
	lim   Limits
	keep  func(Entry) bool
	a     *Archive
	seen  map[string]bool
	total int64
	count int    // headers read, of any type
	spare []byte // an entry keep refused: the next one is read into it
	// next is the offset where the next header block must start: the end of
	// the previous entry's padded data. -1 after an entry whose data size
	// archive/tar computes differently (sparse files): no check.
	next int64
}

func (s *scanner) entries() error {
	for {
		hdr, err := s.tr.Next()
		if err == io.EOF {
			return s.endMarker()
		}
		if err != nil {
			return fmt.Errorf("%w: tar: %v", ErrCorrupt, err)
		}
		if s.count++; s.count > s.lim.Entries() {
			return &TooManyEntriesError{Max: s.lim.Entries()}
		}
		s.checkRaw(hdr)
		s.next = s.tap.off + dataBlocks(hdr)
		name, ok := s.a.checkHeader(hdr, s.seen)
		if !ok {
			continue
		}
		if is, bad := sizeIssue(hdr, name, s.lim); bad {
			s.a.Issues = append(s.a.Issues, is)
			continue
		}
		s.total += hdr.Size
		if s.total > s.lim.MaxTotal {
			return fmt.Errorf("%w: entries add up to more than %d bytes", ErrTooLarge, s.lim.MaxTotal)
		}
		// The entry is read into exactly its size (sizeIssue bounded it):
		// io.ReadAll's growth cost about twice each entry. An entry keep
		// refuses lends its buffer to the next: a Scan keeping few entries
		// (verify) made a 50 MB archive 50 MB of garbage.
		spare := int64(cap(s.spare)) >= hdr.Size
		data := s.spare
		if !spare {
			data = make([]byte, hdr.Size)
		}
		data = data[:hdr.Size]
		if _, err := io.ReadFull(s.tr, data); err != nil {
			return fmt.Errorf("%w: tar entry %s: %v", ErrCorrupt, hdr.Name, err)
		}
		e := Entry{Name: name, Data: data, Size: hdr.Size}
		switch {
		case !s.keep(e):
			s.spare, e.Data = data, nil
		case spare: // kept: a copy of its own size, the spare stays spare
			e.Data = bytes.Clone(data)
		}
		s.a.add(e)
	}
}

// checkRaw refuses what archive/tar merges into a header without saying:
// extended headers (PAX 'x'/'g', GNU 'L'/'K') show as header blocks before
// the entry's own, and a name split across the USTAR prefix field shows in
// the raw block. Name lengths prove nothing: a GNU long name may be short.
func (s *scanner) checkRaw(hdr *tar.Header) {
	raw := s.tap.last
	refuse := func(msg string) {
		s.a.Issues = append(s.a.Issues, Issue{Rule: "archive-extended-header", Entry: hdr.Name, Message: msg, Refused: true})
	}
	start := s.tap.off - block
	switch {
	case hdr.Typeflag == tar.TypeXGlobalHeader: // checkHeader reports it
	case s.next >= 0 && start != s.next:
		refuse("preceded by PAX or GNU extended headers (long name, long link or attributes); write plain USTAR headers")
	case string(raw[257:263]) == "ustar\x00" && !allZero(raw[345:500]):
		refuse("name split across the USTAR prefix field; write the whole name (at most 100 bytes) in the name field")
	}
}

// dataBlocks is how many bytes archive/tar skips after a header: the data
// rounded up to whole blocks, none for header-only types.
func dataBlocks(hdr *tar.Header) int64 {
	switch hdr.Typeflag {
	case tar.TypeLink, tar.TypeSymlink, tar.TypeChar, tar.TypeBlock, tar.TypeDir, tar.TypeFifo:
		return 0
	case tar.TypeGNUSparse:
		return -1 << 62 // sizes differ from hdr.Size: skip the next check
	}
	return (hdr.Size + block - 1) / block * block
}

// endMarker checks that archive/tar stopped at the two zero blocks, not at
// the end of a stream cut after an entry.
func (s *scanner) endMarker() error {
	if s.next < 0 {
		return nil
	}
	if s.tap.off < s.next+2*block {
		return fmt.Errorf("%w: no end-of-archive marker (two zero blocks): the archive is truncated", ErrCorrupt)
	}
	return nil
}

// tail reads what follows the end-of-archive marker: zero padding (tar
// writers round up to records) and nothing else.
func (s *scanner) tail() error {
	buf := make([]byte, 32<<10)
	for {
		n, err := s.tap.Read(buf)
		if !allZero(buf[:n]) {
			return fmt.Errorf("%w: data after the tar end-of-archive marker (a second archive or hidden content)", ErrCorrupt)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: gzip: %v", ErrCorrupt, err)
		}
	}
}

// endOfGzip checks that the gzip member ended cleanly (the reader verified
// CRC-32 and length on reaching its end) and that nothing follows it.
func endOfGzip(tp *tap, br *bufio.Reader) error {
	if !tp.eof {
		return fmt.Errorf("%w: gzip stream not finished", ErrCorrupt)
	}
	if _, err := br.Peek(1); err != io.EOF {
		return fmt.Errorf("%w: data after the gzip stream (a second gzip member or trailing bytes)", ErrCorrupt)
	}
	return nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// tap counts the bytes archive/tar reads and keeps the last block of them:
// after Next, that block is the entry's raw header.
type tap struct {
	r    io.Reader
	off  int64
	last [block]byte
	eof  bool
}

func (t *tap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.off += int64(n)
	if n >= block {
		copy(t.last[:], p[n-block:n])
	} else if n > 0 {
		copy(t.last[:], t.last[n:])
		copy(t.last[block-n:], p[:n])
	}
	if err == io.EOF {
		t.eof = true
	}
	return n, err
}

// checkHeader records the issues of one header and says whether the entry is
// a regular file to keep.
func (a *Archive) checkHeader(hdr *tar.Header, seen map[string]bool) (string, bool) {
	raw := hdr.Name
	add := func(rule, msg string, refused bool) {
		a.Issues = append(a.Issues, Issue{Rule: rule, Entry: raw, Message: msg, Refused: refused})
	}
	switch hdr.Typeflag {
	case tar.TypeXGlobalHeader: // archive/tar returns these as entries
		add("archive-extended-header", "PAX global header; write plain USTAR headers", true)
		return "", false
	case tar.TypeReg, '\x00': // NUL: regular file in pre-POSIX archives
	case tar.TypeDir:
		add("archive-legacy-entry", "directory entry (tolerated; current builds write files only)", false)
		return "", false
	case tar.TypeSymlink, tar.TypeLink:
		add("archive-link", fmt.Sprintf("link to %q; archives may hold regular files only", hdr.Linkname), true)
		return "", false
	default:
		add("archive-special-file", fmt.Sprintf("special file (type %q); archives may hold regular files only", hdr.Typeflag), true)
		return "", false
	}
	name := raw
	if strings.HasPrefix(name, "./") {
		name = strings.TrimPrefix(name, "./")
		add("archive-legacy-entry", `legacy "./" name prefix (tolerated; current builds write bare names)`, false)
	}
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, "\\") || path.Clean(name) != name || hasDotDot(name) {
		add("archive-unsafe-path", "unsafe entry name: absolute, with \"..\", \"\\\" or not clean; installers must refuse it", true)
		return "", false
	}
	if hdr.Uid != 0 || hdr.Gid != 0 || hdr.Uname != "" || hdr.Gname != "" || !hdr.ModTime.IsZero() && hdr.ModTime.Unix() != 0 {
		add("archive-legacy-entry", "non-zero owner or mtime (tolerated; reproducible builds zero them)", false)
	}
	if seen[name] {
		add("archive-duplicate-entry", "duplicate entry: installers verify the first copy, tar -x keeps the last", true)
		return "", false
	}
	seen[name] = true
	return name, true
}

func hasDotDot(name string) bool {
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

func sizeIssue(hdr *tar.Header, name string, lim Limits) (Issue, bool) {
	max, what := lim.MaxEntry, "an entry"
	if name == "pack.json" {
		max, what = lim.MaxManifest, "pack.json"
	}
	if hdr.Size > max {
		return Issue{Rule: "archive-entry-too-large", Entry: hdr.Name, Refused: true,
			Message: fmt.Sprintf("%d bytes; %s may be at most %d", hdr.Size, what, max)}, true
	}
	return Issue{}, false
}

// cappedReader fails once more than left bytes have been read.
type cappedReader struct {
	r        io.Reader
	left     int64
	exceeded bool
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		c.exceeded = true
		return 0, ErrTooLarge
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
