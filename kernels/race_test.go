//go:build race

package kernels_test

// stressRuns is TestStressHandOff's number of Runs per -cpu value under the
// race detector, which slows a hand-off about tenfold: 4 values of -cpu
// (make stress) make 400 000 Runs.
const stressRuns = 100_000

// raceDetector is true in a build with the race detector.
const raceDetector = true
