// Package tickwork is the one package a game or simulation imports: a thin
// face over the engine packages (ephemeral, events, commands, systems,
// scheduler, kernels, runtime), made of type aliases and one-line
// functions. Each name links to the engine name it is, where its contract
// is documented; the rules live in docs/architecture.md.
//
// # Outline
//
//   - Build a world: [NewBuilder] with options ([WithWorkers],
//     [WithKernelPolicy], [WithFixedStep], [WithMaxTicksPerFrame],
//     [WithPacing], ...: each an [Option]; [Pacing] is [Accumulate] or
//     [OneTickPerFrame]); on the [Builder], Table ([TableSpec]) and Domain
//     ([DomainSpec]), [AddColumn] ([Column]), [AddEvents] ([EventSpec],
//     [Events]; lifetimes [NextFrame], [ThisFrame]), [AddResource], then
//     Builder.System for each system (or Builder.Add with a [System]
//     value, which also carries the informational Lane of its kernels) and
//     Build. A system runs in a [Phase] ([FrameStart] .. [FrameEnd]);
//     entities are named by a [Handle].
//   - Declare a system: a [DeclareFunc] asks its [Decl] for accessors and
//     returns the body ([RunFunc]): columns [Read], [Write] ([ReadColumn],
//     [WriteColumn], each an [Access]); queries [NewQuery1] .. [NewQuery4]
//     ([Query1] .. [Query4]); structural changes [Record] ([Recorder],
//     [Set], [SetN], [ReserveValues]) and spawners [NewSpawner1] ..
//     [NewSpawner4] ([Spawner1] .. [Spawner4]); events [Emit] ([Emitter]),
//     [EmitParallel] ([ParallelEmitter], a [WorkerEmitter] per worker),
//     [Consume] ([Consumer]); resources [ReadResource],
//     [WriteResource]; named counters Decl.Counter ([Counter]); order
//     with Decl.After and Decl.Before.
//   - Iterate: a query's All yields every live row ([Row1] .. [Row4]:
//     Get returns pointers) with its handle; a kernel at chunk c uses
//     Chunk(c), or Spans(c) with Runs(c); without a closure, [NextRun],
//     and Table.LiveEnd and Table.UsedChunks to bound dense kernels.
//   - Run kernels: [Parallel] with the kernel's state as a value
//     ([ParallelPolicy] with its own [KernelPolicy]); lanes (instruction
//     sets) for generated SIMD variants: [Lane] ([LaneScalar], [LaneAVX2],
//     [LaneAVX512]), [BestLane], [SelectLane].
//   - Time: [Context].DT is the fixed step in FixedUpdate and the frame's
//     delta elsewhere; Context.FrameDT is always the frame's.
//   - Set up: before the first frame, a host query ([HostQuery1] ..
//     [HostQuery4]) inserts the initial entities with their values
//     (InsertN); [Resource].Get reads and writes a resource between frames.
//   - Run frames: [World].Frame, Report ([FrameReport], [SystemReport],
//     a counter's value in the frame: FrameReport.Counter, [CounterReport]),
//     Close; [IsFatal] tells an error after which no frame runs from one
//     the next frame recovers from. Sentinels for errors.Is: [ErrOption]
//     and the block after it ([ErrCapacity], [ErrOverflow], [ErrSystem], ...).
//   - Save, restore, roll back: World.Snapshot, World.Restore,
//     World.Fingerprint; save files [SaveFile], [LoadFile] ([FileError]);
//     [NewRollback] ([Rollback]: Save, Load, Rewind,
//     Checksum); refusals are a [SnapshotError] ([ErrSnapshot], [ErrTruncated],
//     [ErrCorrupt], [ErrVersion], [ErrOtherWorld], [ErrUnsupported]) or a
//     [RollbackError] ([ErrNoSnapshot]). What a snapshot holds, the format
//     and its version rule: docs/state.md.
package tickwork
