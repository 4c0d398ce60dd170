//go:build race

package arena_test

// raceEnabled: the tests run under the race detector.
const raceEnabled = true
