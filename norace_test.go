//go:build !race

package tickwork_test

const raceEnabled = false
