//go:build !unix

package assist

import "time"

// cpuTime falls back to wall time where getrusage is missing.
func cpuTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
