package systems

import (
	"strconv"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
)

// Access is a column accessor of a declaration, ReadColumn or WriteColumn:
// what NewQuery1 .. NewQuery15 take.
type Access[T any] interface {
	access() (*Decl, *ephemeral.Column[T])
}

// ReadColumn reads one column of a system's declaration (Read). A small
// value (four words, which the compiler keeps in registers), valid for the
// world's life: copy it into kernel state freely. Its methods read by handle or row and allocate nothing; safe
// from kernels while no structural change runs (never, during a phase).
type ReadColumn[T any] struct {
	all []T // the whole column, by row: pin-stable
	c   *columnAccess[T]
}

// WriteColumn reads and writes one column of a system's declaration
// (Write); as ReadColumn, plus writes. Writes take effect at once. From
// kernels each worker writes only rows of the chunks it was given.
type WriteColumn[T any] struct{ ReadColumn[T] }

// columnAccess is what a ReadColumn points to.
type columnAccess[T any] struct {
	d     *Decl
	col   *ephemeral.Column[T]
	lease ephemeral.Lease
}

// Read declares that the system reads column c and returns its accessor.
// A nil c (a failed AddColumn) fails the declaration.
func Read[T any](s *Decl, c *ephemeral.Column[T]) ReadColumn[T] {
	return columnOf(s.use("Read"), "Read", c, false)
}

// Write declares that the system writes (and reads) column c and returns
// its accessor. A nil c fails the declaration.
func Write[T any](s *Decl, c *ephemeral.Column[T]) WriteColumn[T] {
	return WriteColumn[T]{columnOf(s.use("Write"), "Write", c, true)}
}

func columnOf[T any](d *Decl, call string, c *ephemeral.Column[T], write bool) ReadColumn[T] {
	if c == nil {
		d.fail(call, "nil column (the AddColumn that made it failed: its error comes first)")
		return ReadColumn[T]{c: &columnAccess[T]{d: d}}
	}
	ref := frame.ColumnRef{Table: c.Table(), Column: c.Name()}
	if write {
		d.man.Write(ref)
		d.run.Bulk = frame.AddNew(d.run.Bulk, ref) // bumped whole (docs/architecture.md, Change detection)
	} else {
		d.man.Read(ref)
	}
	return ReadColumn[T]{all: c.All(), c: &columnAccess[T]{d: d, col: c, lease: ownLease(c.Table().Lease(), d)}}
}

func (r ReadColumn[T]) access() (*Decl, *ephemeral.Column[T]) {
	if r.c == nil {
		return nil, nil
	}
	return r.c.d, r.c.col
}

// Column is the accessor's column.
func (r ReadColumn[T]) Column() *ephemeral.Column[T] { return r.c.col }

// Row returns the row of h and true when h names a live row of the
// column's table (ephemeral.Lease.Row: a compare and an index), else 0 and
// false: the probe by handle.
func (r ReadColumn[T]) Row(h ephemeral.Handle) (int, bool) {
	if debugChecks {
		r.c.inRun("Row")
	}
	return r.c.lease.Row(h)
}

// Lease returns the lease of the column's table (ephemeral.Lease): Row
// through it is the probe of Row above. In a hot loop probe through the
// lease, a plain value whose Row the compiler inlines into the loop (a
// call to a generic method such as Row may stay a call).
func (r ReadColumn[T]) Lease() ephemeral.Lease { return r.c.lease }

// All returns the whole column, indexed by row (ephemeral.Column.All:
// Chunks*ChunkRows elements, pin-stable), for loops that read rows at
// random, as a kernel probing another table does: index it with a Row of
// the lease. Through a ReadColumn it must not be written (the rule for
// read pointers: docs/architecture.md, Access rules); a WriteColumn's is
// the column to write.
func (r ReadColumn[T]) All() []T { return r.all }

// At returns the value at row row, which must be in 0..Chunks*ChunkRows-1
// (it panics otherwise, as a slice index does): a row from Row, a query or
// a handle's Index.
func (r ReadColumn[T]) At(row int) T {
	if debugChecks {
		r.c.inRun("At")
	}
	return r.all[row]
}

// Get returns h's value and true, or the zero value and false when h has
// no live row in the column's table.
func (r ReadColumn[T]) Get(h ephemeral.Handle) (T, bool) {
	if debugChecks {
		r.c.inRun("Get")
	}
	if i, ok := r.c.lease.Row(h); ok {
		return r.all[i], true
	}
	var z T
	return z, false
}

// Ptr returns a pointer to h's value, or nil when h has no live row. See
// Invalidation in package ephemeral for how long it names h's value.
func (w WriteColumn[T]) Ptr(h ephemeral.Handle) *T {
	if debugChecks {
		w.c.inRun("Ptr")
	}
	if i, ok := w.c.lease.Row(h); ok {
		return &w.all[i]
	}
	return nil
}

