package ephemeral

import (
	"iter"
	"math/bits"
	"sync/atomic"

	"github.com/tickwork/tickwork/memory"
)

// Versions is the change-detection state of one column (Column.Track) or
// of the rows added to one table (Table.TrackAdded): per chunk, the change
// version of the latest change in the chunk and of the latest change of
// every live row of the chunk at once; per row, when row tracking was
// asked for, the version of the row's latest change. Versions come from
// one clock, the world's change clock (SetClock), which grows by one at
// the start of every system run and again at its end; a reader asks for
// what changed after its own last run (Chunks, Rows). The rule (who bumps,
// when a reader sees a change): docs/architecture.md, Change detection.
//
// Memory: 16 bytes per chunk, and 8 bytes per row with row tracking.
//
// Concurrency: Stamp is safe from many goroutines on different rows (the
// chunk's version is stored atomically, once per version); Bump, MarkAll,
// Chunks and Rows need exclusive access (the world calls them between
// systems, and readers read in their system's body, which no writer of
// the column runs beside).
type Versions struct {
	table *Table
	clock *uint64  // the world's change clock; nil: Stamp stamps nothing
	chunk []uint64 // per chunk: version of the latest change of a row of it
	whole []uint64 // per chunk: version of the latest change of all its live rows (Bump)
	rows  []uint64 // per row, nil without row tracking
	sinks []*RowSink
}

// newVersions returns t's versions, with per-row versions when rows is set.
func newVersions(t *Table, rows bool) *Versions {
	v := &Versions{table: t, chunk: make([]uint64, len(t.enabled)), whole: make([]uint64, len(t.enabled))}
	if rows {
		v.rows = make([]uint64, len(t.enabled)*t.dom.chunkRows)
	}
	return v
}

// VersionsBytes is what a Versions of t allocates, in bytes: 16 per chunk,
// plus 8 per row with rows.
func VersionsBytes(t *Table, rows bool) int64 {
	n := int64(16 * len(t.enabled))
	if rows {
		n += 8 * int64(len(t.enabled)*t.dom.chunkRows)
	}
	return n
}

// SetClock gives v the world's change clock, which must be at least 1, and
// stamps every live row with its current value, so that a reader's first
// run sees every row that existed before the world ran as changed (and
// added). Set-up only (a world's seal calls it).
func (v *Versions) SetClock(clock *uint64) {
	v.clock = clock
	v.MarkAll()
}

// RowsTracked reports whether v keeps a version per row.
func (v *Versions) RowsTracked() bool { return v.rows != nil }

// Stamp records a change of row (in range) at the clock's current value:
// the row's version, with row tracking, and its chunk's. It does nothing
// before SetClock. Allocates nothing.
func (v *Versions) Stamp(row uint32) {
	if v.clock == nil {
		return
	}
	now := *v.clock
	if v.rows != nil {
		v.rows[row] = now
	}
	p := &v.chunk[row>>v.table.dom.shift]
	if atomic.LoadUint64(p) != now {
		atomic.StoreUint64(p, now)
	}
	for _, s := range v.sinks {
		s.Add(row)
	}
}

// AddSink makes every later Stamp of v also add its row to s (s must be
// of v's table): what a subscription keeps its stamped rows in, so that
// finding them costs the rows, not the chunks (docs/architecture.md,
// Subscriptions). Set-up only.
func (v *Versions) AddSink(s *RowSink) { v.sinks = append(v.sinks, s) }

// BumpedRows yields, ascending, the live rows of the chunks bumped whole
// (Bump, BumpChunks, MarkAll) after since. Allocates nothing.
func (v *Versions) BumpedRows(since uint64) iter.Seq[int] {
	return func(yield func(int) bool) {
		t := v.table
		for c, ver := range v.whole {
			if ver <= since {
				continue
			}
			base := c << t.dom.shift
			for w, word := range t.enabled[c] {
				for word != 0 {
					if !yield(base + w<<6 + bits.TrailingZeros64(word)) {
						return
					}
					word &= word - 1
				}
			}
		}
	}
}

