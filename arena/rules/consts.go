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

// Upper bounds of a [Config], checked by [Config.Validate]. They keep a run's
// memory, which the implementations allocate up front, in reach of a
// workstation: measured at about 40 (soa) to 60 (runtime) bytes per unit,
// up to about 1 GiB at MaxUnits, and about 40 bytes per projectile slot, of
// which there are Shots*(TTL+1), about 250 MiB at MaxShots; per
// implementation, and arena-headless -impl both runs two.
const (
	// MaxUnits bounds Config.Units, the roster slots N: 2^24 = 16 777 216,
	// 168 times DefaultUnits.
	MaxUnits int = 1 << 24

	// MaxShots bounds Config.Shots, the shots S drawn per fixed tick:
	// 2^16 = 65 536, 256 times DefaultShots.
	MaxShots int = 1 << 16

	// MaxWorkers bounds Config.Workers, the goroutines of parallel kernels.
	// It equals kernels.MaxWorkers, restated here because this package
	// imports no other tickwork package (a test checks that they agree).
	MaxWorkers int = 256
)

// DefaultConfig returns the default configuration of arena rules v1:
// DefaultUnits units, DefaultShots shots per tick, DefaultSeed, and Workers 1
// (scalar).
func DefaultConfig() Config {
	return Config{Units: DefaultUnits, Shots: DefaultShots, Seed: DefaultSeed, Workers: 1}
}
