package tickwork

import (
	"iter"
	"strconv"
	"unsafe"

	"github.com/kelindar/bitmap"

	"github.com/tickwork/tickwork/ephemeral"
)

// Handle names one entity: a slot index (its row in every table of its
// domain), the slot's generation and the domain's tag, in 64 bits. The
// zero Handle names nothing. A handle goes stale when its entity is
// deleted (its slot's generation moves on); a stale handle names no row,
// never another entity's. A recorder's Create returns a provisional handle
// until its playback (World.Resolve, Context.Resolve).
type Handle ephemeral.Handle

// Index is the handle's slot index: the row it names in every table of its
// domain.
func (h Handle) Index() uint32 { return ephemeral.Handle(h).Index() }

// Generation is the handle's generation (odd for a handle that was ever
// live).
func (h Handle) Generation() uint32 { return ephemeral.Handle(h).Generation() }

// Tag is the tag of the domain that issued h (Domain.Tag), 0 for the zero
// handle.
func (h Handle) Tag() uint32 { return ephemeral.Handle(h).Tag() }

// IsZero reports whether h is the zero handle.
func (h Handle) IsZero() bool { return h == 0 }

// String formats h as "index:generation@tag", or "0" for the zero handle.
func (h Handle) String() string { return ephemeral.Handle(h).String() }

// handles is hs as the engine's handles: the same words, not a copy.
func handles(hs []Handle) []ephemeral.Handle {
	return unsafe.Slice((*ephemeral.Handle)(unsafe.SliceData(hs)), len(hs))
}

// Lease probes a table's rows by handle: a small value a kernel copies
// freely, safe from many goroutines while no structural change runs (the
// Storage section of docs/architecture.md).
type Lease struct{ l ephemeral.Lease }

// Row returns the row index of h in the leased table (its slot), or false
// when h is zero, stale or of another domain, or has no row there.
// Allocates nothing.
func (l Lease) Row(h Handle) (int, bool) { return l.l.Row(ephemeral.Handle(h)) }

// Find returns the row of h in the leased table, or -1 when h is zero,
// stale, of another domain or has no row there. Allocates nothing.
func (l Lease) Find(h Handle) int { return l.l.Find(ephemeral.Handle(h)) }

// IsAlive reports whether h names a live row of the leased table.
func (l Lease) IsAlive(h Handle) bool { return l.l.IsAlive(ephemeral.Handle(h)) }

// Words returns the leased table's stored words by row, one per row of
// its capacity: the high 32 bits (tag and generation) of the handle of the
// entity whose row is present, 0 where none is. Find(h) is h.Index()
// exactly when h.Index() < len(words), words[h.Index()] == uint32(h>>32)
// and that word is not 0, else -1: the test a SIMD kernel gathers for 8
// or 16 handles at a time instead of calling Find (the layout:
// docs/architecture.md, "Handle layout"). The slice is the table's own:
// read it only, while the lease is valid. Allocates nothing.
func (l Lease) Words() []uint32 { return l.l.Words() }

// TableSpec declares a table (Builder.Table).
type TableSpec struct {
	Name      string  // non-empty, unique among the builder's tables
	Capacity  int     // rows; 1..MaxCapacity (ignored when zero and Domain is set)
	ChunkRows int     // rows per chunk, a power of two; 0 = the default (or the domain's)
	Domain    *Domain // optional: a handle space shared with other tables
}

// DomainSpec declares a domain (Builder.Domain): a handle space shared by
// tables, so that one entity has a row in several of them.
type DomainSpec struct {
	Name      string // non-empty, unique among the builder's domains
	Capacity  int    // entities; 1..MaxCapacity
	ChunkRows int    // rows per chunk of every member table, a power of two; 0 = the default
}

// MaxCapacity is the most rows of a table, entities of a domain.
const MaxCapacity = ephemeral.MaxCapacity

