package ephemeral

import (
	"math/bits"
	"strconv"
	"sync/atomic"

	"github.com/tickwork/tickwork/memory"
)

// Limits of a definition.
const (
	// MaxCapacity is the largest capacity of a table or domain, in rows.
	MaxCapacity = 1 << 30
	// MinChunkRows and MaxChunkRows bound ChunkRows; it is a power of two.
	MinChunkRows = 64
	MaxChunkRows = 1 << 20
	// DefaultChunkRows is the chunk size, in rows, when a spec leaves it zero.
	// 4096 rows make a chunk's enabled bitmap 512 bytes (64 words) and a
	// float32 column span 16 KiB, so a kernel touching a handful of columns
	// keeps one chunk in L1/L2, while 100 000 rows still split into 25 chunks:
	// enough work items for parallel kernels on 2 to 8 workers.
	// Exported as the value a zero ChunkRows takes, for a host that sizes
	// tables (TableBytes) or picks a chunk size against it.
	DefaultChunkRows = 4096
)

// DomainSpec declares an entity domain: one handle space shared by several
// tables. Capacity is in entities (= rows of each member table).
type DomainSpec struct {
	Name      string
	Capacity  int // entities; 1..MaxCapacity
	ChunkRows int // rows per chunk of every member table; 0 = DefaultChunkRows
	// Budget is charged with the domain's pages and with those of every
	// member table and column; nil gives the domain a private budget of
	// memory.DefaultBudget bytes. A runtime.Builder sets its world's.
	Budget *memory.Budget
}

// Domain is a handle space shared by its member tables: an entity's rows in
// every member table sit at the same slot, the handle's index, so the tables
// of a domain share slot numbers and chunk layout.
//
// Slot policy (deterministic): a new entity takes the lowest free slot. The
// same history of creates and deletes therefore gives the same slot indexes
// and generations (in any domain: handles differ only by the domain's tag)
// and the same layout, and live rows stay packed towards the first chunks.
//
// Handle scope: the handles a domain issues carry its Tag, so a handle used
// with a table of another domain names no row there (Owns; see
// docs/architecture.md, "Handle layout"). A standalone table (TableSpec
// without Domain) is a domain of its own.
//
// Lifetime: an entity lives until it is deleted or its last row is removed
// (Table.Detach), when its slot is freed and its generation advances;
// Table.RemoveRow removes a last row keeping the entity, for a caller that
// attaches it elsewhere or deletes it (DeleteRowless) right after. An
// entity made by Create has no rows until Attach; delete it with Delete if it
// never gets one.
//
// A Domain is not safe for concurrent structural change (Create, Delete,
// inserts into member tables). Reads (IsAlive, Len, leases of member tables)
// are safe from any number of goroutines while no structural change runs.
type Domain struct {
	name      string
	capacity  int
	chunkRows int
	shift     uint
	tag       uint32    // the domain's tag, 1..maxHandleTag
	tagWord   uint32    // tag << HandleGenerationBits: a handle's high word without its generation
	gens      []uint32  // current generation of each slot (without the tag); odd = live
	free      freeSlots // the slots below capacity that no live entity holds
	live      int
	tables    []*Table
	budget    *memory.Budget // charged by the domain and its member tables and columns
	sealed    bool           // Seal: no more member tables or columns
	odd       []uint64       // CheckState's scratch: the live slots of a state, a bit per slot
	guard     *atomic.Bool   // SetGuard's flag, nil until set
	closed    error          // SetClosed's refusal, nil while the domain is open
}

// SetClosed makes every later structural change of the domain and its
// member tables refuse with err, changing nothing: a higher layer's
// error once its world is closed (runtime.ErrClosed after World.Close).
// Create, CreateN, Table.Insert, InsertN, Attach, Move and the queries'
// Insert and InsertN return err; Delete, DeleteN, Detach, RemoveRow and
// DeleteRowless return false (0 for DeleteN). Nothing is freed: reads and
// column writes (Get, Set, Ptr, Span, All, iteration) go on over the rows
// as they stand. err nil opens the domain again. Call it from the
// goroutine that makes the structural changes, none running.
func (d *Domain) SetClosed(err error) { d.closed = err }

// Closed is SetClosed's refusal, nil while the domain is open.
func (d *Domain) Closed() error { return d.closed }

// SetGuard gives the domain a higher layer's flag, set while that layer
// must not see host structural changes of the domain's tables (a world's
// running frame): the domain only stores it, and Guarded reads it; the
// package's own methods never look at it. Call it at set-up; g nil
// removes it.
func (d *Domain) SetGuard(g *atomic.Bool) { d.guard = g }

// Guarded reports whether SetGuard's flag is set: one atomic load, false
// without a flag. Safe from any goroutine.
func (d *Domain) Guarded() bool { return d.guard != nil && d.guard.Load() }

