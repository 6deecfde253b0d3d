package ordered

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestReplayKeepsEachJobWholeAndInOrder(t *testing.T) {
	logs := make([]Log, 4)
	var wg sync.WaitGroup
	for i := range logs {
		wg.Go(func() {
			out, errOut := logs[i].Writers()
			fmt.Fprintf(out, "job %d: ", i)
			fmt.Fprintf(out, "out\n")
			fmt.Fprintf(errOut, "job %d: err\n", i)
			fmt.Fprintf(out, "job %d: more\n", i)
		})
	}
	wg.Wait()
	var out, errOut, both strings.Builder
	for i := range logs {
		logs[i].Replay(&out, &errOut)
	}
	for i := range logs {
		fmt.Fprintf(&both, "job %d: out\njob %d: more\n", i, i)
	}
	if out.String() != both.String() {
		t.Errorf("out:\n%s", out.String())
	}
	if !strings.HasPrefix(errOut.String(), "job 0: err\njob 1: err\n") {
		t.Errorf("errOut:\n%s", errOut.String())
	}
	out.Reset()
	logs[0].Replay(&out, &out)
	if out.Len() != 0 {
		t.Errorf("a second replay wrote %q", out.String())
	}
}
