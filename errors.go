package tickwork

import (
	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/atomicfile"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/lanes"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// The errors of a host's calls, for errors.Is and errors.As: every error
// the face returns matches one of these sentinels, and a typed error below
// carries the details. They are the engine's own values, and each message
// starts with the engine package that raised it ("runtime: ...",
// "scheduler: ..."). A bad domain, table, column, event table or system
// matches ErrStorageDefinition, ErrEventsDefinition or
// ErrSystemDefinition; the Builder's own refusals match ErrDefinition.

// Errors of building a world (NewBuilder's options, the Builder's
// declarations, Build).
var (
	ErrOption        = runtime.ErrOption        // a bad option: an *OptionError
	ErrZeroBuilder   = runtime.ErrZeroBuilder   // a Builder not made by NewBuilder
	ErrBuilt         = runtime.ErrBuilt         // a Builder used after Build
	ErrDefinition    = runtime.ErrDefinition    // a bad Builder declaration: a *DefinitionError
	ErrNilTable      = runtime.ErrNilTable      // AddColumn of a nil table (a failed Table)
	ErrDuplicateName = runtime.ErrDuplicateName // a name declared twice on one Builder
	ErrEmptyName     = runtime.ErrEmptyName     // an empty name: of a table, domain, column, event table, system or resource
	ErrNilResource   = runtime.ErrNilResource   // CheckResource of a nil or foreign resource, or a nil check
	ErrForeign       = runtime.ErrForeign       // a table, event table, resource or domain of another Builder: a *ForeignError
	ErrMemoryBudget  = runtime.ErrMemoryBudget  // a declaration past the memory budget: a *BudgetError

	// ErrStorageDefinition: a bad domain, table or column (empty name,
	// capacity, chunk rows, duplicate column, element type holding
	// pointers, too large, a spec that disagrees with its domain); the
	// sentinels after it are the precise ones.
	ErrStorageDefinition = ephemeral.ErrDefinition
	ErrZeroCapacity      = ephemeral.ErrZeroCapacity    // a capacity outside 1..MaxCapacity
	ErrChunkRows         = ephemeral.ErrChunkRows       // chunk rows not a power of two in range
	ErrDuplicateColumn   = ephemeral.ErrDuplicateColumn // two columns of one table share a name
	ErrUnsupportedType   = ephemeral.ErrUnsupportedType // a column element type holding pointers
	ErrDomainMismatch    = ephemeral.ErrDomainMismatch  // a table spec that disagrees with its domain
	ErrTooLarge          = ephemeral.ErrTooLarge        // a column past the largest size
	ErrNilColumn         = ephemeral.ErrNilColumn       // a nil column (a failed AddColumn)
	ErrQueryTables       = ephemeral.ErrQueryTables     // a query over columns of different tables
	ErrJoinDomains       = ephemeral.ErrJoinDomains     // a join over tables of different domains
	ErrJoinEmpty         = ephemeral.ErrJoinEmpty       // a join with neither a column nor a With table
	ErrJoinExcluded      = ephemeral.ErrJoinExcluded    // a join's table both required and in Without
	ErrRowCopy           = ephemeral.ErrRowCopy         // a lifecycle event's row struct with a field no column pairs with (Lifecycle)

	// ErrEventsDefinition: a bad event table (empty name, capacity
	// outside 1..MaxEvents, unknown lifetime).
	ErrEventsDefinition = events.ErrDefinition
	ErrCapacityRange    = events.ErrCapacityRange // an event capacity outside 1..MaxEvents
	ErrLifetime         = events.ErrLifetime      // a lifetime other than NextFrame and ThisFrame

	// ErrSystemDefinition: a bad system or declaration; the sentinels
	// after it are the precise ones.
	ErrSystemDefinition = systems.ErrDefinition
	ErrNoDeclare        = systems.ErrNoDeclare       // a System without Declare
	ErrNoRun            = systems.ErrNoRun           // a DeclareFunc that returned a nil body
	ErrBadPhase         = systems.ErrBadPhase        // a phase that is none of the five
	ErrBadDeclaration   = systems.ErrBadDeclaration  // an accessor call that fails the declaration
	ErrDeclarePanic     = systems.ErrDeclarePanic    // a DeclareFunc that panicked: a *DeclarePanicError inside the *SystemDefinitionError
	ErrConditionAccess  = systems.ErrConditionAccess // a run condition (Decl.RunIf) asked for an accessor that writes, records, emits or counts

	ErrConflict         = scheduler.ErrConflict         // unordered systems touch the same data: a *ConflictError
	ErrCycle            = scheduler.ErrCycle            // an ordering cycle: a *CycleError
	ErrPhaseOrder       = scheduler.ErrPhaseOrder       // an order that contradicts the phase order: a *PhaseOrderError
	ErrEventOrder       = scheduler.ErrEventOrder       // a ThisFrame consumer not after every emitter: an *EventOrderError
	ErrUnreadEvents     = scheduler.ErrUnreadEvents     // a ThisFrame table emitted into and consumed by no system: an *UnreadEventsError
	ErrUnknownSystem    = scheduler.ErrUnknownSystem    // an order names no system: an *UnknownSystemError
	ErrDuplicateSystem  = scheduler.ErrDuplicateSystem  // two systems share a name: a *DuplicateError
	ErrHook             = scheduler.ErrHook             // a hook failed: a *HookError
	ErrHookPanic        = scheduler.ErrHookPanic        // a hook panicked: a *HookPanicError inside the *HookError
	ErrNilHook          = scheduler.ErrNilHook          // Builder.Hook(nil)
	ErrHookDone         = scheduler.ErrHookDone         // a Hook's Add, Order or Substitute after its hook returned
	ErrManifestMismatch = scheduler.ErrManifestMismatch // a substitute declares another manifest: a *SubstituteError
)

// Errors of running frames (World.Frame, World.Close, the structural
// changes of tables and domains).
var (
	ErrClosed          = runtime.ErrClosed            // Frame, or a structural change of its tables, on a closed world
	ErrZeroWorld       = runtime.ErrZeroWorld         // Frame or Close on a World not made by Build
	ErrRunning         = runtime.ErrRunning           // Close, Snapshot, Restore or a Rollback call from a system
	ErrBadDelta        = scheduler.ErrBadDelta        // a bad frame delta: a *DeltaError
	ErrClockOverflow   = scheduler.ErrClockOverflow   // a frame that would overflow the clock's account
	ErrSystem          = scheduler.ErrSystem          // a system failed (Context.Fail): a *SystemError
	ErrSystemPanic     = scheduler.ErrSystemPanic     // a system panicked: the *PanicError Frame panics with
	ErrKernelPanic     = kernels.ErrKernelPanic       // a kernel panicked, inside the *PanicError
	ErrPlayback        = scheduler.ErrPlayback        // a command playback could not carry out a record: a *PlaybackError
	ErrCommandPlayback = commands.ErrPlayback         // the same value as ErrPlayback (CommandStats.Err matches both)
	ErrTooManyCreates  = commands.ErrTooManyCreates   // a buffer's creates past their most between releases
	ErrNoRow           = commands.ErrNoRow            // a deferred Set of a live entity with no row in the column's table, inside a *PlaybackError
	ErrMoveNoRow       = commands.ErrMoveNoRow        // a Move of a live entity with no row in the source table at that point of the playback, inside a *PlaybackError
	ErrReentrant       = scheduler.ErrReentrant       // Frame called during a frame
	ErrPoisoned        = scheduler.ErrPoisoned        // a panic left a frame unfinished (fatal)
	ErrOverflow        = events.ErrOverflow           // events refused by a full table: an *OverflowError
	ErrCapacity        = ephemeral.ErrCapacity        // a create into a full table or domain: a *CapacityError
	ErrStaleHandle     = ephemeral.ErrStaleHandle     // a zero or stale handle
	ErrForeignHandle   = ephemeral.ErrForeignHandle   // a handle of another domain
	ErrRowExists       = ephemeral.ErrRowExists       // an Attach of an entity that has a row
	ErrNegativeCount   = ephemeral.ErrNegativeCount   // a query's InsertN of fewer than 0 rows, or a negative Reserve: a *CountError
	ErrZeroQuery       = ephemeral.ErrZeroQuery       // Insert or InsertN of a zero query (Query1{} ...), which has no table
	ErrUnknownLane     = lanes.ErrUnknownLane         // a lane that is none of the three
	ErrLaneUnavailable = lanes.ErrUnavailable         // a lane this build or CPU does not run (SelectLane)
	ErrConcurrentFrame = scheduler.ErrConcurrentFrame // Frame called from another goroutine while a frame runs (matches ErrReentrant too)
	ErrNestedParallel  = systems.ErrNestedParallel    // Parallel called from inside a kernel: the Value of the kernel's *PanicError
	// ErrUndeclaredWrite: in the checking debug build (build tag
	// tickwork_debug; docs/architecture.md, Debug build), a system changed
	// a column or resource it declared only to read: an
	// *UndeclaredWriteError inside the frame's *SystemError.
	ErrUndeclaredWrite = scheduler.ErrUndeclaredWrite
	// ErrUnmarkedIndexWrite: in the checking debug build, a system that
	// declared MaintainIndex changed an index key of a row it did not
	// mark: an *UnmarkedIndexWriteError inside the frame's *SystemError.
	ErrUnmarkedIndexWrite = scheduler.ErrUnmarkedIndexWrite
)

// Errors of snapshots and rollback (World.Snapshot, World.Restore,
// NewRollback, Rollback).
var (
	ErrSnapshot      = runtime.ErrSnapshot      // any refused Snapshot or Restore: a *SnapshotError
	ErrTruncated     = runtime.ErrTruncated     // the input ends early
	ErrCorrupt       = runtime.ErrCorrupt       // not a snapshot, bad checksum, or no state of this world
	ErrVersion       = runtime.ErrVersion       // another format version
	ErrOtherWorld    = runtime.ErrOtherWorld    // another world's declarations
	ErrHostConfig    = runtime.ErrHostConfig    // another host configuration (WithHostConfig): its Cause is a *HostConfigError
	ErrUnsupported   = runtime.ErrUnsupported   // a world a snapshot cannot hold
	ErrResourceState = systems.ErrResourceState // a resource a snapshot cannot hold or whose state it refuses: a *ResourceStateError
	ErrNoSnapshot    = runtime.ErrNoSnapshot    // Rollback.Load of a frame not held: a *RollbackError
	// ErrNotRegularFile: SaveFile or LoadFile at a path naming a directory,
	// a named pipe, a device or a socket, inside a *FileError.
	ErrNotRegularFile = atomicfile.ErrNotRegular
)

// The typed errors behind the sentinels: the engine's own types, so that
// errors.As reaches the details with this package alone. Each is an alias
// (the one kind of alias the face keeps: an error's fields and message are
// the engine's, and an alias lets errors.As match what the engine
// returns). An engine name unique across the engine keeps its name
// (OptionError is runtime.OptionError, ConflictError
// scheduler.ConflictError); a name several engine packages use gets its
// layer in front (the block after this one: StorageDefinitionError is
// ephemeral.DefinitionError, SystemDefinitionError systems.DefinitionError,
// KernelPanicError kernels.PanicError, CommandPlaybackError
// commands.PlaybackError, ...). Every exported error type of the engine a
// face call can return is named here or there (TestFaceErrorTypes reaches
// each layer-named one through a face call); scheduler.ConfigError and kernels.ErrWorkers
// cannot reach a host, whose options are checked first (an *OptionError),
// and a failed save's file step is FileError.Step.
type (
	OptionError        = runtime.OptionError
	DefinitionError    = runtime.DefinitionError
	ForeignError       = runtime.ForeignError
	SnapshotError      = runtime.SnapshotError
	RollbackError      = runtime.RollbackError
	HostConfigError    = runtime.HostConfigError
	BudgetError        = memory.BudgetError
	CapacityError      = ephemeral.CapacityError
	CountError         = ephemeral.CountError
	OverflowError      = events.OverflowError
	ConflictError      = scheduler.ConflictError
	CycleError         = scheduler.CycleError
	PhaseOrderError    = scheduler.PhaseOrderError
	EventOrderError    = scheduler.EventOrderError
	UnreadEventsError  = scheduler.UnreadEventsError
	UnknownSystemError = scheduler.UnknownSystemError
	DuplicateError     = scheduler.DuplicateError
	SubstituteError    = scheduler.SubstituteError
	HookError          = scheduler.HookError
	HookPanicError     = scheduler.HookPanicError
	DeltaError         = scheduler.DeltaError
	SystemError        = scheduler.SystemError
	PanicError         = scheduler.PanicError
	PlaybackError      = scheduler.PlaybackError
	ResourceStateError = systems.ResourceStateError
	CodecPanicError    = systems.CodecPanicError
	DeclarePanicError  = systems.DeclarePanicError
	// UndeclaredWriteError names the system and the column or resource
	// it changed without declaring a write (the debug build only).
	UndeclaredWriteError = scheduler.UndeclaredWriteError
	// UnmarkedIndexWriteError names the system, the index, its key columns
	// and the lowest row whose key the system changed without marking it
	// (the debug build only).
	UnmarkedIndexWriteError = scheduler.UnmarkedIndexWriteError
)

// The typed errors whose engine names other engine packages use too,
// under their layer's name (see the block above).
type (
	// StorageDefinitionError (ephemeral.DefinitionError) is a bad domain,
	// table or column: Kind (StorageKindTable or StorageKindDomain), Table,
	// Column, the precise sentinel Err (ErrZeroCapacity, ErrChunkRows,
	// ErrDuplicateColumn, ...) and Detail. errors.Is matches
	// ErrStorageDefinition and Err. Builder.Err and Build return it.
	StorageDefinitionError = ephemeral.DefinitionError
	// EventsDefinitionError (events.DefinitionError) is a bad event table:
	// Table, the precise sentinel Err (ErrCapacityRange, ErrLifetime or an
	// empty name) and Detail. errors.Is matches ErrEventsDefinition and Err.
	EventsDefinitionError = events.DefinitionError
	// SystemDefinitionError (systems.DefinitionError) is a bad system or
	// declaration: System, the precise sentinel Err (ErrNoDeclare, ErrNoRun,
	// ErrBadPhase, ErrBadDeclaration, an empty name), Detail and the lower
	// layer's Cause (a *StorageDefinitionError for a query over columns of
	// two tables). errors.Is matches ErrSystemDefinition, Err and Cause.
	SystemDefinitionError = systems.DefinitionError
	// KernelPanicError (kernels.PanicError) is a kernel's panic (Parallel,
	// a generated system's kernel): Worker, Chunk, Value, Stack, Others.
	// Frame panics with a *PanicError whose Value it is; errors.Is matches
	// ErrKernelPanic, and errors.As reaches Value when it is an error.
	KernelPanicError = kernels.PanicError
	// CommandPlaybackError (commands.PlaybackError) is PlaybackError, the
	// one playback error type, under its engine name: the system (System,
	// its buffer's name), Phase, Frame, Buffer, Record, Op, Table and the
	// storage error Err (a *CapacityError, ErrRowExists, ErrForeignHandle,
	// ErrTooManyCreates). Frame returns it and CommandStats.Err holds it;
	// errors.Is matches ErrPlayback and Err. It is its buffer's, reused
	// (a failing frame allocates nothing): copy it to keep it past a later
	// failing frame of the same system (commands.PlaybackError, Memory).
	CommandPlaybackError = commands.PlaybackError
	// SchedulerStateError (scheduler.StateError) is a scheduler section a
	// Restore refuses (a clock account that does not balance) or the
	// playback part's refusal in Err (a *CommandStateError). It is a
	// *SnapshotError's Cause; errors.Is matches ErrSchedulerState.
	SchedulerStateError = scheduler.StateError
	// CommandStateError (commands.StateError) is the playback part of a
	// scheduler section a Restore refuses (a bad tag, resolutions that do
	// not match the creates): Detail. It is a *SchedulerStateError's Err;
	// errors.Is matches ErrCommandState.
	CommandStateError = commands.StateError
	// StorageStateError (ephemeral.StateError) is a domain section a
	// Restore refuses (counts, generations, free slots or rows that
	// disagree): Domain, Table ("" for the domain's own part) and Detail.
	// It is a *SnapshotError's Cause; errors.Is matches ErrStorageState.
	StorageStateError = ephemeral.StateError
	// EventsStateError (events.StateError) is an event table whose state a
	// Snapshot cannot take (events holding pointers) or a Restore refuses
	// (marks past the events): Table and Detail. It is a *SnapshotError's
	// Cause; errors.Is matches ErrEventsState.
	EventsStateError = events.StateError
)

// The kinds of a *StorageDefinitionError: what its Table names.
const (
	StorageKindTable  = ephemeral.KindTable  // a table (Builder.Table, AddColumn), also the zero value
	StorageKindDomain = ephemeral.KindDomain // a domain (Builder.Domain)
)

// The sentinels of the state errors above (a *SnapshotError's Cause):
// errors.Is tells which part of a snapshot was refused.
var (
	ErrSchedulerState = scheduler.ErrState // the scheduler's section: a *SchedulerStateError
	ErrCommandState   = commands.ErrState  // its playback part: a *CommandStateError
	ErrStorageState   = ephemeral.ErrState // a domain's section: a *StorageStateError
	ErrEventsState    = events.ErrState    // an event table's section: an *EventsStateError
)