// AddBumpedTo adds to s the live rows of the chunks bumped whole after
// since (BumpedRows's rows) without an iterator: a caller compiled in
// another package, where BumpedRows may not inline, allocates nothing.
func (v *Versions) AddBumpedTo(since uint64, s *RowSink) {
	t := v.table
	for c, ver := range v.whole {
		if ver <= since {
			continue
		}
		base := c << t.dom.shift
		for w, word := range t.enabled[c] {
			for word != 0 {
				s.Add(uint32(base + w<<6 + bits.TrailingZeros64(word)))
				word &= word - 1
			}
		}
	}
}

// RowSink is a set of rows of one table: a bit per row and a flag per
// chunk, so that draining it costs the chunks and the rows it holds.
// Memory: 1 bit per row and 4 bytes per chunk.
//
// Concurrency: Add is safe from many goroutines adding rows of different
// chunks (a chunk holds whole 64-row words: MinChunkRows; the chunk flag
// is stored atomically), as Versions.Stamp is called; Drain needs
// exclusive access.
type RowSink struct {
	shift  uint
	bits   []uint64
	chunks []uint32
}

// NewRowSink returns an empty set of t's rows.
func NewRowSink(t *Table) *RowSink {
	return &RowSink{shift: t.dom.shift, bits: make([]uint64, (len(t.enabled)<<t.dom.shift)>>6), chunks: make([]uint32, len(t.enabled))}
}

// RowSinkBytes is what NewRowSink(t) allocates, in bytes.
func RowSinkBytes(t *Table) int64 {
	return int64((len(t.enabled)<<t.dom.shift)>>6)*8 + 4*int64(len(t.enabled))
}

// Add adds row (in range) to s. Allocates nothing.
func (s *RowSink) Add(row uint32) {
	s.bits[row>>6] |= 1 << (row & 63)
	if p := &s.chunks[row>>s.shift]; atomic.LoadUint32(p) == 0 {
		atomic.StoreUint32(p, 1)
	}
}

// AddAll adds every row of the table to s.
func (s *RowSink) AddAll() {
	for i := range s.bits {
		s.bits[i] = ^uint64(0)
	}
	for i := range s.chunks {
		s.chunks[i] = 1
	}
}

// Drain calls f for every row of s in ascending order and empties s.
func (s *RowSink) Drain(f func(row int)) {
	words := 1 << s.shift >> 6
	for c, on := range s.chunks {
		if on == 0 {
			continue
		}
		s.chunks[c] = 0
		for w := c * words; w < (c+1)*words; w++ {
			word := s.bits[w]
			s.bits[w] = 0
			for word != 0 {
				f(w<<6 + bits.TrailingZeros64(word))
				word &= word - 1
			}
		}
	}
}

// Bump records a change of every live row of the table at version now:
// two stores per chunk that holds a live row, none per row. The world
// calls it after the run of a system that writes the column without
// stamping its rows.
func (v *Versions) Bump(now uint64) {
	t := v.table
	for c, n := range t.chunkLive[:t.UsedChunks()] {
		if n != 0 {
			v.chunk[c], v.whole[c] = now, now
		}
	}
}

// BumpChunks is Bump of the chunks c with ran[c] set only (ran has one
// entry per chunk of the table): what a kernel that ran those chunks
// bumps.
func (v *Versions) BumpChunks(now uint64, ran []bool) {
	t := v.table
	for c, n := range t.chunkLive[:t.UsedChunks()] {
		if n != 0 && ran[c] {
			v.chunk[c], v.whole[c] = now, now
		}
	}
}

// MarkAll records a change of every live row at the clock's current
// value (Bump at the clock): a restore of a snapshot calls it
// (docs/architecture.md, Change detection). It does nothing before
// SetClock.
func (v *Versions) MarkAll() {
	if v.clock != nil {
		v.Bump(*v.clock)
	}
}

// Chunks yields, in ascending order, the chunks with a change of version
// greater than since (a reader's last run). Allocates nothing.
func (v *Versions) Chunks(since uint64) iter.Seq[int] {
	return func(yield func(int) bool) {
		for c, ver := range v.chunk {
			if ver > since && !yield(c) {
				return
			}
		}
	}
}

