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
//     [WithPacing] ([Pacing]), [WithReportWindow], [WithExactAllocs], [WithCommandRecords],
//     [WithMemoryBudget]); on the [Builder]: [Builder.Domain]
//     ([DomainSpec], [Domain]), [Builder.Table] ([TableSpec], [Table]),
//     [AddColumn] ([Column]), [AddEvents] ([EventSpec], [Events],
//     [Lifetime]), [AddResource] ([Resource]; a seeded stream a snapshot holds: [NewRand],
//     [Rand]), [Builder.System] or
//     [Builder.Add] ([System], [Phase]), [Builder.Chain] (each system
//     after the one before), [Builder.Hook] ([Hook]), then
//     [Builder.Build].
//   - Row systems, the one-call form of a loop over one table's rows
//     ([Each1] .. [Each15], [ParallelEach1] .. [ParallelEach15]): columns
//     [Reads] and [Writes] ([Col]), uses ([Use]) [Records] ([RecordUse]),
//     [Spawns1] .. [Spawns15] ([SpawnUse1] .. [SpawnUse15]), [Emits] ([EmitUse]), [EmitsParallel] ([ParallelEmitUse]),
//     [ReadsResource] and [WritesResource] ([ResourceUse]), [Orders], [RunsIf]; the
//     rule: Row systems, below.
//   - Observe events from the host: [Observe], a callback per event
//     delivered each frame.
//   - Lifecycle events: [Lifecycle] ([LifecycleSpec], [LifecycleEvent],
//     [LifecycleChange]: [Created], [Attached], [Deleted], [Detached]) makes a
//     table's creates, attaches, deletes and detaches an event table,
//     filled by playback; the rule: docs/architecture.md, Lifecycle events.
//   - Change detection: [Changed] (a column's changed chunks and rows since
//     the system's last run) and [Added] (rows made live), both a
//     [Changes]; [WriteTracked] ([TrackedColumn]) stamps rows one by one;
//     removed rows are the lifecycle delete events. Which reader sees
//     which change (the one home of the rule): docs/architecture.md,
//     Change detection.
//   - Subscriptions, query results kept by the frame's changes and handed
//     out as deltas: [SubscribeFilter] ([FilterSpec], [SubFilter],
//     [FilterDelta], [SubRow]; a box is a filter), [SubscribeCount]
//     ([SubCount], [CountDelta]), [SubscribeGroupSum] ([GroupSumSpec],
//     [SubGroupSum], [Group], [GroupDelta], [Integer]), [SubscribeTopN]
//     ([TopSpec], [SubTopN], [Ranked], [TopDelta]); errors
//     [SubscriptionError] ([ErrSubscription]). When a result is kept and
//     what a Read hands out (the one home of the rule):
//     docs/architecture.md, Subscriptions.
//   - Secondary indexes: [AddHashIndex], [AddHashIndexOf] ([IndexColumn]),
//     [AddUniqueIndex], [AddUniqueIndexOf], [AddSortedIndex],
//     [AddGridIndex], [AddEventIndex] ([HashIndex], [UniqueIndex],
//     [SortedIndex], [GridIndex], [EventIndex], all an [Index]); a system
//     reads one with [ReadIndex] and marks the rows it changed with
//     [MaintainIndex] ([IndexMarks]); [World.Reindex] after raw writes;
//     [WithoutIndexes] builds the same program keeping none;
//     errors [IndexError], [StaleIndexError]. When an index is consistent
//     (the one home of the rule): docs/architecture.md, Indexes.
//   - Entities: a [Handle] names one; [Table.Insert], [Table.Attach],
//     [Table.Delete], [Domain.Create] between frames; [Lease] probes rows
//     by handle.
//   - Declare a system: a [DeclareFunc] asks its [Decl] for accessors and
//     returns the body, a [RunFunc]: columns [Read] ([ReadColumn]) and
//     [Write] ([WriteColumn]), each an [Access]; queries [NewQuery1] ..
//     [NewQuery15] ([Query1] .. [Query15]); deferred changes [Record]
//     ([Recorder], [Set], [SetN], [Move], [ReserveValues]) and spawners
//     [NewSpawner1] .. [NewSpawner15] ([Spawner1] .. [Spawner15]; Spawn
//     sets every column, [Spawner1.Reserve]); events
//     [Emit] ([Emitter]), [EmitParallel] ([ParallelEmitter],
//     [WorkerEmitter]), [Consume] ([Consumer]); resources [ReadResource],
//     [WriteResource]; counters [Decl.Counter] ([Counter]); order
//     [Decl.After], [Decl.Before]; run conditions [Decl.RunIf]
//     ([CondFunc]; a skipped run is [SystemReport.Skips]; the rule:
//     docs/architecture.md, Run conditions).
//   - Iterate: [Query1.All] yields every live row ([Row1] .. [Row15]) with
//     its handle; [Query1.Each] calls a function with each row's handle
//     and pointers; [Query1.Parallel] splits the rows over the kernel
//     workers, each call given its [Worker] ([Recorder.At],
//     [ParallelEmitter.At], [Spawner1.At]); a kernel at chunk c uses [Query1.Chunk], or
//     [Query1.Spans] with [Query1.Runs]; without a closure, [NextRun] over
//     [Table.Enabled], bounded by [Table.UsedChunks] and [Table.LiveEnd].
//     A zero query yields nothing (its other uses: package ephemeral,
//     "Queries").
//   - Join the tables of a domain (the entities with rows in several, with
//     their columns): [NewJoin1] .. [NewJoin15] in a system, [HostJoin1]
//     .. [HostJoin15] for the host ([Join1] .. [Join15]), filtered by [With]
//     and [Without] ([Filter]); tag tables (no columns) by [NewJoin] and
//     [HostJoin] ([Join]), probed in a system through [Presence]. The
//     rule: package ephemeral, Joins.
//   - Run kernels: [Parallel], [ParallelPolicy] ([KernelPolicy]; at most
//     [MaxParallelChunks] chunks); lanes for generated SIMD variants:
//     [Lane] ([LaneScalar], [LaneAVX2], [LaneAVX512]; [ParseLane],
//     [Lane.Available]), [BestLane], [SelectLane].
//   - Time: [Context.DT] is the fixed step in FixedUpdate and the frame's
//     delta elsewhere; [Context.FrameDT] is always the frame's.
//   - Set up: a host query [HostQuery1] .. [HostQuery15] inserts the
//     initial entities with a value in each of its columns
//     ([Query1.Insert], [Query1.InsertN]; a bad host query keeps its
//     error, [Query1.Err], returned by its first Insert; a nil fill inserts zeros; a
//     negative count or a panicking fill: package ephemeral, "Queries");
//     [Resource.Get] reads and writes a resource between frames.
//   - Declared queries (docs/schema.md, Queries): the generated code calls
//     the small helpers [QueryFloatKey32], [QueryFloatKey64],
//     [QueryHandleKey], [QueryBoolKey] (ordering keys: docs/schema.md,
//     Query results), [QueryHandle] and [QueryBound]; run-time queries
//     (package runq: docs/architecture.md, Run-time queries) bind a
//     world's tables and columns through [CatalogBinder], which the
//     generated Tables.BindCatalog calls (tickwork-gen -catalog).
//   - Run frames: [World.Frame], [World.Report] ([FrameReport],
//     [SystemReport], [CounterReport], [CommandStats]), [World.Time]
//     ([Time]), [World.Budget] ([Budget]), [World.Close]; [IsFatal] tells
//     an error after which no frame runs.
//   - Save, restore, roll back: [World.Snapshot], [World.Restore],
//     [World.Fingerprint], [World.SnapshotSize], [World.MaxSnapshotSize];
//     the host's configuration in every snapshot [WithHostConfig]
//     ([World.HostConfig], [ErrHostConfig], [HostConfigError]); declared
//     sizes [AddSliceResource], [WithStateAllowance] and the host's check
//     [CheckResource]; save files [SaveFile], [LoadFile] ([FileError]);
//     [NewRollback] ([Rollback]).
//   - Errors: sentinels for errors.Is ([ErrOption] and the blocks after
//     it) and typed errors for errors.As ([OptionError], [ConflictError],
//     [SystemError], [PanicError], [SnapshotError], ...; the names several
//     engine packages share get their layer: [StorageDefinitionError],
//     [SystemDefinitionError], [KernelPanicError], [CommandPlaybackError],
//     [SchedulerStateError], ...), the engine's own values.
//   - Check a program: the debug build (build tag tickwork_debug,
//     [DebugBuild]) fails a frame with an [UndeclaredWriteError]
//     ([ErrUndeclaredWrite]) for a write to what a system declared only to
//     read and an [UnmarkedIndexWriteError] ([ErrUnmarkedIndexWrite])
//     for an index key a MaintainIndex system changed unmarked, poisons
//     freed rows and events, and panics on misused
//     accessors (docs/architecture.md, Debug build).
//
// # Row systems
//
// A row system is the one-call form of the commonest system, a loop over
// the live rows of one table that may record, emit or use a resource:
// Each1 .. Each15 call their function with the run's Context, and
// ParallelEach1 .. ParallelEach15 with the Worker, on the kernel workers.
// Its columns are declared by their arguments, Reads(c) or Writes(c), and
// everything else the body touches by its uses (Records, Spawns1 ..
// Spawns15, Emits, EmitsParallel, ReadsResource, WritesResource) and its
// order (Orders), so
// the system's manifest, and the conflict check Build runs on it, are
// those of the same system written with Builder.System. A use is bound to
// the one system whose declaration it is given to: its accessor (the
// Recorder, Spawner1, Emitter, ... it embeds, or V) is set when Build runs the
// declaration and is valid from the first frame on; given to a second
// system it fails Build with a *SystemDefinitionError (ErrDeclarePanic)
// naming both. Uses are made at set-up, and allocate.
package tickwork
