//go:build !race

package atomicfile

// killBudget bounds TestWriteFileSurvivesKill, in nanoseconds: 100 kills
// take about 6 s on a loaded 2-core machine.
const killBudget = 40e9
