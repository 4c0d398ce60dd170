package systems

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
)

// Phase is the part of a frame a system runs in. Phases run in the order of
// their values: FrameStart, FixedUpdate (once per fixed tick: zero or more
// times a frame), Update, LateUpdate, FrameEnd.
type Phase uint8

// The phases of a frame, in running order.
const (
	FrameStart Phase = iota
	FixedUpdate
	Update
	LateUpdate
	FrameEnd
)

// NumPhases is the number of phases; valid phases are 0..NumPhases-1.
const NumPhases = 5

var phaseNames = [NumPhases]string{"FrameStart", "FixedUpdate", "Update", "LateUpdate", "FrameEnd"}

// String returns the phase's name, such as "FixedUpdate".
func (p Phase) String() string {
	if p < NumPhases {
		return phaseNames[p]
	}
	return "Phase(" + strconv.Itoa(int(p)) + ")"
}

// Valid reports whether p is one of the five phases.
func (p Phase) Valid() bool { return p < NumPhases }

// RunFunc is a system's body. It runs on the scheduler's goroutine with the
// system's Context, once per frame (once per fixed tick in FixedUpdate). A
// non-nil error stops the frame after this system: the scheduler still plays
// back the phase's commands and ends the event frame, then returns a
// *scheduler.SystemError wrapping it (see scheduler.Scheduler.Frame).
type RunFunc func(ctx *Context) error

// System is the unit of work the scheduler orders and runs.
//
// Name is unique in a world and is what Before, After and a scheduler hook
// refer to. Before and After name systems of the same phase that this one
// must run before or after (names of systems of other phases are checked
// against the phase order: see package scheduler). Manifest declares
// everything Run touches. Lane says which lane (instruction set) Run's
// kernels were built for, as package lanes names it ("scalar", "avx2",
// "avx512"); it is informational, copied into the system's
// scheduler.SystemReport, and empty when the system does not say. A System
// is a plain value: the scheduler copies it when it is added.
type System struct {
	Name     string
	Phase    Phase
	Manifest Manifest
	Before   []string // systems that run after this one
	After    []string // systems that run before this one
	Run      RunFunc
	Lane     string // the lane Run's kernels run, e.g. "avx2"; "" when not stated
}

// Validate checks the name, the phase, Run and the manifest entries (no nil
// table, no nil or typed-nil event table, no empty or unknown column name,
// no empty resource name). It returns nil or a *DefinitionError (errors.Is
// ErrDefinition and ErrEmptyName, ErrBadPhase, ErrNoRun or ErrBadManifest)
// for the first bad field. Names, constraints and conflicts between systems
// are checked by the scheduler at seal. Call it at set-up: it may allocate
// (and uses reflect to spot typed-nil event tables).
func (s *System) Validate() error {
	if s.Name == "" {
		return &DefinitionError{Err: ErrEmptyName}
	}
	if !s.Phase.Valid() {
		return &DefinitionError{System: s.Name, Err: ErrBadPhase, Detail: s.Phase.String()}
	}
	if s.Run == nil {
		return &DefinitionError{System: s.Name, Err: ErrNoRun}
	}
	if d := s.Manifest.check(); d != "" {
		return &DefinitionError{System: s.Name, Err: ErrBadManifest, Detail: d}
	}
	return nil
}

// ColumnRef names one column of one table: the table's pointer and the
// column's name. Build it with Col. Comparable: equal refs name the same
// column.
type ColumnRef struct {
	Table  *ephemeral.Table
	Column string
}

// Col returns the reference of a typed column, for a Manifest. For a nil
// column (what a failed AddColumn returns) it returns the zero ColumnRef,
// which System.Validate (so Scheduler.Add and the runtime's Builder.Add
// and Build) refuses with a *DefinitionError (errors.Is ErrBadManifest).
// Allocates nothing.
func Col[T any](c *ephemeral.Column[T]) ColumnRef {
	if c == nil {
		return ColumnRef{}
	}
	return ColumnRef{Table: c.Table(), Column: c.Name()}
}

// String formats the reference as "table.column".
func (r ColumnRef) String() string {
	if r.Table == nil {
		return "<nil>." + r.Column
	}
	return r.Table.Name() + "." + r.Column
}

// Resource is a named datum outside tables, such as the clock or a random
// stream. Resources take part in conflict detection only: two systems using
// one resource conflict when either writes it.
type Resource struct {
	Name  string
	Write bool
}

