package arena_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/index"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
)

// arenaBytes is what the arena world charges to its memory budget for cfg,
// computed without allocating: the declarations of arena.New (the Actors
// domain with its Unit and Body tables, the Projectile and ArenaClock
// tables, their columns, the HitEvent and DeadSlot event tables, the
// three indexes), the
// command buffers' initial records (a serial buffer and one per kernel
// worker for every system that records, at Build), what the systems
// Reserve past them (reserved), and Collision's per-worker HitEvent
// staging, made at Build.
func arenaBytes(cfg rules.Config) int64 {
	return memory.Sum(declared(cfg), reserved(cfg, max(cfg.Workers, 1)))
}

// reserved is what the recording systems reserve past their buffers'
// initial records, charged at Build (package commands, Memory): Fire a
// create and seven values (six 4-byte, one handle; each with its handle
// for SetN) a shot, ApplyHits a record a HitEvent, Collision a record a
// projectile on each worker, Respawn seven records and five 4-byte values
// (with their handles) a death.
func reserved(cfg rules.Config, workers int) int64 {
	fire, applyHits, collision, respawn := reserves(cfg, workers)
	return memory.Sum(fire, applyHits, collision, respawn)
}

// reserves is reserved, by system.
func reserves(cfg rules.Config, workers int) (fire, applyHits, collision, respawn int64) {
	const d = scheduler.DefaultCommandRecords
	proj := max(arena.MinProjectiles, cfg.Shots*(int(rules.TTL)+1))
	deaths := min(cfg.Units, proj)
	past := func(records int) int64 { return commands.BufferBytes(max(records, d) - d) }
	return int64(cfg.Shots)*(6*4+8+7*8) + past(cfg.Shots+7), past(proj),
		memory.Size(int64(workers), past(proj)), int64(deaths)*5*(4+8) + past(7*deaths)
}

// declared is what the declarations charge.
func declared(cfg rules.Config) int64 {
	n, workers := cfg.Units, max(cfg.Workers, 1)
	proj := max(arena.MinProjectiles, cfg.Shots*(int(rules.TTL)+1))
	return memory.Sum(
		ephemeral.DomainBytes(n, 0),                                    // Actors
		ephemeral.TableBytes(n, 0), ephemeral.ColumnBytes[int32](n, 0), // Unit, Health
		ephemeral.TableBytes(n, 0), memory.Size(4, ephemeral.ColumnBytes[float32](n, 0)), // Body, X Y VX VY
		ephemeral.DomainBytes(proj, 0)+ephemeral.TableBytes(proj, 0),                                 // Projectile
		memory.Size(4, ephemeral.ColumnBytes[float32](proj, 0)),                                      // X Y VX VY
		memory.Size(2, ephemeral.ColumnBytes[int32](proj, 0)),                                        // TTL Damage
		ephemeral.ColumnBytes[ephemeral.Handle](proj, 0),                                             // Target
		ephemeral.DomainBytes(1, 64)+ephemeral.TableBytes(1, 64)+ephemeral.ColumnBytes[int64](1, 64), // ArenaClock (chunk_rows 64)
		events.Bytes[arena.HitEvent](events.Spec{Name: "HitEvent", Capacity: proj}),
		events.Bytes[arena.DeadSlot](events.Spec{Name: "DeadSlot", Capacity: n, Lifetime: events.ThisFrame}),
		memory.Size(int64(4*(1+workers)), commands.BufferBytes(scheduler.DefaultCommandRecords)), // 4 recording systems
		events.StagingBytes[arena.HitEvent](proj, workers),
		indexBytes(n, proj),
	)
}

// indexBytes is what arena.tw's two indexes charge (the face's
// Add*Index: the structure, its shadow keys and marks over the table's
// whole chunks; an event index, the structure over the event capacity).
func indexBytes(units, proj int) int64 {
	cr := ephemeral.DefaultChunkRows
	rows := (units + cr - 1) / cr * cr
	marks := 8 * int64((rows+63)/64)
	return memory.Sum(
		index.SortedBytes[int32](rows)+4*int64(rows)+marks, // UnitsByHealth
		index.HashBytes[ephemeral.Handle](proj),            // HitsByTarget
	)
}

