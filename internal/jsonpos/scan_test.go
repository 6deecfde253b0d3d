package jsonpos

import (
	"reflect"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/fixturejson"
)

// scanSeeds are documents of every shape the scanner reads, and of shapes it
// must leave to the token parser.
var scanSeeds = []string{
	`{}`, `[]`, `{"a":[1,"x",{"b":null}],"c":true,"d":false}`, " \n{ \"a\" : 1 , \"b\" : [ ] }\r\n",
	`"top"`, `-0.5e+10`, `0`, `12`, `[1e5,-0.5,true,null]`, `{"s":"tab\tquote\"slash\/back\\nl\nbs\bff\fcr\r"}`,
	`{"a":"\u00e9\u00E9 \ud83d\ude00 x"}`, `"\ud83d"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`, `"\u12"`, `"\u12g4"`, `{"a":1,"a":2}`, `{"a":1,}`, `[1,]`, `01`, `1x`, `-`, `1.`, `1e`, `{"a" 1}`, `{"a":1 "b":2}`,
	`tru`, `nul`, `[1] x`, `{"a":"\q"}`, "{\"a\":\"\x01\"}", `9007199254740993`, `1.5e20`, `{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k1":0}`,
}

// TestScanMatchesParser: on every document the scanner reads, it builds the
// token parser's tree; and it reads the plain ones (the point of having it).
func TestScanMatchesParser(t *testing.T) {
	plain := map[string]bool{`{}`: true, `{"a":[1,"x",{"b":null}],"c":true,"d":false}`: true, `-0.5e+10`: true,
		`{"s":"tab\tquote\"slash\/back\\nl\nbs\bff\fcr\r"}`: true, `{"a":"\u00e9\u00E9 \ud83d\ude00 x"}`: true, " \n{ \"a\" : 1 , \"b\" : [ ] }\r\n": true}
	for _, src := range scanSeeds {
		for _, opt := range []Options{{}, {SafeIntegers: true}} {
			_, ok := checkScan(t, []byte(src), opt)
			if plain[src] && !ok {
				t.Errorf("scan(%q) gives up on a plain document", src)
			}
		}
	}
}

// checkScan fails t when the scanner accepts src but its tree differs from
// the token parser's, or the parser refuses src or finds a duplicate.
func checkScan(t *testing.T, src []byte, opt Options) (*Value, bool) {
	t.Helper()
	if CheckEncoding(src) != nil {
		return nil, false
	}
	root, ok := scan(src, opt)
	if !ok {
		return nil, false
	}
	want, err := parseTokens(src, opt)
	if err != nil {
		t.Fatalf("scan(%q) accepts what the parser refuses: %v", src, err)
	}
	if len(want.Duplicates) > 0 {
		t.Fatalf("scan(%q) accepts a duplicate name", src)
	}
	if !reflect.DeepEqual(root, want.Root) {
		t.Fatalf("scan(%q) = %+v, the parser's tree is %+v", src, root, want.Root)
	}
	return root, true
}

// FuzzScanMatchesParser: whatever the scanner accepts, the token parser
// accepts with the same tree.
func FuzzScanMatchesParser(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, src []byte, safe bool) {
		checkScan(t, src, Options{SafeIntegers: safe})
	})
}

// TestScanMatchesParserOnFixtures holds the scanner to the token parser on
// every JSON file of the repository's fixtures, both option sets.
func TestScanMatchesParserOnFixtures(t *testing.T) {
	scanned := 0
	for _, f := range fixturejson.All(t, "../..") {
		for _, opt := range []Options{{}, {SafeIntegers: true}} {
			if _, ok := checkScan(t, f.Data, opt); ok {
				scanned++
			}
		}
	}
	if scanned == 0 {
		t.Error("the scanner read none of the fixtures")
	}
	t.Logf("the scanner read %d of the fixtures' documents (each under two option sets)", scanned)
}
