package tickwork

import (
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
)

// LifecycleChange is what happened to a row of a table, as a lifecycle event says
// it, and, ORed, a set of them (LifecycleSpec.On). What each means, when
// it is recorded and read: docs/architecture.md, Lifecycle events.
type LifecycleChange uint8

// The changes of a row. Each is one bit.
const (
	// Created: a new entity with a row in the table (a recorder's Create,
	// a spawner's Spawn).
	Created LifecycleChange = 1 << ephemeral.Created
	// Attached: a row added for a live entity (Attach, Move into the
	// table).
	Attached LifecycleChange = 1 << ephemeral.Attached
	// Deleted: the row left with its entity's deletion (Delete, of any
	// table of its domain).
	Deleted LifecycleChange = 1 << ephemeral.Deleted
	// Detached: the row left while the entity lived on (Remove, Move out
	// of the table), even when the entity, left with no row, is deleted at
	// the end of the playback.
	Detached LifecycleChange = 1 << ephemeral.Detached
	// AllLifecycleChanges is the set of the four.
	AllLifecycleChanges = Created | Attached | Deleted | Detached
)

// String returns "create", "attach", "delete", "detach", or the changes
// of a set joined by "|" ("create|delete"); "none" for 0.
func (c LifecycleChange) String() string {
	if c == 0 {
		return "none"
	}
	s := ""
	for k := ephemeral.Created; k <= ephemeral.Detached; k++ {
		if c&(1<<k) != 0 {
			if s != "" {
				s += "|"
			}
			s += k.String()
		}
	}
	if rest := c &^ AllLifecycleChanges; rest != 0 {
		if s != "" {
			s += "|"
		}
		s += "LifecycleChange(" + strconv.Itoa(int(rest)) + ")"
	}
	return s
}

// LifecycleSpec declares a table's lifecycle event table (Lifecycle).
type LifecycleSpec struct {
	Name     string          // the event table's name: non-empty, unique among the builder's event tables
	Capacity int             // the most events held at once, 1..MaxEvents
	On       LifecycleChange // the changes recorded, ORed; 0 records AllLifecycleChanges
}

// LifecycleEvent is one change of one row of a table, made by its
// world's command playback (Lifecycle). V is a struct of the table's
// column values the event keeps: each field takes the column of its name
// (or of the name in its `tickwork:"..."` tag) and type; struct{} keeps
// none.
type LifecycleEvent[V any] struct {
	Change LifecycleChange // one of Created, Attached, Deleted, Detached
	// Handle is the entity's real handle (never a provisional one). After
	// a Deleted event it is stale; after a Created one it may be too, when
	// a later record deleted the entity (check with the table).
	Handle Handle
	// Row holds, for Deleted and Detached, the row's last values of V's
	// columns, copied before the row left; zero for Created and Attached
	// (read the live row from the table).
	Row V
}

// Lifecycle declares a NextFrame event table of LifecycleEvent[V], named
// spec.Name and of spec.Capacity events, that the world's command
// playback fills with one event per change in spec.On of a row of t, in
// playback order, the same at any worker count; systems consume it as any
// event table (Consume, Observe). The rule, once: docs/architecture.md,
// Lifecycle events. A full table refuses an event, counts it in Dropped
// and the frame returns an *OverflowError (ErrOverflow). Changes the host
// makes between frames are not recorded. A table without a lifecycle
// event table pays nothing at playback but one length test per change.
//
// A bad spec, a nil or foreign t, or a V whose fields do not pair with
// t's columns (a *StorageDefinitionError, errors.Is ErrRowCopy, naming the
// field and listing the columns) records an error and returns nil.
// Set-up only; several lifecycle tables may watch one table.
func Lifecycle[V any](b *Builder, t *Table, spec LifecycleSpec) *Events[LifecycleEvent[V]] {
	return (*Events[LifecycleEvent[V]])(runtime.Lifecycle(b.e(), t.e(),
		runtime.LifecycleSpec{Name: spec.Name, Capacity: spec.Capacity, On: uint8(spec.On)}, setLifecycle[V]))
}

// setLifecycle fills the event of change c of h's row and returns where
// its row values go.
func setLifecycle[V any](e *LifecycleEvent[V], c ephemeral.RowChange, h ephemeral.Handle) *V {
	e.Change, e.Handle = 1<<c, Handle(h)
	return &e.Row
}
