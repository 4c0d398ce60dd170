// Package arena is the reference workload on the Tickwork runtime: N units
// that move, fire projectiles at each other, get hit, die and respawn every
// tick, following arena rules v1 (../shared/arena-spec.md) to the letter, so
// that it ends in the same digest as the hand-written baseline in
// package arena/soa.
//
// # Schema and generated code
//
// The tables, event tables and five of the nine systems are declared in
// arena.tw (docs/schema.md) and generated into arena_gen.go by go
// generate: the typed tables (Tables, Declare, Sizes), the systems
// ApplyHits, Collision, IntegrateBodies, IntegrateProjectiles and Clock
// (Systems, NewSystems) and the schema's constants (W, R2, Health, TTL:
// rules v1's). Sim declares them with the config's capacities and adds the
// four hand-written systems, Fire, ResolveRespawns, Respawn and
// PresentationSync, which order themselves against the generated ones by
// name.
//
// arena.tw also declares the arena's four frame-rate queries
// (docs/schema.md, Queries): CountUnits, WeakestUnits(n), BodiesInBox(x0,
// y0, x1, y1) and HitTotalsByTarget, generated with the rest (Queries,
// NewQueries); the host runs them between frames over Sim.Tables
// (arena-headless -queries; BenchmarkQueries against hand loops). They are
// not systems: the digests do not see them.
//
// # Data
//
//   - Domain Actors (capacity N): table Unit (Health int32) and table Body
//     (X, Y, VX, VY float32); a unit's Unit and Body rows are one entity, and
//     its entity index is its roster slot (see Slots).
//   - Table Projectile (capacity max(32768, S*(TTL+1)) rows): X, Y, VX, VY
//     float32, TTL and Damage int32, Target (the target unit's
//     tickwork.Handle, so a projectile whose target died is lost even when
//     the slot's new unit reuses the row).
//   - Table ArenaClock: one row, Tick int64.
//   - Event tables HitEvent (next frame: Collision emits, the next frame's
//     ApplyHits reads) and DeadSlot (this frame: ApplyHits emits, Respawn reads).
//   - Resources held by the Sim: the random stream, the respawns awaiting
//     resolution and the presentation buffer.
//
// # Slots
//
// Roster slot s is the unit at row (entity index) s of the Actors domain.
// The domain hands out the lowest free slot (package ephemeral's documented
// policy); set-up inserts slots 0..N-1 in order and Respawn creates exactly
// the slots freed this frame, in ascending order, so the binding holds;
// ResolveRespawns checks it for every respawned unit and fails the frame if
// it ever breaks. "Slot s holds a live unit" is then bit s of the enabled
// bitmap, and the presentation entry s is row s.
//
// # Systems
//
// FrameStart: ResolveRespawns, then ApplyHits. FixedUpdate: Fire, Collision
// (after Fire, before both integrations), IntegrateBodies,
// IntegrateProjectiles. Update: Clock. LateUpdate: PresentationSync.
// FrameEnd: Respawn, through command buffers whose provisional handles
// ResolveRespawns resolves in the next frame.
//
// Structural changes go through command buffers: Fire's new projectiles are
// played back after the fixed tick, so Collision and IntegrateProjectiles
// never see a projectile in the tick it was fired, as the rules require.
//
// # Counters
//
// The rules' counters are system counters (package systems, Counters):
// Fire's "shots", Collision's "lost", "hits" and "expired", ApplyHits'
// "deaths". The frame report has each frame's values
// (FrameReport.Counter); Sim.Counters returns their totals.
//
// # Workers
//
// With Config.Workers > 1, IntegrateBodies, IntegrateProjectiles, Collision
// and PresentationSync run as parallel kernels, each run on as many workers
// as its chunks pay for (package kernels, "Worker policy"; Collision takes
// one chunk per worker, its schema's grain 1, the others the default).
// The kernels split only the chunks in use. Collision's generation-checked
// probe runs on the workers; its outcomes drain in serial chunk order: the
// deletes go into per-worker command buffers and the hits into per-worker
// event segments, both keyed by chunk, which playback and the event merge
// replay in chunk order, and each worker counts into its own padded
// counters, summed on the frame's goroutine. So the digest is the
// one-worker digest whatever the worker count or the chunks' dealing.
//
// # Lanes
//
// IntegrateBodies, IntegrateProjectiles and PresentationSync run in the
// lane New picks through the face: Config.Lane (ErrUnknownLane for a name
// that is no lane's, tickwork.SelectLane's error for one this build or CPU
// cannot run), or tickwork.BestLane (Sim.Lane says which; the frame
// report's SystemReport.Lane too). The two integrations are the generated
// systems in every lane: in a SIMD lane their generated SIMD variants
// (arena_gen_simd.go, docs/schema.md, SIMD variants; Systems.SetLane),
// else their scalar loops. PresentationSync packs each chunk with
// presentRows, in a SIMD lane with its AVX2 form (present_simd.go) first.
// Every lane gives the same bits, so the same digest (package lanes, "Bit
// identity"). The hand-written kernels of the benchmarks' baselines, in
// every lane, are test code (arena_gen_hand_kernels_test.go).
//
// # State
//
// Sim.Snapshot and Sim.Restore save and restore the whole run (the world's
// snapshot, docs/state.md): the random stream resource carries its PCG's
// codec (state.go), so a restored Sim draws on where the saved one was, and
// its respawns' provisional handles resolve as they would have. A snapshot
// carries the Sim's SavedConfig (rules version, units, shots, seed) as the
// world's host configuration: a Sim of another one refuses it with an
// *OtherConfigError naming the parameter (Sim.OtherConfig explains the
// refusal of tickwork.LoadFile). The presentation buffer and the respawn
// queue have declared lengths, and the queue's entries are checked at
// Restore (docs/state.md, "Sizes" and "The host's check").
//
// # Allocation
//
// Every buffer is made in New; a frame allocates nothing in steady state.
package arena

//go:generate go run ../cmd/tickwork-gen -catalog -o arena_gen.go arena.tw