// NewDomain declares a domain. It returns a *DefinitionError (errors.Is
// ErrDefinition) for an empty name, a capacity outside 1..MaxCapacity, or
// bad chunk rows, and a *memory.BudgetError (errors.Is memory.ErrBudget)
// when its pages do not fit in what is left of spec.Budget; nothing is
// allocated then.
//
// The domain takes the next tag of a process-wide sequence (see
// docs/architecture.md, "Handle layout").
//
// Memory: all of the domain's handle pages are allocated here, eagerly, for
// the whole capacity rounded up to whole chunks (slots = Chunks*ChunkRows):
// 4 bytes per slot for the generations plus about 1/8 byte per slot for the
// free-slot set, so about 4.13 bytes per slot (about 4.1 GiB at
// MaxCapacity), DomainBytes exactly, charged to spec.Budget first. Every
// member table adds its own pages (see NewTable). Choose the capacity you
// need, not MaxCapacity.
//
// Not safe for concurrent use; call it at set-up.
func NewDomain(spec DomainSpec) (*Domain, error) {
	cr, slots, err := domainShape(spec)
	if err != nil {
		return nil, err
	}
	budget := budgetOf(spec.Budget)
	if err := budget.Charge(memory.Definition{Kind: "domain", Name: spec.Name}, DomainBytes(spec.Capacity, cr)); err != nil {
		return nil, err
	}
	return newDomain(spec, cr, slots, budget), nil
}

// domainShape checks spec and returns its chunk rows and its slots (the
// capacity rounded up to whole chunks).
func domainShape(spec DomainSpec) (chunkRows, slots int, err error) {
	if spec.Name == "" {
		return 0, 0, &DefinitionError{Kind: KindDomain, Table: spec.Name, Err: errEmptyName}
	}
	if spec.Capacity <= 0 || spec.Capacity > MaxCapacity {
		return 0, 0, &DefinitionError{Kind: KindDomain, Table: spec.Name, Err: ErrZeroCapacity, Detail: "got " + itoa(spec.Capacity)}
	}
	cr := spec.ChunkRows
	if cr == 0 {
		cr = DefaultChunkRows
	}
	if cr < MinChunkRows || cr > MaxChunkRows || cr&(cr-1) != 0 {
		return 0, 0, &DefinitionError{Kind: KindDomain, Table: spec.Name, Err: ErrChunkRows, Detail: "got " + itoa(cr)}
	}
	return cr, (spec.Capacity + cr - 1) / cr * cr, nil
}

// newDomain makes the domain of a checked spec whose pages are charged; it
// takes the next tag.
func newDomain(spec DomainSpec, cr, slots int, budget *memory.Budget) *Domain {
	tag := nextTag()
	return &Domain{
		name:      spec.Name,
		tag:       tag,
		tagWord:   tag << HandleGenerationBits,
		capacity:  spec.Capacity,
		chunkRows: cr,
		shift:     uint(bits.TrailingZeros(uint(cr))),
		gens:      make([]uint32, slots),
		free:      newFreeSlots(spec.Capacity),
		budget:    budget,
	}
}

// Name is the domain's name. Fixed at NewDomain; safe from any goroutine.
func (d *Domain) Name() string { return d.name }

// Cap is the capacity in entities. Fixed at NewDomain; safe from any
// goroutine.
func (d *Domain) Cap() int { return d.capacity }

// Len is the number of live entities. Safe from many goroutines while no
// structural change runs.
func (d *Domain) Len() int { return d.live }

// ChunkRows is the number of rows per chunk of every member table. Fixed at
// NewDomain; safe from any goroutine.
func (d *Domain) ChunkRows() int { return d.chunkRows }

// Budget is the memory budget the domain, its member tables and their
// columns are charged to (spec.Budget, or the domain's private one). Fixed
// at NewDomain; safe from any goroutine. Exported for a host of standalone
// tables that reads what its domain's private budget has charged (Used,
// Limit) or shares it with another spec.
func (d *Domain) Budget() *memory.Budget { return d.budget }

// Tables returns the member tables in definition order. The slice is the
// domain's own: do not modify it. Not concurrently with NewTable on d.
func (d *Domain) Tables() []*Table { return d.tables }

// seal ends the definition of d: from now on NewTable into d and AddColumn
// on its tables fail with a *DefinitionError (errors.Is ErrSealed) and
// allocate and charge nothing. Rows are unaffected: inserts, deletes and
// column values go on as before. Sealing is permanent and idempotent; a
// runtime.Builder seals the domains of its tables at Build, so a world's
// tables and columns are exactly those declared before Build. A definition
// step: not concurrently with anything else on d.
func (d *Domain) seal() { d.sealed = true }

// Tag is the domain's tag, 1..1023, carried by every handle d
// issues (see docs/architecture.md, "Handle layout"). Fixed at NewDomain;
// safe from any goroutine.
func (d *Domain) Tag() uint32 { return d.tag }

// Owns reports whether h carries d's tag, live or not: false for the zero
// handle, untagged handles and handles of other domains (a domain whose tag
// collides with d's excepted, see Tag). A handle that d does not own names
// no row of d's tables. Pure; safe from any goroutine.
func (d *Domain) Owns(h Handle) bool { return h.Tag() == d.tag }

