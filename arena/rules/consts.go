package rules

// Constants of the arena (arena rules v1, ../shared/arena-spec.md, "Constants").
// They are powers of two on purpose: most products with them are exact, so a
// fused multiply-add cannot change a result.
const (
	// W is the side of the square arena, in world units: unit positions live
	// in [0, W] on both axes (spec: W).
	W float32 = 2048

	// VMax bounds each velocity component of a unit at spawn, in world units
	// per second: vx, vy are drawn in [-VMax, VMax) (spec: VMAX).
	VMax float32 = 32

	// Speed is the speed of every projectile, in world units per second
	// (spec: SPEED).
	Speed float32 = 256

	// DT is the fixed step, in seconds: 1/64 s. The benchmark runs exactly one
	// fixed tick per frame (spec: DT).
	DT float32 = 1.0 / 64

	// Health is the health of a freshly spawned unit, in damage points
	// (spec: HEALTH).
	Health int32 = 3

	// TTL is the lifetime of a fresh projectile, in fixed ticks (spec: TTL).
	TTL int32 = 96

	// R2 is the squared hit radius, in squared world units (radius 3)
	// (spec: R2).
	R2 float32 = 9

	// PCGStream is the second seed word of the PCG generator; the first is the
	// run's seed (spec: "Random numbers").
	PCGStream uint64 = 0xda3e39cb94b95bdb
)

// Defaults of a run (arena rules v1, "Constants"); the flags of arena-headless
// may override them.
const (
	// DefaultUnits is the default N: roster slots 0..N-1, one unit per slot.
	DefaultUnits int = 100000

	// DefaultShots is the default S: shots drawn per fixed tick.
	DefaultShots int = 256

	// DefaultSeed is the default seed of the PCG stream.
	DefaultSeed uint64 = 42

	// DefaultWarmup is the default number of warm-up frames, run before
	// measuring.
	DefaultWarmup int = 120

	// DefaultFrames is the default number of measured frames. The digest is
	// taken after DefaultWarmup + DefaultFrames frames (720 by default).
	DefaultFrames int = 600
)

// DefaultConfig returns the default configuration of arena rules v1:
// DefaultUnits units, DefaultShots shots per tick, DefaultSeed, and Workers 1
// (scalar).
func DefaultConfig() Config {
	return Config{Units: DefaultUnits, Shots: DefaultShots, Seed: DefaultSeed, Workers: 1}
}