// Table is chunked struct-of-arrays storage of a fixed capacity, made by
// Builder.Table. A row lives at its entity's slot and never moves; deletes
// leave holes masked by each chunk's enabled bitmap. Chunk c holds rows
// c*ChunkRows .. (c+1)*ChunkRows-1; iteration is by ascending chunk, then
// row. Structural changes (Insert, InsertN, Attach, Delete, DeleteN,
// Detach) run alone on the table and its domain, between frames (systems
// record them: Record); everything else is safe from many goroutines while
// no structural change runs (docs/architecture.md, Storage). Called while
// the world's frame runs, from a system's body or from another goroutine,
// a structural change of the host (these, Domain's Create, CreateN,
// Delete, DeleteN, and a query's Insert and InsertN) panics, naming the
// recorder call to use instead, before changing anything: the check is
// one atomic load (programmer misuse; a world's tables only, from Build
// on). After World.Close every structural change returns ErrClosed (or
// false, 0) and changes nothing, while reads and column writes go on over
// the rows as they stand (docs/architecture.md, Storage, "After Close").
type Table ephemeral.Table

// guard panics when the world of t's domain runs a frame: call is the
// structural change ("Table.Insert"), use what a system records instead.
// One atomic load; the panic is out of line.
func guard(d *ephemeral.Domain, call, use string) {
	if d.Guarded() {
		guardPanic(d, call, use)
	}
}

func guardPanic(d *ephemeral.Domain, call, use string) {
	panic("tickwork: " + call + " in domain " + strconv.Quote(d.Name()) + " while the world's frame runs " +
		"(from a system's body, or from another goroutine during World.Frame): a structural change of the host " +
		"is for set-up and between frames; from a system, record it: " + use)
}

func (t *Table) e() *ephemeral.Table { return (*ephemeral.Table)(t) }

// Name is the table's name.
func (t *Table) Name() string { return t.e().Name() }

// Cap is the capacity in rows.
func (t *Table) Cap() int { return t.e().Cap() }

// Len is the number of live rows.
func (t *Table) Len() int { return t.e().Len() }

// ChunkRows is the number of rows per chunk, a power of two.
func (t *Table) ChunkRows() int { return t.e().ChunkRows() }

// Chunks is the number of chunks, ceil(Cap/ChunkRows).
func (t *Table) Chunks() int { return t.e().Chunks() }

// UsedChunks is one past the last chunk that holds a live row (0 for an
// empty table): a kernel runs chunks 0..UsedChunks()-1.
func (t *Table) UsedChunks() int { return t.e().UsedChunks() }

// ChunkLen is the number of live rows of chunk c. It panics when c is
// outside 0..Chunks()-1.
func (t *Table) ChunkLen(c int) int { return (*ephemeral.Table)(t).ChunkLen(c) }

// LiveEnd is one past the last live row of chunk c, chunk-relative (0 for
// an empty chunk), for a kernel that runs rows densely, holes included. It
// panics when c is outside 0..Chunks()-1.
func (t *Table) LiveEnd(c int) int { return t.e().LiveEnd(c) }

// Enabled is chunk c's enabled bitmap, ChunkRows bits: bit r is set when
// row c*ChunkRows+r is live. It is the table's own: read it, never write
// it. It panics when c is outside 0..Chunks()-1.
func (t *Table) Enabled(c int) bitmap.Bitmap { return (*ephemeral.Table)(t).Enabled(c) }

// Runs yields the maximal runs [lo, hi) of live rows of chunk c,
// chunk-relative, in ascending order. It panics when c is outside
// 0..Chunks()-1. Allocates nothing.
func (t *Table) Runs(c int) iter.Seq2[int, int] { return t.e().Runs(c) }

// HandleAt returns the handle of the live row at row index row, or false
// when the row is empty or out of range.
func (t *Table) HandleAt(row int) (Handle, bool) {
	h, ok := t.e().HandleAt(row)
	return Handle(h), ok
}

// IsAlive reports whether h names a live row of t.
func (t *Table) IsAlive(h Handle) bool { return t.e().IsAlive(ephemeral.Handle(h)) }

// Lease returns a lease for probing t's rows by handle.
func (t *Table) Lease() Lease { return Lease{t.e().Lease()} }

// Domain is the table's handle space (a private one for a standalone
// table).
func (t *Table) Domain() *Domain { return (*Domain)(t.e().Domain()) }

