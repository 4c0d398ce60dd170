package ephemeral

import (
	"reflect"
	"strconv"

	"github.com/kelindar/bitmap"

	"github.com/tickwork/tickwork/memory"
)

// TableSpec declares a table. A table with a Domain shares the domain's
// handle space, capacity and chunk rows (Capacity and ChunkRows must then be
// zero or equal to the domain's); a table without one gets a private domain
// of its own.
type TableSpec struct {
	Name      string
	Capacity  int     // rows; 1..MaxCapacity (ignored when zero and Domain is set)
	ChunkRows int     // rows per chunk, a power of two; 0 = DefaultChunkRows (or the domain's)
	Domain    *Domain // optional shared handle space
	// Budget is charged with the table's pages and columns (and a
	// standalone table's private domain); nil gives a standalone table a
	// private budget of memory.DefaultBudget bytes. With a Domain it must be
	// nil or the domain's: a member table is charged to its domain's budget.
	// A runtime.Builder sets its world's.
	Budget *memory.Budget
}

// Table is chunked struct-of-arrays storage with a fixed capacity. A row
// lives at the slot of its entity's handle and never moves; holes left by
// deletes are masked by each chunk's enabled bitmap.
//
// Memory: every column is one allocation of Chunks()*ChunkRows() elements
// made when the column is added, carved into chunk spans. Nothing is ever
// moved or reallocated while the table lives, so spans (Column.Span,
// Column.All) and enabled bitmaps stay valid (pin-stable) and may be held by
// kernels and other goroutines.
//
// Iteration order is ascending chunk, then ascending row within a chunk.
//
// Concurrency: structural changes (Insert, InsertN, Attach, Delete, DeleteN,
// Detach, AddColumn) must not run concurrently with anything else on the
// table or its domain; on a closed domain they refuse (Domain.SetClosed). Reads and writes of column values, leases, Enabled and
// IsAlive are safe from many goroutines while no structural change runs
// (writes to the same row from two goroutines race, as with any slice).
type Table struct {
	name      string
	dom       *Domain  // chunk rows and shift are the domain's
	gens      []uint32 // high word (tag and generation) of the entity whose row is present, 0 when absent
	enabled   []bitmap.Bitmap
	chunkLive []int32
	live      int
	cols      []column
	moves     []movePlan  // Move's column pairings, one per destination table (move.go)
	marks     *Marks      // dirty rows for secondary indexes, nil without one (marks.go)
	added     *Versions   // versions of added rows, nil unless tracked (changes.go)
	tracked   []*Versions // versions of the tracked columns: a row made live changes them
	watchers  []Watcher   // told of every structural change of a row (watch.go)
}

// column is the untyped face of a Column[T].
type column interface {
	name() string
	zeroRange(lo, hi uint32) // zero rows lo..hi-1
	raw() []byte             // the column's memory (snapshot state)
	boolOffsets() []uintptr  // byte offsets of the element's bools
	elemType() reflect.Type  // the element type (snapshot fingerprint)
	versions() *Versions     // change detection, nil unless tracked
	track(rows bool) (*Versions, error)
}

