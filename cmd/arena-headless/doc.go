// Command arena-headless runs the arena (arena rules v1,
// ../shared/arena-spec.md) without a window and measures it: the runtime's
// implementation, the hand-written struct-of-arrays baseline (package
// arena/soa), or both in the same process.
//
// # Usage
//
//	arena-headless [-units 100000] [-shots 256] [-seed 42] [-warmup 120]
//	               [-frames 600] [-workers 1] [-impl runtime|soa|both] [-json]
//
// -frames counts measured frames per implementation; the digest is taken
// after -warmup + -frames frames. -workers sets rules.Config.Workers, the
// goroutines of the runtime's kernels (the baseline ignores it). Defaults
// are those of arena rules v1 (package arena/rules).
//
// # Measurement
//
// Each implementation first runs its warm-up frames. The measured frames then
// run in blocks of 60; with -impl both the two implementations alternate
// block by block, so that drift of the machine (frequency, other load) hits
// both alike. For each implementation the command records every frame's wall
// time (reported as p50, p99 and mean in µs), the mean of each system's wall
// time from Sim.SystemTimes, the bytes allocated per measured frame and the GC
// cycles completed during its measured blocks (runtime.ReadMemStats, read only
// at block boundaries because it stops the world).
//
// # Output
//
// By default a human report: the host (Go version, GOMAXPROCS, CPU brand,
// cores and features), then per implementation the frame times, the
// per-system means, allocation, GC cycles, counters and digest, then whether
// the digests match and the p50 ratio runtime/soa. With -json, the one object
// described at the end of the rules, with the fields in the order shown
// there. When only one implementation runs, "impls" has one entry,
// "digest_match" is true (nothing disagrees) and "ratio_p50" is 0 (there is
// no ratio).
//
// # Exit status
//
// 0 on success (and for -h); 1 when the digests differ, an implementation
// breaks the counter invariant shots_fired == hits + lost + expired +
// live_projectiles (or reports a frame count other than -warmup + -frames),
// an implementation fails, or the report cannot be written; 2 for bad flags
// or values, including an implementation this build does not have.
//
// # Implementations
//
// Implementations come from the factories map (factories.go): "runtime"
// (package arena) and "soa" (package arena/soa). -impl accepts runtime, soa
// or both.
package main