// Columns lists the column names in declaration order, in a new slice.
func (t *Table) Columns() []string { return t.e().Columns() }

// Insert creates an entity with a row in t (every column zero) and returns
// its handle, or a *CapacityError (ErrCapacity) when t is full. A
// structural change.
func (t *Table) Insert() (Handle, error) {
	guard(t.e().Domain(), "Table.Insert", useCreate)
	h, err := t.e().Insert()
	return Handle(h), err
}

// InsertN inserts len(out) rows as Insert, writing their handles to out in
// slot order, or none and a *CapacityError when they do not all fit. A
// structural change.
func (t *Table) InsertN(out []Handle) error {
	guard(t.e().Domain(), "Table.InsertN", useCreate)
	return t.e().InsertN(handles(out))
}

// Attach adds a row (every column zero) to t for h, a live entity of t's
// domain. It returns ErrForeignHandle, ErrStaleHandle or ErrRowExists and
// changes nothing when it cannot. A structural change.
func (t *Table) Attach(h Handle) error {
	guard(t.e().Domain(), "Table.Attach", "Recorder.Attach (Record, Records) or Move")
	return t.e().Attach(ephemeral.Handle(h))
}

// Delete deletes the entity h, its row in every table of the domain; false
// when h has no live row in t. A structural change.
func (t *Table) Delete(h Handle) bool {
	guard(t.e().Domain(), "Table.Delete", useDelete)
	return t.e().Delete(ephemeral.Handle(h))
}

// DeleteN deletes every entity of hs with a live row in t and returns how
// many it deleted. A structural change.
func (t *Table) DeleteN(hs []Handle) int {
	guard(t.e().Domain(), "Table.DeleteN", useDelete)
	return t.e().DeleteN(handles(hs))
}

// Detach removes h's row from t only; when it was the entity's last row
// the entity is deleted. False when h has no live row in t. A structural
// change.
func (t *Table) Detach(h Handle) bool {
	guard(t.e().Domain(), "Table.Detach", "Recorder.Remove (Record, Records)")
	return t.e().Detach(ephemeral.Handle(h))
}

// What a system records instead of a host's structural change (guard).
const (
	useCreate = "Recorder.Create (Record, or the use Records) or a spawner's Spawn (NewSpawner1.., or the use Spawns1..)"
	useDelete = "Recorder.Delete (Record, Records)"
)

// Column is one typed column of a table, made by AddColumn: Chunks*ChunkRows
// values of T in one pin-stable allocation (its slices stay valid while the
// table lives). Between frames the host reads and writes it; in a frame,
// systems reach it through accessors (Read, Write).
type Column[T any] ephemeral.Column[T]

func (c *Column[T]) e() *ephemeral.Column[T] { return (*ephemeral.Column[T])(c) }

// Name is the column's name.
func (c *Column[T]) Name() string { return c.e().Name() }

// Table is the column's table.
func (c *Column[T]) Table() *Table { return (*Table)(c.e().Table()) }

// All returns the whole column, indexed by row; rows that are not live
// hold don't-care values. The slice is the column's own memory and
// bypasses the manifest: a system that writes through a slice taken here
// writes a column it never declared, which Build cannot see and nothing
// detects (docs/architecture.md, Access rules, "Column slices bypass the
// manifest"). In a system, use the accessor's All (Read, Write) instead.
func (c *Column[T]) All() []T { return c.e().All() }

// Span returns chunk c's slice of the column, ChunkRows values. It panics
// when c is outside 0..Chunks()-1. Like All, it bypasses the manifest
// (docs/architecture.md, Access rules).
func (c *Column[T]) Span(chunk int) []T { return c.e().Span(chunk) }

// Get returns h's value, or false when h has no live row in the table.
func (c *Column[T]) Get(h Handle) (T, bool) { return c.e().Get(ephemeral.Handle(h)) }

// Ptr returns a pointer to h's value, or nil when h has no live row.
func (c *Column[T]) Ptr(h Handle) *T { return c.e().Ptr(ephemeral.Handle(h)) }

