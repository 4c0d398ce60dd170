package runtime

import (
	"errors"
	"strconv"

	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/scheduler"
)

// Sentinel errors of the package. Every error returned by runtime matches
// one of them with errors.Is, or is an error of package ephemeral, events,
// systems or scheduler passed through as it is.
var (
	// ErrOption: an option with a bad value (or a nil Option). Returned by
	// Build as an *OptionError.
	ErrOption = errors.New("runtime: bad option")
	// ErrBuilt: a Builder used after Build.
	ErrBuilt = errors.New("runtime: builder already built; make a new Builder for another world")
	// ErrClosed: Frame, or a structural change of its tables, on a closed
	// World.
	ErrClosed = errors.New("runtime: world is closed")
	// ErrZeroWorld: Frame or Close on a World not made by Builder.Build (a
	// zero World{} or a nil *World). Its other methods panic with this
	// message.
	ErrZeroWorld = errors.New(zeroWorld)
	// ErrRunning: Close, Snapshot, Restore, NewRollback or a Rollback's
	// Save, Load or Rewind called while a frame runs (from a system);
	// nothing was done. Close returns ErrRunning itself; the others return
	// an error naming the call ("runtime: Snapshot called during a frame
	// ...") for which errors.Is(err, ErrRunning) is true.
	ErrRunning = errors.New("runtime: Close called during a frame (from a system?); close the world after Frame returns")
	// ErrDefinition: a bad declaration on a Builder. Returned as a
	// *DefinitionError whose Unwrap gives ErrNilTable, ErrDuplicateName,
	// ErrEmptyName, ErrNilResource, errSpecBudget or (AddSliceResource) a
	// *systems.ResourceStateError.
	ErrDefinition = errors.New("runtime: bad declaration")
	// ErrNilTable: AddColumn given a nil table, what a failed Table
	// returns. Precise sentinel of a *DefinitionError.
	ErrNilTable = errors.New("nil table (check the error of the Table call that made it)")
	// ErrDuplicateName: a name declared twice among one Builder's tables,
	// among its event tables, among its domains or among its resources (a
	// table and an event table, or a table and a domain, may share a name).
	// Precise sentinel of a *DefinitionError, whose message says which
	// names clash.
	ErrDuplicateName = errors.New("name already declared on this builder")
	// ErrNilResource: CheckResource given a nil resource or check, or a
	// resource another Builder declared. Precise sentinel of a
	// *DefinitionError.
	ErrNilResource = errors.New("nil resource or check, or a resource of another builder (check the error of the AddResource call that made it)")
	// ErrEmptyName: AddResource with an empty name (precise sentinel of a
	// *DefinitionError), and the same value as ephemeral.ErrEmptyName,
	// events.ErrEmptyName and systems.ErrEmptyName: every empty name (a
	// table, domain, column, event table, system or resource) matches it.
	ErrEmptyName = plumb.ErrEmptyName
	// ErrMemoryBudget: a definition, or a system's per-worker event
	// staging, that does not fit in what is left of the world's memory
	// budget (WithMemoryBudget); nothing was allocated. Returned as a
	// *memory.BudgetError naming the table (or domain, event table) and
	// column, the bytes asked and the budget; staging fails the frame as a
	// *scheduler.SystemError wrapping it. It is memory.ErrBudget, the same
	// value ephemeral and events return for their own budgets.
	ErrMemoryBudget = memory.ErrBudget
	// ErrZeroBuilder: a Builder not made by NewBuilder (a zero
	// runtime.Builder{}, or a nil *Builder). Err and Build return it.
	ErrZeroBuilder = errors.New("runtime: Builder not made by NewBuilder (a zero Builder{} or a nil *Builder): make it with NewBuilder(opts...)")
	// ErrForeign: a table, event table, resource or domain not declared
	// through the Builder at hand (made by another Builder, or standalone
	// with package ephemeral, events or systems). Returned as a
	// *ForeignError.
	ErrForeign = errors.New("runtime: not declared through this builder")
)

// errSpecBudget: a spec given to Builder.Domain, Builder.Table or
// AddEvents that names a memory budget other than the Builder's own; the
// Err of a *DefinitionError. Not exported: a slip of a caller of this
// layer (the face's specs have no budget) that the message says how to fix.
var errSpecBudget = errors.New("spec names its own memory budget; a world charges every definition to its Builder's (WithMemoryBudget): leave the spec's Budget nil")

// errNilSet: Lifecycle given a nil set function; the Err of a
// *DefinitionError. Not exported, as errSpecBudget: the face always
// passes one.
var errNilSet = errors.New("nil set function: pass a func that fills the event's change and handle and returns where the row's values go")

// OptionError reports an option with a bad value, such as WithWorkers(0),
// or a nil Option given to NewBuilder (Option "NewBuilder").
// errors.Is(err, ErrOption) is true.
type OptionError struct {
	Option string // such as "WithWorkers"
	Value  string // the offending value
	Reason string // the accepted range
}

