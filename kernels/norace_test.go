//go:build !race

package kernels_test

// stressRuns is TestStressHandOff's number of Runs per -cpu value: the 4
// values of make stress (-cpu 1,2,4,8) make a million Runs.
const stressRuns = 250_000

// raceDetector is true in a build with the race detector.
const raceDetector = false
