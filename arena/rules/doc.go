// Package rules holds the arena rules, version 1: the constants, the random
// stream, the spawn draws and the digest that every arena implementation
// shares, plus the [Sim] interface they all satisfy.
//
// The rules themselves live in ../shared/arena-spec.md ("arena rules v1"),
// copied into this repository as docs/arena-spec.md; this package is their
// executable form. It depends on no other tickwork
// package, so the runtime's arena, the hand-written baseline (package soa) and
// any other port can import it without pulling in the engine.
//
// # Constants
//
// [W], [VMax], [Speed], [DT], [Health], [TTL], [R2] and [PCGStream] are the
// fixed constants of the rules (world units, seconds, ticks, damage points);
// [DefaultUnits], [DefaultShots], [DefaultSeed], [DefaultWarmup] and
// [DefaultFrames] are the defaults that a [Config] or the flags of
// arena-headless may override. [DefaultConfig] bundles the first three,
// with one worker.
//
// # Random numbers
//
// [NewRand] builds the one PCG stream of a run; [Spawn] makes the four draws
// of one spawn in the order the rules fix. The per-shot draws of Fire are
// plain r.IntN calls, written out by each implementation.
//
// # Digest
//
// [Digest] hashes the presentation buffer, the frame count, the [Counters] and
// the projectile checksum (the wrapping sum of [ProjectileHash] over every live
// projectile) into one FNV-1a 64 value; [FormatDigest] prints it as 16
// lower-case hex digits. Two implementations agree on the rules exactly when
// they agree on the digest.
//
// # Implementations
//
// Every implementation satisfies [Sim]: [Sim.Frame] runs one frame with
// exactly one fixed tick, and [Sim.Presentation] (one [Slot] per roster
// slot), [Sim.Counters] ([Counters]) and [Sim.ProjectileChecksum] feed
// [Digest]; [Sim.SystemTimes] reports per-system wall times ([SystemTime],
// nanoseconds) under the rules' system names.
//
// # Configuration and errors
//
// [Config.Validate] reports a bad [Config] as a [*ConfigError], which matches
// [ErrBadConfig] under errors.Is: a field below its lower bound or above
// [MaxUnits], [MaxShots] or [MaxWorkers]. The upper bounds keep a run's
// up-front allocations sane; MaxWorkers restates kernels.MaxWorkers.
//
// # Concurrency
//
// Everything here is a pure function of its arguments, safe for concurrent
// use, except that a *rand.Rand from [NewRand] (and so [Spawn] on it) must not
// be shared between goroutines. A [Sim] is not safe for concurrent use.
package rules
