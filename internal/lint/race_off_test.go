//go:build !race

package lint

// raceSlowdown scales CPU budgets in tests (see race_on_test.go).
const raceSlowdown = 1