// NewTable declares a table. It returns a *DefinitionError (errors.Is
// ErrDefinition) for an empty name, a bad capacity or chunk rows, a spec
// that disagrees with its domain (its capacity, chunk rows or Budget), or a
// domain that is sealed (ErrSealed, see package doc, Definitions), and
// a *memory.BudgetError (errors.Is memory.ErrBudget) when its pages do not
// fit in what is left of its budget; nothing is allocated then.
//
// Memory: the table's pages are allocated here, eagerly, for the whole
// capacity rounded up to whole chunks (slots = Chunks*ChunkRows): 4 bytes
// per slot for the row generations, 1 bit per slot for the enabled bitmaps
// and 28 bytes per chunk, so about 4.13 bytes per slot (about 4.1 GiB at
// MaxCapacity), TableBytes exactly. A table without a Domain also creates
// its private domain (DomainBytes: about 4.13 bytes per slot more), so a
// standalone table costs about 8.3 bytes per slot before its columns; each
// column then costs sizeof(T) bytes per slot (AddColumn). The pages are
// charged to the budget (spec.Budget, or the domain's) before anything is
// allocated; a standalone table charges its domain's and its own pages as
// one charge of kind "table".
//
// A standalone table is a handle space of its own, with its own tag: its
// handles name no row of any other table (see Handle). Not safe for
// concurrent use; call it at set-up.
func NewTable(spec TableSpec) (*Table, error) {
	if spec.Name == "" {
		return nil, &DefinitionError{Err: errEmptyName}
	}
	d := spec.Domain
	if d == nil {
		dspec := DomainSpec{Name: spec.Name, Capacity: spec.Capacity, ChunkRows: spec.ChunkRows, Budget: budgetOf(spec.Budget)}
		cr, slots, err := domainShape(dspec)
		if err != nil {
			// The private domain's spec is the table's: report the table.
			if de, ok := err.(*DefinitionError); ok {
				de.Kind = KindTable
			}
			return nil, err
		}
		bytes := memory.Sum(DomainBytes(spec.Capacity, cr), TableBytes(spec.Capacity, cr))
		if err := dspec.Budget.Charge(memory.Definition{Kind: "table", Name: spec.Name}, bytes); err != nil {
			return nil, err
		}
		d = newDomain(dspec, cr, slots, dspec.Budget)
	} else {
		if d.sealed {
			return nil, &DefinitionError{Table: spec.Name, Err: ErrSealed, Detail: "domain " + strconv.Quote(d.name) + " is sealed"}
		}
		if (spec.Capacity != 0 && spec.Capacity != d.capacity) || (spec.ChunkRows != 0 && spec.ChunkRows != d.chunkRows) {
			return nil, &DefinitionError{Table: spec.Name, Err: ErrDomainMismatch,
				Detail: "domain " + strconv.Quote(d.name) + " has capacity " + itoa(d.capacity) + " and chunk rows " + itoa(d.chunkRows)}
		}
		if spec.Budget != nil && spec.Budget != d.budget {
			return nil, &DefinitionError{Table: spec.Name, Err: ErrDomainMismatch,
				Detail: "a member table is charged to domain " + strconv.Quote(d.name) + "'s memory budget: leave Budget nil"}
		}
		if err := d.budget.Charge(memory.Definition{Kind: "table", Name: spec.Name}, TableBytes(d.capacity, d.chunkRows)); err != nil {
			return nil, err
		}
	}
	chunks := len(d.gens) / d.chunkRows
	t := &Table{
		name:      spec.Name,
		dom:       d,
		gens:      make([]uint32, len(d.gens)),
		enabled:   make([]bitmap.Bitmap, chunks),
		chunkLive: make([]int32, chunks),
	}
	words := d.chunkRows / 64
	backing := make([]uint64, chunks*words)
	for c := range t.enabled {
		t.enabled[c] = bitmap.Bitmap(backing[c*words : (c+1)*words : (c+1)*words])
	}
	d.tables = append(d.tables, t)
	return t, nil
}

// Name is the table's name. Fixed at NewTable; safe from any goroutine.
func (t *Table) Name() string { return t.name }

// Domain is the table's handle space (a private one for a standalone
// table). Fixed at NewTable; safe from any goroutine.
func (t *Table) Domain() *Domain { return t.dom }

// Cap is the capacity in rows. Fixed at NewTable; safe from any goroutine.
func (t *Table) Cap() int { return t.dom.capacity }

// Len is the number of live rows. Safe from many goroutines while no
// structural change runs.
func (t *Table) Len() int { return t.live }

// ChunkRows is the number of rows per chunk (a power of two). Fixed at
// NewTable; safe from any goroutine.
func (t *Table) ChunkRows() int { return t.dom.chunkRows }

// Chunks is the number of chunks: ceil(Cap/ChunkRows). Chunk c holds rows
// c*ChunkRows .. (c+1)*ChunkRows-1. Fixed at NewTable; safe from any
// goroutine.
func (t *Table) Chunks() int { return len(t.enabled) }

// ChunkLen is the number of live rows in chunk c. It panics when c is
// outside 0..Chunks()-1 (a bug in the caller's chunk loop). Safe from many
// goroutines while no structural change runs.
func (t *Table) ChunkLen(c int) int {
	if uint(c) >= uint(len(t.chunkLive)) {
		t.badChunk("ChunkLen", c)
	}
	return int(t.chunkLive[c])
}

// Enabled is chunk c's enabled bitmap: bit r is set when row c*ChunkRows+r
// is live. It has ChunkRows bits and is pin-stable; it changes only under a
// structural change. Read it, never write it. It panics when c is outside
// 0..Chunks()-1 (a bug in the caller's chunk loop).
func (t *Table) Enabled(c int) bitmap.Bitmap {
	if uint(c) >= uint(t.chunks()) {
		t.badChunk("Enabled", c)
	}
	return t.enabled[c]
}

// RowLive reports whether whole-column row row (0..Chunks()*ChunkRows()-1)
// holds a live row: its enabled bit, a load from the chunk bitmaps
// (1 bit a row, hot in cache) where HandleAt loads the row's generation.
// It panics when row is outside the table. Read-only; not during a
// structural change.
func (t *Table) RowLive(row int) bool {
	return t.enabled[row>>t.dom.shift][(row&(1<<t.dom.shift-1))>>6]&(1<<(row&63)) != 0
}