// arenaBytes is what the arena really charges, for several shapes.
func TestArenaBudgetMatchesDeclarations(t *testing.T) {
	for _, cfg := range []rules.Config{
		{Units: 1000, Shots: 16, Seed: 1, Workers: 1},
		{Units: 100000, Shots: 256, Seed: 2, Workers: 3},
		{Units: 5000, Shots: 1000, Seed: 3, Workers: 2},
	} {
		sim, err := arena.New(cfg)
		require.NoError(t, err)
		require.NoError(t, sim.Frame())
		assert.Equal(t, arenaBytes(cfg), sim.World().Budget().Used(), "%+v", cfg)
		assert.Equal(t, runtime.DefaultMemoryBudget, sim.World().Budget().Limit())
		require.NoError(t, sim.Close())
	}
}

// The default budget admits the arena at its largest roster, 16 777 216
// units, with room to spare (1.06 GiB, 0.48 GiB of it the two indexes),
// and refuses the largest shots with 256 workers (64 GiB: 24 GiB of HitEvent staging, 37 GiB of Collision's
// per-worker command records) instead of running out of
// memory. Nothing is allocated: the sizes are computed.
func TestArenaMaxUnitsFitDefaultBudget(t *testing.T) {
	def := runtime.DefaultMemoryBudget
	for _, tc := range []struct {
		name             string
		shots, workers   int
		fits             bool
		atMostGiB, above float64
	}{
		{"default shots, 1 worker", rules.DefaultShots, 1, true, 1.1, 1.0},
		{"default shots, 256 workers", rules.DefaultShots, 256, true, 1.45, 1.3},
		{"max shots, 8 workers", rules.MaxShots, 8, true, 5.35, 5.2},
		{"max shots, 256 workers", rules.MaxShots, 256, false, 64.5, 63.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bytes := arenaBytes(rules.Config{Units: rules.MaxUnits, Shots: tc.shots, Workers: tc.workers})
			gib := float64(bytes) / (1 << 30)
			assert.Less(t, gib, tc.atMostGiB)
			assert.Greater(t, gib, tc.above)
			assert.Equal(t, tc.fits, bytes <= def, "%.3f GiB", gib)
		})
	}
}

// The arena builds and runs a frame at 16 777 216 units under the default
// budget, charging exactly arenaBytes. It allocates about 1.1 GiB and
// spawns 16.7 million units (seconds): skipped with -short and under the
// race detector.
func TestArenaMaxUnitsRuns(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocates 1.1 GiB and spawns 16 777 216 units")
	}
	cfg := rules.Config{Units: rules.MaxUnits, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: 1}
	sim, err := arena.New(cfg)
	require.NoError(t, err)
	defer sim.Close()
	require.NoError(t, sim.Frame())
	assert.Equal(t, arenaBytes(cfg), sim.World().Budget().Used())
	assert.Equal(t, int64(rules.DefaultShots), sim.Counters().ShotsFired)
}

// Past the budget, the arena fails with the typed error instead of running
// out of memory: the largest shots with 256 workers ask for 24 GiB of
// HitEvent staging for Collision, which the world binds at Build, so New
// fails. The refused staging is not allocated; the tables (about 0.5 GiB,
// mostly untouched) are.
func TestArenaPastBudgetFails(t *testing.T) {
	cfg := rules.Config{Units: 1000, Shots: rules.MaxShots, Seed: 1, Workers: 256}
	sim, err := arena.New(cfg)
	require.Nil(t, sim)
	var be *memory.BudgetError
	require.ErrorAs(t, err, &be)
	assert.ErrorIs(t, err, runtime.ErrMemoryBudget)
	proj := rules.MaxShots * (int(rules.TTL) + 1)
	staging := events.StagingBytes[arena.HitEvent](proj, 256)
	// Build makes every recording system's serial buffer first, then binds
	// the systems in sealed order: the one recording system sealed after
	// Collision has its serial buffer, not yet its 256 per-worker ones;
	// of the reservations, those of ApplyHits and Fire (sealed before
	// Collision) are made.
	later := memory.Size(256, commands.BufferBytes(scheduler.DefaultCommandRecords))
	fire, applyHits, _, _ := reserves(cfg, 256)
	assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "event staging", Name: "HitEvent", Workers: 256},
		Bytes: staging, Used: declared(cfg) - staging - later + fire + applyHits, Budget: runtime.DefaultMemoryBudget, Owner: memory.OwnerWorld}, *be)
	assert.Contains(t, err.Error(), "or use fewer workers (WithWorkers), or raise the world's budget (WithMemoryBudget)")
}
