//go:build race

package commands_test

// raceEnabled: the race detector makes a recording loop about 150 times
// slower, so the 10M-create test records fewer.
const raceEnabled = true