// chunks is len(t.enabled), 0 for a nil t (the table of a zero query).
func (t *Table) chunks() int {
	if t == nil {
		return 0
	}
	return len(t.enabled)
}

// badChunk is chunkPanic of a table method, one argument shorter so that
// ChunkLen and Enabled stay within the inlining budget behind a wrapper
// (the module root's Table).
//
//go:noinline
func (t *Table) badChunk(method string, c int) { chunkPanic(method, c, t, "") }

// chunkPanic reports a chunk index outside 0..t.Chunks()-1 given to method
// (of column col when col is not empty). Kept out of line so that the
// accessors stay small and inlinable.
//
//go:noinline
func chunkPanic(method string, c int, t *Table, col string) {
	if t == nil {
		panic("ephemeral: " + method + "(" + itoa(c) + ") of a zero query, which has no table and no chunks; " +
			"make the query with NewQuery1..NewQuery4 of a table's columns (in a system, of its accessors)")
	}
	where := "table " + strconv.Quote(t.name)
	if col != "" {
		where = "column " + strconv.Quote(col) + " of " + where
	}
	panic("ephemeral: " + method + "(" + itoa(c) + ") of " + where +
		": chunk index out of range 0.." + itoa(len(t.enabled)-1) +
		"; loop c over 0..Table.Chunks()-1")
}

// Columns lists the column names in definition order, in a new slice (it
// allocates: not for the frame loop). Not concurrently with AddColumn.
func (t *Table) Columns() []string {
	out := make([]string, len(t.cols))
	for i, c := range t.cols {
		out[i] = c.name()
	}
	return out
}

// IsAlive reports whether h names a live row of t: false for a zero,
// stale or foreign handle (see Domain.Owns). Safe from kernels while no
// structural change runs.
func (t *Table) IsAlive(h Handle) bool {
	i := h.Index()
	return uint64(i) < uint64(len(t.gens)) && t.gens[i] == h.word() && h.word() != 0
}

// HandleAt returns the handle of the live row at row index row, or false
// when the row is empty or out of range. Safe from many goroutines while no
// structural change runs.
func (t *Table) HandleAt(row int) (Handle, bool) {
	if row < 0 || row >= len(t.gens) || t.gens[row] == 0 {
		return 0, false
	}
	return handleOf(uint32(row), t.gens[row]), true
}

// Insert creates a new entity in the table's domain with a row in t (every
// column zero) and returns its handle. When t or its domain is full it
// returns a *CapacityError (errors.Is ErrCapacity) and changes nothing. A
// structural change: nothing else may run on t or its domain meanwhile.
func (t *Table) Insert() (Handle, error) {
	if err := t.dom.fits(KindTable, t.name, 1); err != nil {
		return 0, err
	}
	h := t.dom.alloc()
	t.addRow(h)
	if len(t.watchers) != 0 {
		t.tell(Created, h)
	}
	return h, nil
}

// InsertN inserts len(out) rows as Insert does, writing their handles to out
// in slot order (lowest free slots first). When they do not all fit it
// inserts none and returns a *CapacityError. A structural change, as Insert.
func (t *Table) InsertN(out []Handle) error {
	if err := t.dom.fits(KindTable, t.name, len(out)); err != nil {
		return err
	}
	t.dom.allocN(out)
	for _, h := range out {
		t.enable(h)
	}
	// Zero the new rows column by column, a run of consecutive slots at a
	// time (new slots are the lowest free ones, so runs are usual).
	for lo := 0; lo < len(out); {
		first := out[lo].Index()
		hi := lo + 1
		for hi < len(out) && out[hi].Index() == first+uint32(hi-lo) {
			hi++
		}
		for _, c := range t.cols {
			c.zeroRange(first, first+uint32(hi-lo))
		}
		lo = hi
	}
	if len(t.watchers) != 0 {
		for _, h := range out {
			t.tell(Created, h)
		}
	}
	return nil
}

// Attach adds a row (every column zero) to t for the live entity h of t's
// domain, such as the Body row of a unit created through its Unit table. It
// returns ErrForeignHandle when h is a nonzero handle of another domain (see
// Domain.Owns), ErrStaleHandle when h is zero or not a live entity, and
// ErrRowExists when it already has a row in t; it changes nothing then. A
// structural change, as Insert.
func (t *Table) Attach(h Handle) error {
	if t.dom.closed != nil {
		return t.dom.closed
	}
	if !t.dom.IsAlive(h) {
		if t.dom.foreign(h) {
			return ErrForeignHandle
		}
		return ErrStaleHandle
	}
	if t.gens[h.Index()] != 0 {
		return ErrRowExists
	}
	t.addRow(h)
	if len(t.watchers) != 0 {
		t.tell(Attached, h)
	}
	return nil
}

