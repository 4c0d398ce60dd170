// Package tickwork is the one package a game or simulation imports: its
// types are its own, each with exactly the methods a host and its systems
// call, over the engine packages that implement them. The rules live once
// in docs/architecture.md (snapshots: docs/state.md; schemas and generated
// systems: docs/schema.md).
//
// # Outline
//
//   - Build a world: [NewBuilder] with options, each an [Option] ([WithWorkers],
//     [WithKernelPolicy], [WithFixedStep], [WithMaxTicksPerFrame],
//     [WithPacing] ([Pacing]), [WithReportWindow], [WithCommandRecords],
//     [WithMemoryBudget]); on the [Builder]: [Builder.Domain]
//     ([DomainSpec], [Domain]), [Builder.Table] ([TableSpec], [Table]),
//     [AddColumn] ([Column]), [AddEvents] ([EventSpec], [Events],
//     [Lifetime]), [AddResource] ([Resource]), [Builder.System] or
//     [Builder.Add] ([System], [Phase]), [Builder.Hook] ([Hook]), then
//     [Builder.Build].
//   - Entities: a [Handle] names one; [Table.Insert], [Table.Attach],
//     [Table.Delete], [Domain.Create] between frames; [Lease] probes rows
//     by handle.
//   - Declare a system: a [DeclareFunc] asks its [Decl] for accessors and
//     returns the body, a [RunFunc]: columns [Read] ([ReadColumn]) and
//     [Write] ([WriteColumn]), each an [Access]; queries [NewQuery1] ..
//     [NewQuery4] ([Query1] .. [Query4]); deferred changes [Record]
//     ([Recorder], [Set], [SetN], [ReserveValues]) and spawners
//     [NewSpawner1] .. [NewSpawner4] ([Spawner1] .. [Spawner4]); events
//     [Emit] ([Emitter]), [EmitParallel] ([ParallelEmitter],
//     [WorkerEmitter]), [Consume] ([Consumer]); resources [ReadResource],
//     [WriteResource]; counters [Decl.Counter] ([Counter]); order
//     [Decl.After], [Decl.Before].
//   - Iterate: [Query1.All] yields every live row ([Row1] .. [Row4]) with
//     its handle; a kernel at chunk c uses [Query1.Chunk], or
//     [Query1.Spans] with [Query1.Runs]; without a closure, [NextRun] over
//     [Table.Enabled], bounded by [Table.UsedChunks] and [Table.LiveEnd].
//     A zero query yields nothing (its other uses: package ephemeral,
//     "Queries").
//   - Run kernels: [Parallel], [ParallelPolicy] ([KernelPolicy]); lanes
//     for generated SIMD variants: [Lane] ([LaneScalar], [LaneAVX2],
//     [LaneAVX512]; [ParseLane], [Lane.Available]), [BestLane], [SelectLane].
//   - Time: [Context.DT] is the fixed step in FixedUpdate and the frame's
//     delta elsewhere; [Context.FrameDT] is always the frame's.
//   - Set up: a host query [HostQuery1] .. [HostQuery4] inserts the
//     initial entities with their values ([Query1.InsertN]: a negative
//     count or a panicking fill, package ephemeral, "Queries");
//     [Resource.Get] reads and writes a resource between frames.
//   - Run frames: [World.Frame], [World.Report] ([FrameReport],
//     [SystemReport], [CounterReport], [CommandStats]), [World.Time]
//     ([Time]), [World.Budget] ([Budget]), [World.Close]; [IsFatal] tells
//     an error after which no frame runs.
//   - Save, restore, roll back: [World.Snapshot], [World.Restore],
//     [World.Fingerprint]; save files [SaveFile], [LoadFile]
//     ([FileError]); [NewRollback] ([Rollback]).
//   - Errors: sentinels for errors.Is ([ErrOption] and the blocks after
//     it) and typed errors for errors.As ([OptionError], [ConflictError],
//     [SystemError], [PanicError], [SnapshotError], ...; the names several
//     engine packages share get their layer: [StorageDefinitionError],
//     [SystemDefinitionError], [KernelPanicError], [CommandPlaybackError],
//     [SchedulerStateError], ...), the engine's own values.
package tickwork
