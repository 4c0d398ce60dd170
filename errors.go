package tickwork

import (
	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
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
	ErrEmptyName     = runtime.ErrEmptyName     // AddResource without a name
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

	// ErrEventsDefinition: a bad event table (empty name, capacity
	// outside 1..MaxEvents, unknown lifetime).
	ErrEventsDefinition = events.ErrDefinition
	ErrCapacityRange    = events.ErrCapacityRange // an event capacity outside 1..MaxEvents
	ErrLifetime         = events.ErrLifetime      // a lifetime other than NextFrame and ThisFrame

	// ErrSystemDefinition: a bad system or declaration; the sentinels
	// after it are the precise ones.
	ErrSystemDefinition = systems.ErrDefinition
	ErrNoDeclare        = systems.ErrNoDeclare      // a System without Declare
	ErrNoRun            = systems.ErrNoRun          // a DeclareFunc that returned a nil body
	ErrBadPhase         = systems.ErrBadPhase       // a phase that is none of the five
	ErrBadDeclaration   = systems.ErrBadDeclaration // an accessor call that fails the declaration

	ErrConflict         = scheduler.ErrConflict         // unordered systems touch the same data: a *ConflictError
	ErrCycle            = scheduler.ErrCycle            // an ordering cycle: a *CycleError
	ErrPhaseOrder       = scheduler.ErrPhaseOrder       // an order that contradicts the phase order: a *PhaseOrderError
	ErrEventOrder       = scheduler.ErrEventOrder       // a ThisFrame consumer not after every emitter: an *EventOrderError
	ErrUnknownSystem    = scheduler.ErrUnknownSystem    // an order names no system: an *UnknownSystemError
	ErrDuplicateSystem  = scheduler.ErrDuplicateSystem  // two systems share a name: a *DuplicateError
	ErrHook             = scheduler.ErrHook             // a hook failed: a *HookError
	ErrHookPanic        = scheduler.ErrHookPanic        // a hook panicked: a *HookPanicError inside the *HookError
	ErrNilHook          = scheduler.ErrNilHook          // Builder.Hook(nil)
	ErrManifestMismatch = scheduler.ErrManifestMismatch // a substitute declares another manifest: a *SubstituteError
)

// Errors of running frames (World.Frame, World.Close, the structural
// changes of tables and domains).
var (
	ErrClosed          = runtime.ErrClosed          // Frame on a closed world
	ErrZeroWorld       = runtime.ErrZeroWorld       // Frame or Close on a World not made by Build
	ErrRunning         = runtime.ErrRunning         // Close, Snapshot, Restore or a Rollback call from a system
	ErrBadDelta        = scheduler.ErrBadDelta      // a bad frame delta: a *DeltaError
	ErrClockOverflow   = scheduler.ErrClockOverflow // a frame that would overflow the clock's account
	ErrSystem          = scheduler.ErrSystem        // a system failed (Context.Fail): a *SystemError
	ErrSystemPanic     = scheduler.ErrSystemPanic   // a system panicked: the *PanicError Frame panics with
	ErrKernelPanic     = kernels.ErrKernelPanic     // a kernel panicked, inside the *PanicError
	ErrPlayback        = scheduler.ErrPlayback      // a command playback could not carry out a record: a *PlaybackError
	ErrCommandPlayback = commands.ErrPlayback       // the record inside a *PlaybackError, and CommandStats.Err
	ErrTooManyCreates  = commands.ErrTooManyCreates // a buffer's creates past their most between releases
	ErrReentrant       = scheduler.ErrReentrant     // Frame called during a frame
	ErrPoisoned        = scheduler.ErrPoisoned      // a panic left a frame unfinished (fatal)
	ErrOverflow        = events.ErrOverflow         // events refused by a full table: an *OverflowError
	ErrCapacity        = ephemeral.ErrCapacity      // a create into a full table or domain: a *CapacityError
	ErrStaleHandle     = ephemeral.ErrStaleHandle   // a zero or stale handle
	ErrForeignHandle   = ephemeral.ErrForeignHandle // a handle of another domain
	ErrRowExists       = ephemeral.ErrRowExists     // an Attach of an entity that has a row
	ErrUnknownLane     = lanes.ErrUnknownLane       // a lane that is none of the three
	ErrLaneUnavailable = lanes.ErrUnavailable       // a lane this build or CPU does not run (SelectLane)
)

// Errors of snapshots and rollback (World.Snapshot, World.Restore,
// NewRollback, Rollback).
var (
	ErrSnapshot      = runtime.ErrSnapshot      // any refused Snapshot or Restore: a *SnapshotError
	ErrTruncated     = runtime.ErrTruncated     // the input ends early
	ErrCorrupt       = runtime.ErrCorrupt       // not a snapshot, bad checksum, or no state of this world
	ErrVersion       = runtime.ErrVersion       // another format version
	ErrOtherWorld    = runtime.ErrOtherWorld    // another world's declarations
	ErrUnsupported   = runtime.ErrUnsupported   // a world a snapshot cannot hold
	ErrResourceState = systems.ErrResourceState // a resource a snapshot cannot hold or whose state it refuses: a *ResourceStateError
	ErrNoSnapshot    = runtime.ErrNoSnapshot    // Rollback.Load of a frame not held: a *RollbackError
)

// The typed errors behind the sentinels: the engine's own types, so that
// errors.As reaches the details with this package alone.
type (
	OptionError        = runtime.OptionError
	DefinitionError    = runtime.DefinitionError
	ForeignError       = runtime.ForeignError
	SnapshotError      = runtime.SnapshotError
	RollbackError      = runtime.RollbackError
	BudgetError        = memory.BudgetError
	CapacityError      = ephemeral.CapacityError
	OverflowError      = events.OverflowError
	ConflictError      = scheduler.ConflictError
	CycleError         = scheduler.CycleError
	PhaseOrderError    = scheduler.PhaseOrderError
	EventOrderError    = scheduler.EventOrderError
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
)
