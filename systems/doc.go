// Package systems is the contract between game code and the scheduler: a
// [System] is a named body that runs in one [Phase] of every frame and
// declares, up front, everything it touches.
//
// # Declaration
//
// A system's [DeclareFunc] runs once, at set-up ([Declare]; the scheduler
// calls it in Add). It asks its [Decl] for accessors and returns the body
// ([RunFunc]) that uses them:
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
// by handle or row, and queries over them, [NewQuery1] .. [NewQuery4]);
// [Record] ([Recorder]: deferred commands, with [Set], [SetN],
// [ReserveValues], and the spawners [NewSpawner1] .. [NewSpawner4]);
// [Emit], [EmitParallel] and [Consume] (events); [ReadResource] and
// [WriteResource] ([Resource]). [Decl.Before] and [Decl.After] order the
// system. Each accessor adds its entry to the system's [Manifest], so a
// column is named once and an access outside the manifest cannot be
// written; accessors never fail at run time. A bad argument (a nil column
// of a failed declaration, a query over columns of two tables) fails the
// declaration with a [*DefinitionError] that says what to fix; an accessor
// asked for after the DeclareFunc returned panics.
//
// # Access rules
//
// Two systems of a phase conflict when both touch one datum and one of them
// writes it:
//
//   - a column: write/write, or read/write;
//   - a domain's structure: two systems that both record commands for
//     tables of one domain ([Record], spawners), since the order of their
//     playback is then theirs to choose (see Deferred changes);
//   - an event table: emitting is a write; consuming a ThisFrame table is
//     a read; consuming a NextFrame table reads the previous frame's
//     events and conflicts with nothing of this frame;
//   - a resource: a write against any use.
//
// A recorder does not conflict with reads or writes of the same phase: its
// commands land at the boundary, after every system of the phase.
// [Conflicts] lists the conflicts of two manifests;
// the scheduler refuses every unordered conflicting pair at seal.
//
// # Deferred changes
//
// Creates, deletes, attaches, removes and deferred writes are recorded
// ([Recorder]) and played back at the end of the phase (after every fixed
// tick in FixedUpdate), in sealed system order: each system's serial
// records, then its workers' records merged in chunk order, so handles and
// rows do not depend on the worker count. Until then the system and every
// other of its phase see the table as it was. A create returns a
// provisional handle ([Context.Resolve]).
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
// [Parallel] runs a kernel over chunks on the world's workers, its state
// passed as a value: no closure is built per run and nothing is shared
// through outer variables. A kernel takes the rows of its chunk from a
// query (Chunk, or Spans and Runs), records through [Recorder.Worker] and
// emits through [ParallelEmitter.Worker].
//
// # Read pointers
//
// Queries yield pointers for every column, read or written, and
// [ReadResource] a pointer to the value: writing through the pointer of a
// read is a data race the scheduler cannot see. This is the one access it
// takes on trust; so is touching a table, column or event table directly
// (ephemeral.Column.Set, ephemeral.Table.Insert, events.Table.Emit)
// instead of through an accessor.
//
// # Errors
//
// Definitions and declarations fail with a [*DefinitionError] (errors.Is
// [ErrDefinition] and the precise sentinel: [ErrEmptyName],
// [ErrNoDeclare], [ErrNoRun], [ErrBadPhase], [ErrBadDeclaration]). A body
// reports a failure with [Context.Fail]. Messages start with "systems: ".
//
// # Concurrency
//
// A body runs on the scheduler's goroutine. Its kernels may use the
// accessors concurrently, each worker writing only rows of its chunks and
// recording and emitting only through its own worker's recorder and
// segment; Context methods other than the clock's are called from the body.
package systems
