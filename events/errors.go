package events

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/tickwork/tickwork/internal/plumb"
)

// Sentinel errors of the package. Every error returned by events matches one
// of them with errors.Is, or memory.ErrBudget: an event table's buffers
// (New) or staging (Parallel) that do not fit in what is left of its
// memory budget are a *memory.BudgetError naming the table, the bytes
// asked and the budget; nothing was allocated.
var (
	// ErrOverflow: an emit into a table that already holds its capacity of
	// events. Returned as an *OverflowError naming the table.
	ErrOverflow = errors.New("events: table full")
	// ErrDefinition: a bad Spec. Returned as a *DefinitionError whose Unwrap
	// gives one of the more precise sentinels below.
	ErrDefinition = errors.New("events: bad definition")
	// ErrCapacityRange: a capacity <= 0 or above MaxCapacity events.
	ErrCapacityRange = errors.New("capacity must be between 1 and " + strconv.Itoa(MaxCapacity) + " events")
	// ErrLifetime: a Lifetime other than NextFrame and ThisFrame.
	ErrLifetime = errors.New("lifetime must be NextFrame or ThisFrame")
)

// errEmptyName: a Spec without a name, the Err of a *DefinitionError
// (errors.Is ErrDefinition) whose message says so. Not exported: a
// caller's slip the message alone fixes.
var errEmptyName = plumb.ErrEmptyName

// OverflowError reports an event dropped because its table already held
// Capacity events (see Table for what a table holds). errors.Is(err,
// ErrOverflow) is true.
//
// Each table returns the same *OverflowError value for every overflow (so an
// emit never allocates); treat it as read-only.
type OverflowError struct {
	Table    string // table name
	Capacity int    // the table's capacity, in events
}

func (e *OverflowError) Error() string {
	return "events: table " + strconv.Quote(e.Table) + " is full: it holds its capacity of " +
		strconv.Itoa(e.Capacity) + " events (unread, or emitted this frame); event dropped"
}

// Is reports whether target is ErrOverflow.
func (e *OverflowError) Is(target error) bool { return target == ErrOverflow }

// DefinitionError reports a bad Spec. errors.Is(err, ErrDefinition) is true,
// and so is errors.Is(err, Err) for the precise sentinel.
type DefinitionError struct {
	Table  string // table name (may be empty)
	Err    error  // ErrCapacityRange, ErrLifetime or errEmptyName (an empty name)
	Detail string // the offending value
}

func (e *DefinitionError) Error() string {
	if e.Err == errEmptyName && e.Table == "" {
		return "events: event table " + e.Err.Error() // "events: event table name must not be empty"
	}
	s := fmt.Sprintf("events: table %q: %v", e.Table, e.Err)
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// Is reports whether target is ErrDefinition.
func (e *DefinitionError) Is(target error) bool { return target == ErrDefinition }

// Unwrap returns the precise sentinel.
func (e *DefinitionError) Unwrap() error { return e.Err }
