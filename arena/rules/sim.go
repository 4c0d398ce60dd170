package rules

// Config selects the size and seed of one arena run (arena rules v1,
// ../shared/arena-spec.md, "Constants"). Units and Shots override N and S.
type Config struct {
	Units   int    // N, roster slots 0..N-1; 1..MaxUnits
	Shots   int    // S, shots drawn per fixed tick; 0..MaxShots
	Seed    uint64 // seed of the single PCG stream
	Workers int    // goroutines for parallel kernels (runtime only; the baseline ignores it); 0..MaxWorkers, 0 or 1 = scalar
	// Lane is the lane of the runtime's streaming kernels, a name
	// tickwork.ParseLane reads ("scalar", "avx2", "avx512", in any case);
	// "" picks the best this build and CPU run. The runtime checks it when it builds (the baseline
	// ignores it); every lane gives the same digest.
	Lane string
}

// Counters are the run's counters (arena rules v1, "Counters and the digest").
// All are counts of events since set-up; LiveProjectiles is the number of live
// projectiles now.
type Counters struct {
	ShotsFired      int64 `json:"shots_fired"`
	Hits            int64 `json:"hits"`
	Deaths          int64 `json:"deaths"`
	Lost            int64 `json:"lost"`
	Expired         int64 `json:"expired"`
	LiveProjectiles int64 `json:"live_projectiles"`
}

// Slot is one entry of the slot-indexed presentation buffer written by
// PresentationSync: Alive is 1 when slot s holds a live unit, else 0 (and X, Y,
// Health are then meaningless). Health is for viewers only; it is not in the digest.
type Slot struct {
	X, Y   float32
	Health int32
	Alive  uint8
}

// SystemTime is the wall time of one system's (or one baseline stage's) last run.
type SystemTime struct {
	Name  string
	Nanos int64  // wall time of the last run, nanoseconds
	Lane  string // the lane its kernels ran ("avx2", ...); "" when not stated
	// Workers is the most workers its kernels were given in the last
	// frame (scheduler.SystemReport.Workers); 0 when not stated or none.
	Workers int
}

// Sim is one implementation of the arena: the runtime's or the hand-written
// baseline. Frame, Presentation, Projectiles and SystemTimes allocate nothing
// in steady state. A Sim is not safe for concurrent use.
type Sim interface {
	// Name is "runtime" or "soa".
	Name() string
	// Frame runs one frame with exactly one fixed tick (arena rules v1,
	// "One frame"). It returns the implementation's error, if any.
	Frame() error
	// Frames is the number of frames run since set-up.
	Frames() int64
	// Counters returns the counters after the last completed frame.
	Counters() Counters
	// Presentation is the slot-indexed buffer (len Units) after the last
	// PresentationSync; valid until the next Frame.
	Presentation() []Slot
	// Projectiles appends x, y (world units) of every live projectile to
	// dst, two floats per projectile, and returns it.
	Projectiles(dst []float32) []float32
	// ProjectileChecksum is the wrapping sum of the per-projectile FNV-1a 64 (arena rules v1).
	ProjectileChecksum() uint64
	// SystemTimes appends the last frame's per-system wall times to dst, in a fixed order.
	SystemTimes(dst []SystemTime) []SystemTime
	// Close releases the Sim's goroutines, if any; no Frame after it.
	Close() error
}

// Factory adapts an implementation's constructor (arena.New, soa.New) to
// the one signature every driver holds: with an error it returns a nil
// Sim, never a typed nil inside the interface.
func Factory[S Sim](newSim func(Config) (S, error)) func(Config) (Sim, error) {
	return func(cfg Config) (Sim, error) {
		s, err := newSim(cfg)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
}
