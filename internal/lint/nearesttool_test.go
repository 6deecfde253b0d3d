package lint

import "testing"

// TestNearestTool: prompt-tool-id-unresolved guesses the allowlisted tool
// a mention meant only when one stands out: the same name under another
// namespace, else a name in the same namespace that starts like it or is
// a near spelling, else a near spelling of the whole id; rivals as near
// mean no guess.
func TestNearestTool(t *testing.T) {
	for _, tc := range []struct {
		mention string
		allowed []string
		want    string
	}{
		{"openwop:core.openwop.http.fetch", []string{"openwop:core.http.fetch", "openwop:core.http.post"}, "openwop:core.http.fetch"},
		{"openwop:core.rag.retriever-basic", []string{"openwop:core.rag.retrieve", "openwop:core.rag.rerank"}, "openwop:core.rag.retrieve"},
		{"openwop:core.rag.retriever", []string{"openwop:core.rag.retrieve", "openwop:core.rag.retrieves"}, ""},
		{"acme:toolz.abc", []string{"acme:tools.aab", "acme:tools.zzz"}, "acme:tools.aab"},
		{"acme:toolz.abc", []string{"acme:tools.abd", "acme:tools.abe"}, ""},
		{"acme:toolz.abc", []string{"other:x.y"}, ""},
	} {
		allowed := map[string]bool{}
		for _, a := range tc.allowed {
			allowed[a] = true
		}
		want := ""
		if tc.want != "" {
			want = ` (did you mean "` + tc.want + `"?)`
		}
		if got := nearestTool(tc.mention, allowed); got != want {
			t.Errorf("nearestTool(%q, %v) = %q, want %q", tc.mention, tc.allowed, got, want)
		}
	}
}
