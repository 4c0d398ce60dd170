//go:build race

package atomicfile

// killBudget bounds TestWriteFileSurvivesKill: under the race detector a
// child starts several times slower.
const killBudget = 120e9
