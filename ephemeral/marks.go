package ephemeral

import (
	"math/bits"
	"sync/atomic"
)

// Marks is a table's dirty-row bitmap: one bit per row of the table's
// capacity, set by the changes a secondary index must follow (a row made
// live or removed, Column.Set of a value) and drained by the world's index
// upkeep (docs/architecture.md, Indexes), with a summary bit per 64 words
// so that a drain visits only the words that hold marks. A table has Marks
// only when an index was declared on it (Table.SetMarks); a table without
// them pays one nil test per change.
//
// Concurrency: Mark is atomic (Column.Set may run from many goroutines on
// different rows); Rows and Reset need exclusive access (the world drains
// between systems, where no kernel runs).
type Marks struct {
	words   []uint64
	summary []uint64
	any     atomic.Bool
}

// NewMarks returns the marks of a table of rows rows (its Chunks*ChunkRows).
func NewMarks(rows int) *Marks {
	w := (rows + 63) / 64
	return &Marks{words: make([]uint64, w), summary: make([]uint64, (w+63)/64)}
}

// Mark marks row, which must be in range. Atomic; allocates nothing.
func (m *Marks) Mark(row uint32) {
	w := row >> 6
	if atomic.LoadUint64(&m.words[w])&(1<<(row&63)) != 0 {
		return
	}
	atomic.OrUint64(&m.words[w], 1<<(row&63))
	atomic.OrUint64(&m.summary[w>>6], 1<<(w&63))
	if !m.any.Load() {
		m.any.Store(true)
	}
}

// Any reports whether a row is marked.
func (m *Marks) Any() bool { return m.any.Load() }

// Words returns the bitmap, bit r%64 of word r/64 for row r, and its
// summary, bit w%64 of word w/64 set when word w may hold a mark. The
// slices are the marks' own: read them only.
func (m *Marks) Words() (words, summary []uint64) { return m.words, m.summary }

// Reset clears every mark (the words the summary names, then the summary).
func (m *Marks) Reset() {
	if !m.any.Load() {
		return
	}
	for s, sw := range m.summary {
		for sw != 0 {
			b := bits.TrailingZeros64(sw)
			sw &= sw - 1
			m.words[s<<6+b] = 0
		}
		m.summary[s] = 0
	}
	m.any.Store(false)
}

// SetMarks gives t its dirty-row marks (nil removes them): from then on
// every structural change of a row of t (Insert, Attach, Delete, Detach,
// Move, playback's creates) and every Column.Set of one of its columns
// marks the row. Set-up only (a world's index registration calls it).
func (t *Table) SetMarks(m *Marks) { t.marks = m }

// Marks returns t's dirty-row marks, nil when it has none.
func (t *Table) Marks() *Marks { return t.marks }