// Manifest declares what a system touches. Lists are sets: order and
// repetition do not matter. A column in Writes may also be read; it need not
// be repeated in Reads. Creates and Deletes are deferred: the system records
// them in command buffers (Context.Recorder, which only Creates and Deletes
// tables get; deferred Sets go through those recorders too) and the
// scheduler plays them back after the phase. A manifest is read at seal
// (conflicts) and when the Context is built (access checks); changing it
// afterwards has no effect.
//
// The scheduler enforces a manifest only on what the system acquires
// through its Context (Read, Write, Recorder, NewEmitter, Reader, ...).
// Data touched directly — Column.Span, All, Get or Set, Table.Insert or
// Delete, events.Table.Emit — bypasses the check: there the manifest is an
// honour system, and an undeclared access is an unchecked data race. See the
// package doc.
type Manifest struct {
	Reads     []ColumnRef        // columns read
	Writes    []ColumnRef        // columns written (and read)
	Creates   []*ephemeral.Table // tables the system creates rows in (deferred commands)
	Deletes   []*ephemeral.Table // tables the system deletes rows from (deferred commands)
	Emits     []events.Buffer    // event tables the system emits into
	Consumes  []events.Buffer    // event tables the system reads
	Resources []Resource         // named resources read or written
}

// check returns "" for a well-formed manifest, else the first bad entry.
func (m *Manifest) check() string {
	cols := func(list string, refs []ColumnRef) string {
		for i, r := range refs {
			at := list + "[" + strconv.Itoa(i) + "]"
			if r.Table == nil {
				return at + ": nil table (the zero ColumnRef, as Col of a nil column gives: check the error of the AddColumn call)"
			}
			if r.Column == "" {
				return at + ": empty column name"
			}
			if !slices.Contains(r.Table.Columns(), r.Column) {
				return at + ": table " + strconv.Quote(r.Table.Name()) + " has no column " + strconv.Quote(r.Column)
			}
		}
		return ""
	}
	tables := func(list string, ts []*ephemeral.Table) string {
		for i, t := range ts {
			if t == nil {
				return list + "[" + strconv.Itoa(i) + "]: nil table (check the error of the call that made it)"
			}
		}
		return ""
	}
	evs := func(list string, bs []events.Buffer) string {
		for i, b := range bs {
			if NilBuffer(b) {
				return list + "[" + strconv.Itoa(i) + "]: nil event table (check the error of the call that made it)"
			}
		}
		return ""
	}
	for _, d := range []string{
		cols("Reads", m.Reads), cols("Writes", m.Writes),
		tables("Creates", m.Creates), tables("Deletes", m.Deletes),
		evs("Emits", m.Emits), evs("Consumes", m.Consumes),
	} {
		if d != "" {
			return d
		}
	}
	for i, r := range m.Resources {
		if r.Name == "" {
			return "Resources[" + strconv.Itoa(i) + "]: empty name"
		}
	}
	return ""
}

// NilBuffer reports whether b is nil or holds a nil pointer (a typed nil,
// such as the nil *events.Table[int] a failed events.New returns). The
// check behind ErrBadManifest for Emits and Consumes, and behind the
// scheduler's AddEvents. It uses reflect: call it at set-up. Safe for
// concurrent use.
func NilBuffer(b events.Buffer) bool {
	if b == nil {
		return true
	}
	v := reflect.ValueOf(b)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Equal reports whether m and o declare the same accesses, as sets: the
// order and repetition of entries do not matter, and a column in Writes
// equals the same column in Writes of o whatever Reads say about it. A
// resource declared both read and written counts as written. A scheduler
// hook's Substitute uses it. It allocates; call it at set-up.
func (m *Manifest) Equal(o *Manifest) bool {
	return sameSet(m.Writes, o.Writes) && sameSet(m.reads(), o.reads()) &&
		sameSet(m.Creates, o.Creates) && sameSet(m.Deletes, o.Deletes) &&
		sameSet(m.Emits, o.Emits) && sameSet(m.Consumes, o.Consumes) &&
		sameSet(m.resources(), o.resources())
}

// reads returns the read columns that are not also written.
func (m *Manifest) reads() []ColumnRef {
	var out []ColumnRef
	for _, r := range m.Reads {
		if !slices.Contains(m.Writes, r) {
			out = append(out, r)
		}
	}
	return out
}

// resources returns the resources with a write winning over a read.
func (m *Manifest) resources() []Resource {
	var out []Resource
	for _, r := range m.Resources {
		w := slices.Contains(m.Resources, Resource{Name: r.Name, Write: true})
		out = addNew(out, Resource{Name: r.Name, Write: w})
	}
	return out
}

// addNew appends v to s unless s holds it already: lists kept as sets.
func addNew[T comparable](s []T, v T) []T {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

func sameSet[T comparable](a, b []T) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}
