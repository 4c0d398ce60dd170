package runtime

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
)

// LifecycleSpec declares the lifecycle event table of a table (Lifecycle).
type LifecycleSpec struct {
	Name     string // the event table's name: non-empty, unique among the builder's event tables
	Capacity int    // the most events the table holds at once, 1..events.MaxCapacity
	// On is the set of changes recorded, bit 1<<c for each ephemeral.RowChange
	// c; 0 records all four.
	On uint8
}

// AllRowChanges is LifecycleSpec.On with every change (Created, Attached,
// Deleted, Detached).
const AllRowChanges uint8 = 1<<ephemeral.Created | 1<<ephemeral.Attached | 1<<ephemeral.Deleted | 1<<ephemeral.Detached

// Lifecycle declares a NextFrame event table of events E, spec.Name and
// spec.Capacity, that a world's command playback fills with one E per
// change in spec.On of a row of t, in playback order: the rule, what each
// change means and when it is read, is docs/architecture.md, Lifecycle
// events. Each E is built by set, which fills e's change and handle and
// returns where the row's values go (nil: nowhere); for Deleted and
// Detached they are the row's last values, copied from t's columns paired
// with V's fields (ephemeral.RowCopy), zero for Created and Attached.
// set must not keep e. Structural changes the host makes between frames
// are not recorded. A table that has no lifecycle event table pays
// nothing more at playback than one length test per change.
//
// It records, and returns nil for, what AddEvents records, a
// *DefinitionError (ErrNilTable) for a nil t (errNilSet for a nil set), a
// *ForeignError for a t of another builder, and an
// *ephemeral.DefinitionError (ephemeral.ErrRowCopy) for a V whose fields
// do not pair with t's columns. Set-up only.
func Lifecycle[E, V any](b *Builder, t *ephemeral.Table, spec LifecycleSpec, set func(e *E, c ephemeral.RowChange, h ephemeral.Handle) *V) *events.Table[E] {
	if !b.usable() {
		return nil
	}
	if t == nil || set == nil {
		err := ErrNilTable
		if t != nil {
			err = errNilSet
		}
		b.fail(&DefinitionError{Call: "Lifecycle", Name: spec.Name, Err: err})
		return nil
	}
	if !slices.Contains(b.tables, t) {
		b.fail(&ForeignError{Where: "Lifecycle " + strconv.Quote(spec.Name), Kind: "table", Name: t.Name()})
		return nil
	}
	if spec.On&^AllRowChanges != 0 {
		b.fail(&DefinitionError{Call: "Lifecycle", Name: spec.Name, Err: fmt.Errorf("bits of On %#x name no change: pass Created, Attached, Deleted and Detached ORed (AllRowChanges, %#x), or 0 for all four", spec.On, AllRowChanges)})
		return nil
	}
	rc, err := ephemeral.NewRowCopy[V](t)
	if err != nil {
		b.fail(err)
		return nil
	}
	ev := AddEvents[E](b, events.Spec{Name: spec.Name, Capacity: spec.Capacity, Lifetime: events.NextFrame})
	if ev == nil {
		return nil
	}
	on := spec.On
	if on == 0 {
		on = AllRowChanges
	}
	t.Watch(&lifecycle[E, V]{dom: t.Domain(), ev: ev, on: on, rows: rc, set: set})
	return ev
}

// lifecycle is the watcher of one lifecycle event table.
type lifecycle[E, V any] struct {
	dom  *ephemeral.Domain // its guard is set while a frame runs
	ev   *events.Table[E]
	on   uint8
	rows *ephemeral.RowCopy[V]
	set  func(e *E, c ephemeral.RowChange, h ephemeral.Handle) *V
	e    E // the event being built: kept here so that building it allocates nothing
}

// Watch emits the event of change c of h's row when c is recorded and a
// frame runs (only playback changes structure then). A full table refuses
// it: Emit counts it in Dropped and the frame returns the table's
// *events.OverflowError (docs/architecture.md, Retention and capacity).
func (l *lifecycle[E, V]) Watch(c ephemeral.RowChange, h ephemeral.Handle) {
	if l.on&(1<<c) == 0 || !l.dom.Guarded() {
		return
	}
	var zero E
	l.e = zero
	if v := l.set(&l.e, c, h); v != nil && (c == ephemeral.Deleted || c == ephemeral.Detached) {
		l.rows.Copy(v, h.Index())
	}
	_ = l.ev.Emit(l.e) // refused: counted, and the frame's error (above)
}