func (e *OptionError) Error() string {
	return "runtime: " + e.Option + "(" + e.Value + "): " + e.Reason
}

// Is reports whether target is ErrOption.
func (e *OptionError) Is(target error) bool { return target == ErrOption }

// DefinitionError reports a bad declaration on a Builder: the call
// ("AddColumn", "Table", "AddEvents", "AddResource" or "Domain"), the name
// it declares and the precise sentinel (ErrNilTable, ErrDuplicateName,
// ErrEmptyName or, not exported, errSpecBudget). errors.Is(err, ErrDefinition) is true,
// and so is errors.Is(err, Err).
type DefinitionError struct {
	Call string // "AddColumn", "Table", "AddEvents", "AddResource" or "Domain"
	Name string // the column, table, event table, resource or domain name declared
	Err  error  // ErrNilTable, ErrDuplicateName, ErrEmptyName or errSpecBudget
}

func (e *DefinitionError) Error() string {
	s := "runtime: " + e.Call + " " + strconv.Quote(e.Name) + ": " + e.Err.Error()
	if e.Err == ErrDuplicateName {
		kind := map[string]string{"Table": "table", "AddEvents": "event table", "Domain": "domain", "AddResource": "resource"}[e.Call]
		if kind != "" {
			s += "; " + kind + " names must be unique among the builder's " + kind +
				"s, since errors and reports name them"
		}
	}
	return s
}

// Is reports whether target is ErrDefinition.
func (e *DefinitionError) Is(target error) bool { return target == ErrDefinition }

// Unwrap returns the precise sentinel.
func (e *DefinitionError) Unwrap() error { return e.Err }

// ForeignError reports a table, event table, resource or domain that a
// world would share with another (or with code outside it): named by a
// system's declaration (System, Where "its declaration") or given to a
// Builder call (System empty, Where the call) without having been declared
// through this Builder. Worlds share no data: declare tables with
// Builder.Table, event tables with AddEvents, resources with AddResource
// and domains with Builder.Domain. errors.Is(err, ErrForeign) is true.
type ForeignError struct {
	System string // the system whose declaration names it; "" for a Builder call
	Where  string // "its declaration", or the call (`AddColumn "Y"`, `Table "Body"`)
	Kind   string // "table", "event table", "resource" or "domain"
	Name   string // the name of the foreign table, event table, resource or domain
}

func (e *ForeignError) Error() string {
	s := "runtime: "
	if e.System != "" {
		s += "system " + strconv.Quote(e.System) + ": "
	}
	how := "Builder.Table"
	switch e.Kind {
	case "event table":
		how = "AddEvents"
	case "domain":
		how = "Builder.Domain"
	case "resource":
		how = "AddResource"
	}
	return s + e.Where + " names " + e.Kind + " " + strconv.Quote(e.Name) +
		", which was not declared through this Builder; worlds share no data: declare it with " + how
}

// Is reports whether target is ErrForeign.
func (e *ForeignError) Is(target error) bool { return target == ErrForeign }

// callError is ErrRunning for a call other than Close: its message names
// the call; Unwrap gives ErrRunning. poisoned is the same call's refusal
// on a poisoned world.
type callError struct {
	msg      string
	err      error
	poisoned *poisonedError
}

func (e *callError) Error() string { return e.msg }
func (e *callError) Unwrap() error { return e.err }

func running(call string) *callError {
	return &callError{
		msg: "runtime: " + call + " called during a frame (from a system?); call it between frames, after Frame returns", err: ErrRunning,
		poisoned: &poisonedError{msg: "runtime: " + call + " refused: a panic poisoned this world (Frame returns ErrPoisoned), " +
			"leaving its last frame half-run, and a snapshot would carry that state on; close this world and build a new one, " +
			"restoring into it a save or rollback snapshot taken before the panic"},
	}
}

// poisonedError refuses Snapshot, Restore, NewRollback and a Rollback's
// Save, Load and Rewind on a world a panic poisoned (docs/state.md, "What
// a snapshot refuses"): errors.Is matches scheduler.ErrPoisoned (so
// IsFatal is true) and ErrSnapshot.
type poisonedError struct{ msg string }

func (e *poisonedError) Error() string { return e.msg }

func (e *poisonedError) Is(target error) bool {
	return target == scheduler.ErrPoisoned || target == ErrSnapshot
}

// The ErrRunning of each call, made once (a refused call allocates nothing).
var (
	errRunningSnapshot    = running("Snapshot")
	errRunningRestore     = running("Restore")
	errRunningNewRollback = running("NewRollback")
	errRunningSave        = running("Rollback.Save")
	errRunningLoad        = running("Rollback.Load")
	errRunningRewind      = running("Rollback.Rewind")
)

func itoa(n int) string { return strconv.Itoa(n) }

// zeroWorld is ErrZeroWorld's message, and the panic of a zero World's
// methods without an error result.
const zeroWorld = "runtime: World not made by Builder.Build (a zero World{} or a nil *World): build one with NewBuilder(...).Build()"