// Set writes v to h's row and returns true, or writes nothing and returns
// false when h has no live row.
func (w WriteColumn[T]) Set(h ephemeral.Handle, v T) bool {
	if debugChecks {
		w.c.inRun("Set")
	}
	if i, ok := w.c.lease.Row(h); ok {
		w.all[i] = v
		return true
	}
	return false
}

// Recorder records deferred commands for one table: creates, deletes,
// attaches, removes and deferred writes (Set, SetN, spawners), played back
// at the end of the system's phase (after each fixed tick in FixedUpdate),
// where no system runs. See Deferred changes in the package doc for the
// order (the conflict rule: docs/architecture.md, Access rules). A
// Recorder from Record records from the system's body (inside a Parallel
// kernel its calls panic: Kernels in the package doc); one from Worker,
// from that kernel worker only.
// Nothing allocates in steady state.
type Recorder struct {
	t       *ephemeral.Table
	ctx     *Context          // the system's, for a serial recorder (Record); nil for a worker's
	d       *Decl             // until bound: reservations wait for the buffers
	rec     commands.Recorder // bound at seal
	bufs    []*commands.Buffer
	workers []Recorder // nil for a worker's own recorder
}

// Record declares that the system records commands for table t and returns
// its recorder (bound to the system's command buffers at seal). A nil t
// fails the declaration.
func Record(s *Decl, t *ephemeral.Table) *Recorder {
	d := s.use("Record")
	r := &Recorder{t: t, d: d, ctx: d.ctx}
	if t == nil {
		d.fail("Record", "nil table (the Table call that made it failed: its error comes first)")
		return r
	}
	d.man.Records = frame.AddNew(d.man.Records, t)
	d.run.Recording()
	d.bind(func(run *frame.Run) error {
		r.rec = run.Serial.Recorder(t)
		r.bufs = run.Workers
		r.workers = make([]Recorder, len(run.Workers))
		for w, b := range run.Workers {
			r.workers[w] = Recorder{t: t, rec: b.Recorder(t)}
		}
		r.d = nil
		return nil
	})
	return r
}

// Table is the recorder's table.
func (r *Recorder) Table() *ephemeral.Table { return r.t }

// Create records a new entity with a row in the table (every column zero
// until deferred writes set them) and returns its provisional handle
// (Context.Resolve; the rule: docs/architecture.md, Provisional handles).
func (r *Recorder) Create() ephemeral.Handle {
	r.record()
	return r.rec.Create()
}

// Delete records the deletion of entity h, with its rows in every table of
// its domain. The handle a query yields for the row a scan is at is what
// to pass: one call deletes it.
func (r *Recorder) Delete(h ephemeral.Handle) {
	r.record()
	r.rec.Delete(h)
}

// Attach records a row in the table for the existing entity h (real or
// provisional) of the table's domain.
func (r *Recorder) Attach(h ephemeral.Handle) {
	r.record()
	r.rec.Attach(h)
}

// Remove records the removal of h's row from the table only; an entity it
// leaves with no row lives until the end of its buffer's playback, so an
// Attach to another table of its domain keeps it (commands.Recorder.Remove).
func (r *Recorder) Remove(h ephemeral.Handle) {
	r.record()
	r.rec.Remove(h)
}

// TryCreate is Create that returns the recorder's refusal at the call: an
// *ephemeral.CapacityError past what the table could hold after playback,
// or commands.ErrTooManyCreates (commands.Recorder.TryCreate).
func (r *Recorder) TryCreate() (ephemeral.Handle, error) {
	r.record()
	return r.rec.TryCreate()
}

// Move records the move of entity h's row from from's table to to's, two
// tables of one domain, in one record (commands.Move: the columns both
// tables have by name and type carry h's values, the others of to's table
// start at zero). from and to are recorders of one system, both from
// Record or both the same worker's (Worker); Move panics otherwise.
func Move(h ephemeral.Handle, from, to *Recorder) {
	from.record()
	to.record()
	commands.Move(h, from.rec, to.rec)
}

// Reserve makes room for n records per playback in the system's serial
// buffer, so that recording up to n from the body never allocates
// (commands.Buffer.Reserve), not even at a frame that records more than
// any before. Call it in the declaration (it then waits for the buffer,
// made at seal) or in the body. It allocates 16 bytes a record, charged
// to the world's memory budget (the rule: package commands, Memory). A
// negative n reserves nothing and returns an *ephemeral.CountError
// (ErrNegativeCount); room past the budget reserves nothing and returns
// the budget's *memory.BudgetError (memory.ErrBudget), at once from the
// body, from Build when called in the declaration, and the records that
// would need the room are refused when recorded (the frame reports them).
func (r *Recorder) Reserve(n int) error {
	if n < 0 {
		return r.negative("Recorder.Reserve", n)
	}
	if r.d != nil {
		r.later(func() error { return r.Reserve(n) })
		return nil
	}
	r.serial()
	return r.rec.Buffer().Reserve(n)
}