// Changed reports whether some chunk changed after since.
func (v *Versions) Changed(since uint64) bool {
	for _, ver := range v.chunk {
		if ver > since {
			return true
		}
	}
	return false
}

// ChunkChanged reports whether chunk c changed after since (c in range).
func (v *Versions) ChunkChanged(c int, since uint64) bool { return v.chunk[c] > since }

// Rows yields, in ascending order, the live rows (whole-column indexes)
// changed after since: with row tracking, the rows whose version is
// greater than since and every live row of a chunk bumped whole after
// since; without, every live row of a chunk changed after since.
// Allocates nothing.
func (v *Versions) Rows(since uint64) iter.Seq[int] {
	return func(yield func(int) bool) {
		t := v.table
		for c, ver := range v.chunk {
			if ver <= since {
				continue
			}
			exact := v.rows != nil && v.whole[c] <= since
			base := c << t.dom.shift
			for w, word := range t.enabled[c] {
				for word != 0 {
					r := base + w<<6 + bits.TrailingZeros64(word)
					word &= word - 1
					if exact && v.rows[r] <= since {
						continue
					}
					if !yield(r) {
						return
					}
				}
			}
		}
	}
}

// Track turns on change detection of c and returns its versions (the same
// for every call): from then on a row made live and Column.Set stamp the
// row, and a world's systems that write c bump it; rows asks for a
// version per row, which a call with rows adds to versions made without.
// What it allocates (VersionsBytes) is charged to the table's budget
// first: past it, Track returns the *memory.BudgetError (errors.Is
// memory.ErrBudget) and changes nothing. Set-up only, never concurrently
// with anything on c's table.
func (c *Column[T]) Track(rows bool) (*Versions, error) {
	v, err := track(c.changes, c.table, rows, memory.Definition{Kind: "changes", Name: c.table.name, Column: c.label})
	if err != nil {
		return nil, err
	}
	if c.changes == nil {
		c.table.tracked = append(c.table.tracked, v)
	}
	c.changes = v
	return v, nil
}

// Versions returns c's change-detection state, nil when it is not
// tracked.
func (c *Column[T]) Versions() *Versions { return c.changes }

// TrackAdded turns on the detection of added rows of t (every row made
// live: Insert, Attach, Move, a playback's creates) and returns its
// versions, which keep a version per row. It charges and allocates
// VersionsBytes(t, true), with Track's budget error. Set-up only.
func (t *Table) TrackAdded() (*Versions, error) {
	v, err := track(t.added, t, true, memory.Definition{Kind: "changes", Name: t.name})
	if err != nil {
		return nil, err
	}
	t.added = v
	return v, nil
}

// Added returns t's added-row versions, nil when they are not tracked.
func (t *Table) Added() *Versions { return t.added }

// ColumnVersions returns the change-detection state of t's column named
// name, nil when there is no such column or it is not tracked.
func (t *Table) ColumnVersions(name string) *Versions {
	for _, c := range t.cols {
		if c.name() == name {
			return c.versions()
		}
	}
	return nil
}

// TrackColumn is Column.Track of t's column named name, for a caller
// that knows the column by name only (a subscription's row struct). It
// returns nil and no error when t has no such column. Set-up only.
func (t *Table) TrackColumn(name string, rows bool) (*Versions, error) {
	for _, c := range t.cols {
		if c.name() == name {
			return c.track(rows)
		}
	}
	return nil, nil
}

// track returns v, made or given per-row versions when rows asks for
// them, after charging what that allocates to t's budget.
func track(v *Versions, t *Table, rows bool, def memory.Definition) (*Versions, error) {
	var bytes int64
	switch {
	case v == nil:
		bytes = VersionsBytes(t, rows)
	case rows && v.rows == nil:
		bytes = VersionsBytes(t, true) - VersionsBytes(t, false)
	default:
		return v, nil
	}
	if err := t.dom.budget.Charge(def, bytes); err != nil {
		return nil, err
	}
	if v == nil {
		return newVersions(t, rows), nil
	}
	v.rows = make([]uint64, len(t.enabled)*t.dom.chunkRows)
	copy(v.whole, v.chunk) // rows changed before row tracking: their chunk says so, whole
	return v, nil
}
