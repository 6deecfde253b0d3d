package tarball

import (
	"archive/tar"
	"bufio"
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
}

// DefaultLimits are the public registry's ceilings (FORMAT.md §2).
var DefaultLimits = Limits{MaxEntry: 5 << 20, MaxManifest: 256 << 10, MaxTotal: 50 << 20}

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
}

// ErrNotGzip means the input is not a gzip stream.
var ErrNotGzip = errors.New("not a gzip file (a .tgz starts with bytes 1f 8b)")

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
	for _, e := range a.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
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
// kept plus one entry.
func Scan(r io.Reader, lim Limits, keep func(Entry) bool) (*Archive, error) {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err != nil || magic[0] != 0x1f || magic[1] != 0x8b {
		return nil, ErrNotGzip
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	// Headers and padding add to the entries' sizes; twice the cap bounds
	// any honest archive and stops a bomb early.
	capped := &cappedReader{r: zr, left: 2 * lim.MaxTotal}
	tr := tar.NewReader(capped)
	a := &Archive{}
	seen := map[string]bool{}
	var total int64
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return a, nil
		}
		if err != nil {
			if capped.exceeded {
				return nil, ErrTooLarge
			}
			return nil, fmt.Errorf("tar: %w", err)
		}
		name, ok := a.checkHeader(hdr, seen)
		if !ok {
			continue
		}
		if is, bad := sizeIssue(hdr, name, lim); bad {
			a.Issues = append(a.Issues, is)
			continue
		}
		total += hdr.Size
		if total > lim.MaxTotal {
			return nil, fmt.Errorf("%w: entries add up to more than %d bytes", ErrTooLarge, lim.MaxTotal)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			if capped.exceeded {
				return nil, ErrTooLarge
			}
			return nil, fmt.Errorf("tar entry %s: %w", hdr.Name, err)
		}
		e := Entry{Name: name, Data: data, Size: int64(len(data))}
		if !keep(e) {
			e.Data = nil
		}
		a.Entries = append(a.Entries, e)
	}
}

// checkHeader records the issues of one header and says whether the entry is
// a regular file to keep.
func (a *Archive) checkHeader(hdr *tar.Header, seen map[string]bool) (string, bool) {
	raw := hdr.Name
	add := func(rule, msg string, refused bool) {
		a.Issues = append(a.Issues, Issue{Rule: rule, Entry: raw, Message: msg, Refused: refused})
	}
	// archive/tar merges PAX records and GNU long names into the header; a
	// name over 100 bytes or leftover PAX records show that one was used.
	if len(hdr.PAXRecords) > 0 || len(raw) > 100 {
		add("archive-extended-header", "PAX, GNU long-name or prefix-field header; write plain USTAR headers with names of at most 100 bytes", true)
	}
	switch hdr.Typeflag {
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
