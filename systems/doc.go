// Package systems is the contract between game code and the scheduler: a
// [System] is a named body that runs in one [Phase] of every frame and
// declares, up front, everything it touches.
//
// Who calls it: a system's author (a DeclareFunc and its body); the
// typed surface generated from a schema calls the same accessors. What
// only the scheduler calls (running a declaration, the manifest it
// derives, binding and running a system, the conflict check, a resource's
// snapshot state) is in internal/engine/frame and internal/plumb.
//
// # Declaration
//
// A system's [DeclareFunc] runs once, at set-up (the scheduler runs it in
// Add). It asks its [Decl] for accessors and returns the body ([RunFunc])
// that uses them:
//
//	func(s *systems.Decl) systems.RunFunc {
//		q := systems.NewQuery2(systems.Write(s, pos), systems.Read(s, vel))
//		return func(ctx *systems.Context) {
//			for r := range q.All() {
//				p, v := r.Get()
//				p.X += v.X * float32(ctx.DT())
//			}
//		}
//	}
//
// The accessors: columns [Read] and [Write] ([ReadColumn], [WriteColumn]:
// by handle or row, and queries over them, [NewQuery1] .. [NewQuery15],
// or joins across the tables of a domain, [NewJoin] .. [NewJoin15], whose
// With and Without tables are presence reads, as [Presence]'s lease);
// [Record] ([Recorder]: deferred commands, with [Set], [SetN],
// [ReserveValues], and the spawners [NewSpawner1] .. [NewSpawner15], whose
// Spawn records a create with a value for each of its columns);
// [Emit], [EmitParallel] and [Consume] (events); [ReadResource] and
// [WriteResource] ([Resource]); [Decl.Counter] (see Counters).
// [Decl.Before] and [Decl.After] order the system; [Decl.RunIf] ([CondFunc])
// runs it only while its conditions hold (docs/architecture.md, Run
// conditions). Each accessor adds its
// entry to the system's manifest (what the scheduler checks conflicts on),
// so a column is named once and an access outside the manifest cannot be
// written; accessors never fail at run time. A bad argument (a nil column
// of a failed declaration, a query over columns of two tables) fails the
// declaration with a [*DefinitionError] that says what to fix; an accessor
// asked for after the DeclareFunc returned panics.
//
// # Access rules
//
// Which systems conflict, and what the scheduler takes on trust: stated
// once, in docs/architecture.md (Access rules).
//
// # Deferred changes
//
// A [Recorder]'s commands play back at the end of the phase (after every
// fixed tick in FixedUpdate), where no system runs, in sealed system order
// (docs/architecture.md, Frame path). A create returns a provisional
// handle ([Context.Resolve]; how long it resolves: docs/architecture.md,
// Provisional handles). [Move] moves an entity's row between tables of its
// domain in one record. What fails, what is a counted no-op and how an
// entity passes through having no row: package commands, Policies.
//
// # Time
//
// [Context.DT] is the system's step in seconds: the fixed step in
// FixedUpdate, where each tick integrates by one step however long the
// frame was (a 200 ms hitch runs whole steps, never one long one), and the
// frame's delta in the other phases. [Context.FrameDT] is always the
// frame's delta. [Context.Frame] and [Context.Tick] count frames and ticks.
//
// # Kernels
//
// [Parallel] ([ParallelPolicy] under a worker policy of its own) runs a
// kernel over chunks on the world's workers (a kernel that calls Parallel
// is refused: [ErrNestedParallel]), its state
// passed as a value: no closure is built per run and nothing is shared
// through outer variables. A kernel takes the rows of its chunk from a
// query (Chunk, or Spans and Runs), records through [Recorder.Worker] and
// emits through [ParallelEmitter.Worker]. The serial [Recorder] (from
// [Record]) and [Emitter] (from [Emit]) belong to the body: while a
// Parallel call of their system runs, their calls panic (a message naming
// the parallel form) before touching their buffer or table, on one worker
// as on several, so the misuse is a panic and never a data race; the
// check is one atomic load per call.
//
// Parallel's chunks is a count of work units, 0..[MaxParallelChunks]
// (2^30, MaxCapacity of package ephemeral: a unit per row of the largest
// table; 0 runs nothing); a count outside panics with a message that says
// the bound, before anything runs (programmer misuse, checked by two
// compares): a table's chunks (ephemeral.Table.UsedChunks or Chunks) for a
// kernel over rows, or units of the kernel's own, such as the 400 cells
// of a grid a system built this tick. fn is called once with each index
// 0..chunks-1, on the worker whose contiguous, ascending range holds it;
// what an index means is the kernel's (a query's Chunk and Spans take a
// table chunk, 0..Table().Chunks()-1). The chunk given to [Recorder.Worker]
// and [ParallelEmitter.Worker] is a merge key, not necessarily a table
// chunk: pass the index fn got, and what each call records or emits is
// played back and merged in ascending key order (equal keys: lower worker
// first), so the result is the same for every worker count as long as
// each index is passed only by the call that got it
// (TestParallelOverCells in the root package).
//
// [ChunkKernel] ([DenseKernel],
// [MaskedKernel]) is the driver of generated kernels (docs/schema.md,
// Generated code): one kernel over a table's used chunks on one worker or
// the pool, each chunk's segments ([Segmented]), the worker's outputs
// ([ChunkOut], [EmitChunk]) and counts.
//
// # Change detection
//
// [Changed] and [Added] declare a [ChangeReader] of a column's changes or
// a table's added rows since the system's last run; [WriteTracked]
// ([TrackedColumn]) writes a column row by row, stamping each row;
// [ChunkKernel.Only] skips a generated kernel's unchanged chunks. The
// rule: docs/architecture.md, Change detection.
//
// # Counters
//
// A system counts named events of its work (hits, deaths, misses) with
// [Decl.Counter], which declares a counter at set-up and returns its
// [Counter]; only the system's own body adds to it (Counter.Add), on the
// scheduler's goroutine. A counter is the system's data: Add panics, with
// a message saying so, when called by another system's body, by the host
// (between frames, or before the first: state a host counts belongs in a
// resource) or at set-up, since the scheduler marks the system whose body
// runs and Add compares it. Kernels must not call Add: a parallel kernel
// sums its workers' counts (per-worker, padded) and the body adds each sum
// once at the end of the run; a kernel's Add from a worker is a data race
// the check cannot see (it runs while the body does), and -race reports
// it. The
// frame report shows, per system and counter, the sum of what the
// system's runs added in the frame (several runs for a FixedUpdate system
// with several ticks, none when it did not run); values are taken after
// each run, so the report needs no locking and allocates nothing
// (scheduler.SystemReport.Counters, made at seal; the face's
// FrameReport.Counter looks one up). Counter.Total is the sum since the world was built. A
// counter name is unique within its system; two systems may both have a
// "hits".
//
// # Resource state
//
// A snapshot holds a [Resource] (the runtime drives it): a
// pointer-free value as its bytes, a slice of pointer-free elements as
// its elements', any other type through the codec it provides
// (encoding.BinaryAppender and encoding.BinaryUnmarshaler on T or *T);
// other types are refused ([*ResourceStateError], [ErrResourceState];
// a codec that panics on its bytes, [*CodecPanicError]; docs/state.md).
//
// # Errors
//
// Definitions and declarations fail with a [*DefinitionError] (errors.Is
// [ErrDefinition] and the precise sentinel (an empty name matches the face's
// ErrEmptyName): [ErrNoDeclare], [ErrNoRun], [ErrBadPhase], [ErrBadDeclaration], or
// [ErrDeclarePanic] for a DeclareFunc that panicked, with a
// [*DeclarePanicError] as Cause: the panic fails the Build, it does not
// unwind through it). A body reports a failure with [Context.Fail]. Messages start with "systems: ".
//
// # Concurrency
//
// A body runs on the scheduler's goroutine. Its kernels may use the
// accessors concurrently, each worker writing only rows of its chunks and
// recording and emitting only through its own worker's recorder and
// segment; Context methods other than the clock's are called from the body.
package systems