// MakeHandle builds d's handle of slot index at generation, which must be
// 0..2^HandleGenerationBits-1 (what Handle.Generation returns). It is for
// tests and for code that stores slot indexes and generations apart; a
// made-up handle names a row only if the generation matches. It panics on
// a generation past the range, which would wrap onto another generation
// and could name a live entity: check the stored value first. Pure; safe
// from any goroutine.
func (d *Domain) MakeHandle(index, generation uint32) Handle {
	if generation > genMask {
		panic("ephemeral: Domain.MakeHandle(" + itoa(int(index)) + ", " + itoa(int(generation)) + ") of domain " + strconv.Quote(d.name) +
			": generation past " + itoa(genMask) + " (2^HandleGenerationBits-1), the largest a handle holds; " +
			"pass a generation from Handle.Generation")
	}
	return handleOf(index, d.tagWord|generation)
}

// foreign reports whether h is a nonzero handle that d does not own.
func (d *Domain) foreign(h Handle) bool { return h != 0 && !d.Owns(h) }

// IsAlive reports whether h names a live entity of d. Safe from kernels
// while no structural change runs.
func (d *Domain) IsAlive(h Handle) bool {
	i := h.Index()
	return uint64(i) < uint64(d.capacity) && h.word() == d.tagWord|d.gens[i] && h.Generation()&1 == 1
}

// Create makes a new entity with no rows and returns its handle. It returns a
// *CapacityError (errors.Is ErrCapacity) when the domain is full. A
// structural change: nothing else may run on d or its tables meanwhile.
func (d *Domain) Create() (Handle, error) {
	if err := d.fits(KindDomain, d.name, 1); err != nil {
		return 0, err
	}
	return d.alloc(), nil
}

// CreateN makes len(out) entities with no rows, writing their handles to out
// in slot order. When they do not all fit it creates none and returns a
// *CapacityError. A structural change, as Create.
func (d *Domain) CreateN(out []Handle) error {
	if err := d.fits(KindDomain, d.name, len(out)); err != nil {
		return err
	}
	d.allocN(out)
	return nil
}

// fits returns nil when n more entities fit in d, SetClosed's refusal on
// a closed domain, else a *CapacityError
// naming name, of kind k (the domain, or the table inserting into it). Live counts the
// domain's entities, the slots in use: in a shared domain a table's own rows
// may be far fewer.
func (d *Domain) fits(k DefinitionKind, name string, n int) error {
	if d.closed != nil {
		return d.closed
	}
	if n > d.capacity-d.live {
		return &CapacityError{Kind: k, Table: name, Capacity: d.capacity, Live: d.live, Requested: n}
	}
	return nil
}

// allocN fills out with handles of the len(out) lowest free slots, in
// ascending order, as len(out) calls of alloc would; the caller has checked
// capacity. It takes the free slots of one level-0 word at a time.
func (d *Domain) allocN(out []Handle) {
	gens := d.gens
	for k := 0; k < len(out); {
		w := d.free.lowest() >> 6
		word := d.free.levels[0][w]
		var taken uint64
		for word != 0 && k < len(out) {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			taken |= 1 << uint(b)
			i := w<<6 | b
			g := gens[i] + 1 // even (dead) -> odd (live)
			gens[i] = g
			out[k] = handleOf(uint32(i), d.tagWord|g)
			k++
		}
		d.free.takeWord(w, taken)
	}
	d.live += len(out)
}

// alloc takes the lowest free slot; the caller has checked capacity.
func (d *Domain) alloc() Handle {
	i := d.free.lowest()
	d.free.take(i)
	g := d.gens[i] + 1 // even (dead) -> odd (live)
	d.gens[i] = g
	d.live++
	return handleOf(uint32(i), d.tagWord|g)
}

// Delete deletes the entity h and its rows in every member table. It returns
// false, and changes nothing, when h is zero, stale or not d's (see Owns):
// deleting twice is a no-op. A structural change, as Create.
func (d *Domain) Delete(h Handle) bool {
	if d.closed != nil || !d.IsAlive(h) {
		return false
	}
	i := h.Index()
	w := h.word()
	for _, t := range d.tables {
		if t.gens[i] == w {
			if len(t.watchers) != 0 {
				t.tell(Deleted, h)
			}
			t.removeRow(i)
		}
	}
	d.release(i)
	return true
}

// release frees the live slot i: its generation advances to the next even
// (dead) one, wrapping within HandleGenerationBits, and the slot becomes
// free. Its rows are gone already.
func (d *Domain) release(i uint32) {
	d.gens[i] = (d.gens[i] + 1) & genMask // odd (live) -> even (dead)
	d.free.put(int(i))
	d.live--
}

// releaseIfEmpty frees the live entity h when no member table has a row
// for it any more (its last row was detached).
func (d *Domain) releaseIfEmpty(h Handle) {
	i, w := h.Index(), h.word()
	for _, t := range d.tables {
		if t.gens[i] == w {
			return
		}
	}
	d.release(i)
}

// DeleteN deletes every live entity of hs and returns how many it deleted;
// zero, stale and repeated handles are skipped.
func (d *Domain) DeleteN(hs []Handle) int {
	n := 0
	for _, h := range hs {
		if d.Delete(h) {
			n++
		}
	}
	return n
}