// Set sets h's value; false, changing nothing, when h has no live row.
// The host's, between frames: in a system, write through an accessor
// (Write, WriteTracked), which the manifest declares. The debug build
// panics on a Set while the world's frame runs (docs/architecture.md,
// Debug build).
func (c *Column[T]) Set(h Handle, v T) bool {
	if DebugBuild {
		if d := c.e().Table().Domain(); d.Guarded() {
			panic("tickwork: Column.Set of column " + strconv.Quote(c.Name()) + " while the world's frame runs " +
				"(from a system's body, or from another goroutine during World.Frame): the host writes between frames; " +
				"in a system declare the write (Write, WriteTracked) and use the accessor's Set")
		}
	}
	return c.e().Set(ephemeral.Handle(h), v)
}

// Domain is a handle space shared by tables, made by Builder.Domain: an
// entity has one slot, and a row at that slot in each member table it is
// attached to. Create and Delete are structural changes of every member
// table (see Table).
type Domain ephemeral.Domain

func (d *Domain) e() *ephemeral.Domain { return (*ephemeral.Domain)(d) }

// Name is the domain's name.
func (d *Domain) Name() string { return d.e().Name() }

// Cap is the capacity in entities.
func (d *Domain) Cap() int { return d.e().Cap() }

// Len is the number of live entities.
func (d *Domain) Len() int { return d.e().Len() }

// ChunkRows is the rows per chunk of every member table.
func (d *Domain) ChunkRows() int { return d.e().ChunkRows() }

// Tag is the domain's tag, the part of its handles that tells domains
// apart.
func (d *Domain) Tag() uint32 { return d.e().Tag() }

// Tables lists the member tables in declaration order, in a new slice.
func (d *Domain) Tables() []*Table {
	ts := d.e().Tables()
	out := make([]*Table, len(ts))
	for i, t := range ts {
		out[i] = (*Table)(t)
	}
	return out
}

// Owns reports whether h is a nonzero handle of this domain (live or not).
func (d *Domain) Owns(h Handle) bool { return d.e().Owns(ephemeral.Handle(h)) }

// IsAlive reports whether h names a live entity of the domain.
func (d *Domain) IsAlive(h Handle) bool { return d.e().IsAlive(ephemeral.Handle(h)) }

// MakeHandle returns the handle of slot index with generation generation
// in this domain (for tests and tools; a live entity's handle comes from
// Create or Insert). generation must be 0..4194303 (what
// Handle.Generation returns): a larger one panics, since it would wrap
// onto another generation and could name a live entity.
func (d *Domain) MakeHandle(index, generation uint32) Handle {
	return Handle(d.e().MakeHandle(index, generation))
}

// Create creates an entity with no row yet (Table.Attach adds them), or
// returns a *CapacityError when the domain is full. A structural change.
func (d *Domain) Create() (Handle, error) {
	guard(d.e(), "Domain.Create", useCreate)
	h, err := d.e().Create()
	return Handle(h), err
}

// CreateN creates len(out) entities as Create, or none and a
// *CapacityError. A structural change.
func (d *Domain) CreateN(out []Handle) error {
	guard(d.e(), "Domain.CreateN", useCreate)
	return d.e().CreateN(handles(out))
}

// Delete deletes the entity h and its rows in every member table; false
// when h is not a live entity. A structural change.
func (d *Domain) Delete(h Handle) bool {
	guard(d.e(), "Domain.Delete", useDelete)
	return d.e().Delete(ephemeral.Handle(h))
}

// DeleteN deletes every live entity of hs and returns how many it deleted.
// A structural change.
func (d *Domain) DeleteN(hs []Handle) int {
	guard(d.e(), "Domain.DeleteN", useDelete)
	return d.e().DeleteN(handles(hs))
}

// NextRun returns the first run [lo, hi) of set bits of a chunk's enabled
// bitmap (Table.Enabled) at or after row from, chunk-relative, lo == hi
// when there is none: the loop of a kernel that walks runs without a
// closure,
//
//	for lo, hi := tickwork.NextRun(mask, 0); lo < hi; lo, hi = tickwork.NextRun(mask, hi) { ... }
func NextRun(mask []uint64, from int) (lo, hi int) { return ephemeral.NextRun(mask, from) }
