package graphrun

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/safefile"
)

// maxEventPayload bounds the GitHub event payload read for the pull
// request's head commit (GitHub's webhook payloads are capped at 25 MB).
const maxEventPayload = 32 << 20

// linker builds the links of a step summary's findings: a file's line in
// the repository at the commit the run checks.
type linker struct {
	env       *lintrun.Env
	base      string // $GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/<sha>
	workspace string // the checkout's root: paths are relative to it
}

// newLinker reads GitHub Actions' environment: the head of the pull
// request for a pull_request event (its payload's pull_request.head.sha;
// $GITHUB_SHA is then a merge commit GitHub made), else $GITHUB_SHA. It
// is nil outside Actions or without a commit to link to.
func newLinker(env *lintrun.Env) *linker {
	server, repo := strings.TrimSuffix(env.Getenv("GITHUB_SERVER_URL"), "/"), env.Getenv("GITHUB_REPOSITORY")
	sha := headSHA(env.Getenv("GITHUB_EVENT_PATH"))
	if sha == "" {
		sha = env.Getenv("GITHUB_SHA")
	}
	u, err := url.Parse(server)
	if err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" || repo == "" || strings.Count(repo, "/") != 1 || !isCommitID(sha) {
		return nil
	}
	ws := env.Getenv("GITHUB_WORKSPACE")
	if ws == "" {
		ws = env.WorkDir
	}
	return &linker{env: env, base: fmt.Sprintf("%s/%s/blob/%s", server, escapePath(repo), sha), workspace: ws}
}

// headSHA is pull_request.head.sha of the event payload at path ("" when
// there is none).
func headSHA(path string) string {
	if path == "" {
		return ""
	}
	raw, err := safefile.Read(path, safefile.Options{Max: maxEventPayload, FollowLinks: true})
	if err != nil {
		return ""
	}
	var ev struct {
		PullRequest struct {
			Head struct {
				SHA string `json:"sha"`
			} `json:"head"`
		} `json:"pull_request"`
	}
	if json.Unmarshal(raw, &ev) != nil {
		return ""
	}
	return ev.PullRequest.Head.SHA
}

// url links line of file (as the finding names it, relative to the
// working directory): "" for a file outside the checkout or not on disk
// (a file in an archive).
func (l *linker) url(file string, line int) string {
	if l == nil || file == "" {
		return ""
	}
	abs := l.env.Abs(filepath.FromSlash(file))
	rel, err := filepath.Rel(l.workspace, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	if info, err := os.Stat(abs); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	u := l.base + "/" + escapePath(filepath.ToSlash(rel))
	if line > 0 {
		u += fmt.Sprintf("#L%d", line)
	}
	return u
}

// escapePath escapes each segment of a slash path for a URL (and so for a
// Markdown link: url.PathEscape leaves no space or parenthesis bare).
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// isCommitID reports a full commit id, SHA-1 or SHA-256: the only text
// from the environment that goes into a link's path unescaped.
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}
