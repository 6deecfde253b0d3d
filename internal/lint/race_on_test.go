//go:build race

package lint

// raceSlowdown scales CPU budgets in tests: the race detector makes code
// several times slower, and a budget is about wop, not the instrumentation.
const raceSlowdown = 10