// ReserveWorkers is Reserve for each kernel worker's buffer (Worker): n
// records per worker, so 16*n bytes times the worker count; its errors
// are Reserve's (the first buffer refused stops it).
func (r *Recorder) ReserveWorkers(n int) error {
	if n < 0 {
		return r.negative("Recorder.ReserveWorkers", n)
	}
	if r.d != nil {
		r.later(func() error { return r.ReserveWorkers(n) })
		return nil
	}
	r.serial()
	for _, b := range r.bufs {
		if err := b.Reserve(n); err != nil {
			return err
		}
	}
	return nil
}

// negative is the *ephemeral.CountError of call given count n < 0.
func (r *Recorder) negative(call string, n int) error {
	name := ""
	if r.t != nil {
		name = r.t.Name()
	}
	return &ephemeral.CountError{Table: name, Call: call, Count: n}
}

// later runs fn at seal instead of now, its error failing Build; call it
// only while r is not bound (r.d != nil). Callers test r.d before they
// build fn, so that a bound recorder's call from a body makes no closure
// (nothing escapes, no allocation in the frame).
func (r *Recorder) later(fn func() error) {
	r.d.bind(func(*frame.Run) error { return fn() })
}

// Worker returns worker w's recorder of the table for chunk chunk, from
// inside a Parallel kernel: it starts a segment keyed by chunk, so that
// playback follows chunk order whatever the worker count. chunk is the
// index the kernel was given, a table chunk or a unit of its own such as
// a grid cell (Kernels in the package doc). Call it again
// for every chunk. It panics when w is outside 0..Context.Workers()-1
// (pass the worker index the kernel was given) or on a worker's recorder.
func (r *Recorder) Worker(w, chunk int) *Recorder {
	if uint(w) >= uint(len(r.workers)) {
		workerPanic(w, len(r.workers), r.t)
	}
	r.bufs[w].Begin(chunk)
	return &r.workers[w]
}

// serial panics when r is a system's serial recorder (Record) and a
// Parallel kernel of that system is running: its buffer belongs to the
// body's goroutine, and kernels record through Worker (Kernels in the
// package doc). The check, one atomic load, comes before anything is
// touched, so the misuse is a panic, not a data race.
func (r *Recorder) serial() {
	if c := r.ctx; c != nil && c.inKernel.Load() {
		serialPanic("Recorder", "tickwork.Record", "table", r.t.Name(), c.name,
			"record through the worker's recorder rec.Worker(worker, chunk) (tickwork.Recorder.Worker; spawners: Spawner.Worker)")
	}
}

// record is serial for the calls that record (not the reservations, which
// may run at seal): in the debug build it also panics outside the
// system's run (docs/architecture.md, Debug build).
func (r *Recorder) record() {
	r.serial()
	if debugChecks {
		r.ctx.inRun("Recorder", "table", r.t.Name()) // a worker's recorder has no ctx: not checked
	}
}

// serialPanic reports a serial accessor used inside a Parallel kernel.
//
//go:noinline
func serialPanic(kind, maker, what, name, system, fix string) {
	panic("tickwork: the serial " + kind + " (" + maker + ") of " + what + " " + strconv.Quote(name) +
		" used inside a tickwork.Parallel kernel of system " + strconv.Quote(system) +
		": it belongs to the system's body; from a kernel, " + fix)
}

// workerPanic reports a bad Worker call; out of line so that Worker stays
// small.
//
//go:noinline
func workerPanic(w, workers int, t *ephemeral.Table) {
	name := ""
	if t != nil {
		name = t.Name()
	}
	if workers == 0 {
		panic("systems: Recorder.Worker on the recorder of table " + strconv.Quote(name) +
			" that Worker returned, or before the world was built: call Worker on the recorder Record returned")
	}
	panic("systems: Recorder.Worker(" + strconv.Itoa(w) + ", ...) of table " + strconv.Quote(name) +
		": worker index out of range 0.." + strconv.Itoa(workers-1) + "; pass the worker index Parallel gave the kernel")
}

// Set records a deferred write of v to h's value in column col, a column
// of r's table (commands.Set: it panics otherwise). h may be provisional.
func Set[T any](r *Recorder, col *ephemeral.Column[T], h ephemeral.Handle, v T) {
	r.record()
	commands.Set(r.rec, col, h, v)
}

// SetN records the deferred writes of vs[i] to hs[i] in column col, in one
// record (commands.SetN: len(hs) must equal len(vs)).
func SetN[T any](r *Recorder, col *ephemeral.Column[T], hs []ephemeral.Handle, vs []T) {
	r.record()
	commands.SetN(r.rec, col, hs, vs)
}

// ReserveValues makes room in the serial buffer for n deferred values of
// column col (and n records), so that recording up to that many per
// playback never allocates (commands.Reserve). Call it in the declaration
// or in the body, as Reserve; its errors are Reserve's.
func ReserveValues[T any](r *Recorder, col *ephemeral.Column[T], n int) error {
	if n < 0 {
		return r.negative("ReserveValues", n)
	}
	if r.d != nil {
		r.later(func() error { return ReserveValues(r, col, n) })
		return nil
	}
	r.serial()
	return commands.Reserve(r.rec, col, n)
}