func (t *Table) addRow(h Handle) {
	t.enable(h)
	for _, c := range t.cols {
		c.zeroRange(h.Index(), h.Index()+1)
	}
}

// enable makes h's row live, leaving its column values as they are.
func (t *Table) enable(h Handle) {
	i := h.Index()
	c := i >> t.dom.shift
	t.gens[i] = h.word()
	t.enabled[c].Set(i & uint32(t.dom.chunkRows-1))
	t.chunkLive[c]++
	t.live++
	if t.marks != nil {
		t.marks.Mark(i)
	}
	if t.added != nil {
		t.added.Stamp(i)
	}
	for _, v := range t.tracked {
		v.Stamp(i)
	}
}

// Delete deletes the entity h: its row in t and its rows in every other
// table of the domain. It returns false, changing nothing, when h is zero,
// stale, foreign (see Domain.Owns) or has no row in t; deleting twice is a
// no-op. A structural change, as Insert.
func (t *Table) Delete(h Handle) bool {
	if !t.IsAlive(h) {
		return false
	}
	return t.dom.Delete(h)
}

// DeleteN deletes every entity of hs that has a live row in t, as Delete,
// and returns how many it deleted; stale and repeated handles are skipped.
func (t *Table) DeleteN(hs []Handle) int {
	n := 0
	for _, h := range hs {
		if t.Delete(h) {
			n++
		}
	}
	return n
}

// Detach removes h's row from t only; the entity and its rows in other
// tables of the domain live on. When that was the entity's last row, the
// entity is deleted with it, as Delete would: its slot is freed, its
// generation advances and h goes stale (in a standalone table, Detach is
// Delete). It returns false, changing nothing, when h has no live row in t
// (zero, stale or foreign). A structural change, as Insert.
func (t *Table) Detach(h Handle) bool {
	if t.dom.closed != nil || !t.IsAlive(h) {
		return false
	}
	if len(t.watchers) != 0 {
		t.tell(Detached, h)
	}
	t.removeRow(h.Index())
	t.dom.releaseIfEmpty(h)
	return true
}

func (t *Table) removeRow(i uint32) {
	c := i >> t.dom.shift
	t.gens[i] = 0
	t.enabled[c].Remove(i & uint32(t.dom.chunkRows-1))
	t.chunkLive[c]--
	t.live--
	if t.marks != nil {
		t.marks.Mark(i)
	}
	if debugChecks {
		t.poisonRow(i) // docs/architecture.md, Debug build
	}
}

// Lease authorizes fast probes of t by handle. A system takes one lease per
// run (the scheduler checks its manifest once, when handing it out); each
// probe then costs a compare and an array index.
func (t *Table) Lease() Lease { return Lease{dbg: leaseOf(t), gens: t.gens} }

// Lease probes a table's rows by handle with no further checks. It is a
// small value: copy it freely. Safe from kernels and other goroutines while
// no structural change runs; a structural change may make a probe's answer
// out of date but never unsafe (the handle pages are pin-stable).
type Lease struct {
	dbg  leaseDebug // the debug build's (debug_on.go); empty otherwise
	gens []uint32
}

// Row returns the row index of h (equal to h.Index()) and true when h names a
// live row of the table; 0 and false when h is zero, stale, absent or
// foreign (another domain's: the stored word holds the tag, so this is the
// same one compare). Index column slices from Column.All with the row.
func (l Lease) Row(h Handle) (int, bool) {
	if debugChecks {
		l.checkProbe(h)
	}
	i := h.Index()
	if uint64(i) < uint64(len(l.gens)) && l.gens[i] == h.word() && h.word() != 0 {
		return int(i), true
	}
	return 0, false
}

// Find returns the row of h (its Index) when h names a live row of the
// table, else -1: Row's test with one result, for hot loops.
func (l Lease) Find(h Handle) int {
	if debugChecks {
		l.checkProbe(h)
	}
	i := h.Index()
	if uint64(i) < uint64(len(l.gens)) && l.gens[i] == h.word() && h.word() != 0 {
		return int(i)
	}
	return -1
}

// Words returns the table's stored words by row: the high 32 bits (tag and
// generation) of the handle of the entity whose row is present, 0 where
// none is. Find(h) is int(h.Index()) exactly when h.Index() < len(words),
// words[h.Index()] == uint32(h>>32) and that word is not 0, else -1: the
// test a SIMD kernel gathers instead of probing row by row (the layout:
// docs/architecture.md, "Handle layout"). The slice is the table's own,
// one word per row of its capacity: read it only, while the lease is
// valid (see Lease).
func (l Lease) Words() []uint32 { return l.gens }

// IsAlive reports whether h names a live row of the table; see Row.
func (l Lease) IsAlive(h Handle) bool {
	_, ok := l.Row(h)
	return ok
}

func itoa(n int) string { return strconv.Itoa(n) }
