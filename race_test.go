//go:build race

package tickwork_test

// raceEnabled: the race detector slows a child process so far that a
// kill within a few milliseconds lands in its frame, never in its save.
const raceEnabled = true
