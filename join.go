package tickwork

import (
	"iter"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/systems"
)

// Filter is a presence filter of a join, made by With or Without (the
// rule: package ephemeral, Joins).
type Filter struct{ f ephemeral.Filter }

// With is the filter of the entities that have a row in every table of
// tables (tag tables, with no column, included). Call it at set-up: it
// allocates the filter's list.
func With(tables ...*Table) Filter { return Filter{ephemeral.With(engineTables(tables)...)} }

// Without is the filter of the entities that have a row in none of
// tables. Call it at set-up: it allocates the filter's list.
func Without(tables ...*Table) Filter { return Filter{ephemeral.Without(engineTables(tables)...)} }

func engineTables(ts []*Table) []*ephemeral.Table {
	out := make([]*ephemeral.Table, len(ts))
	for i, t := range ts {
		out[i] = t.e()
	}
	return out
}

func engineFilters(fs []Filter) []ephemeral.Filter {
	out := make([]ephemeral.Filter, len(fs))
	for i, f := range fs {
		out[i] = f.f
	}
	return out
}

// Join is an entity query over the tables of one domain with no column:
// the entities with a row in every With table and none in a Without
// table, as handles (a tag table's entities: HostJoin(With(tag))). Join1
// .. Join4 add columns and have its methods. A small value: copy it into
// kernel state freely; every method is safe from many goroutines while no
// structural change runs and allocates nothing. The system makes it with
// NewJoin, the host with HostJoin; the rule: package ephemeral, Joins.
type Join struct{ j ephemeral.Join }

// HostJoin returns the join of filters, for the host: set-up and between
// frames. It returns a *DefinitionError (ErrStorageDefinition) with
// ErrJoinEmpty without a With table, ErrJoinDomains for tables of
// different domains, ErrJoinExcluded for a table both in With and
// Without; a nil table (a failed Table) gives ErrStorageDefinition alone.
func HostJoin(filters ...Filter) (Join, error) {
	j, err := ephemeral.NewJoin(engineFilters(filters)...)
	return Join{j}, err
}

// NewJoin declares the join of filters in a system: its With and Without
// tables are presence reads of its manifest, which conflict with nothing
// (docs/architecture.md, Access rules). A bad join fails the declaration
// with the errors of HostJoin.
func NewJoin(s *Decl, filters ...Filter) Join {
	return Join{systems.NewJoin(s.e(), engineFilters(filters)...)}
}

// Presence declares that the system reads which entities have a row in t
// (a presence read, as a join's With table: it conflicts with nothing)
// and returns t's lease, to probe by handle: Presence(s, stunned).IsAlive(h)
// asks whether h is tagged. A nil t fails the declaration.
func Presence(s *Decl, t *Table) Lease { return Lease{systems.Presence(s.e(), t.e())} }

// Table is the join's first required table (its first column's, else its
// first With table's); nil for the zero Join.
func (q Join) Table() *Table { return (*Table)(q.j.Table()) }

// Chunks is the number of chunks of the domain's tables.
func (q Join) Chunks() int { return q.j.Chunks() }

// UsedChunks is one past the last chunk that may hold a matching entity:
// the chunk count to give Parallel.
func (q Join) UsedChunks() int { return q.j.UsedChunks() }

// Has reports whether the join matches the live entity h.
func (q Join) Has(h Handle) bool { return q.j.Has(ephemeral.Handle(h)) }

// Count is the number of entities the join matches now (it reads every
// mask word of the used chunks).
func (q Join) Count() int { return q.j.Count() }

// All yields the handle of every entity the join matches, in ascending
// row order. The loop body must not change the structure of the domain's
// tables.
func (q Join) All() iter.Seq[Handle] {
	return func(yield func(Handle) bool) {
		for h := range q.j.All() {
			if !yield(Handle(h)) {
				return
			}
		}
	}
}

// Chunk yields the handles of the matching entities of chunk c, in row
// order: the row form for a kernel at chunk c. It panics when c is
// outside 0..Chunks()-1.
func (q Join) Chunk(c int) iter.Seq[Handle] {
	return func(yield func(Handle) bool) {
		for h := range q.j.Chunk(c) {
			if !yield(Handle(h)) {
				return
			}
		}
	}
}

// NextRun returns the first run [lo, hi) of matching rows of chunk c at or
// after chunk-relative row from, lo == hi == ChunkRows when there is none:
// the loop without a closure, over the slices of Spans. It panics when c
// is outside 0..Chunks()-1.
func (q Join) NextRun(c, from int) (lo, hi int) { return q.j.NextRun(c, from) }

// Runs yields the runs of matching rows of chunk c, chunk-relative, in
// ascending order (each mask word read once). It panics when c is
// outside 0..Chunks()-1.
func (q Join) Runs(c int) iter.Seq2[int, int] { return q.j.Runs(c) }

// Mask returns mask word w of chunk c (rows 64*w .. 64*w+63 of the chunk):
// the AND of the required tables' enabled bits and the AND NOT of the
// excluded ones'. It panics when c or w is out of range.
func (q Join) Mask(c, w int) uint64 { return q.j.Mask(c, w) }

// Join1 .. Join4 below are written from one template, one per column
// count (the lead folds them into internal/gen with the queries').

// Join1 is an entity query over the tables of one domain with 1 column,
// each of any of its tables: the entities with a row in every required
// table (the column' tables and With) and none in a Without table, with a
// pointer into each column; it has the methods of Join. The system makes
// it with NewJoin1, the host with HostJoin1.
type Join1[A any] struct {
	Join
	q ephemeral.Join1[A]
}

// HostJoin1 returns the join of column a and filters, for the host:
// set-up and between frames. It returns the errors of HostJoin, and
// ErrNilColumn for a nil column.
func HostJoin1[A any](a *Column[A], filters ...Filter) (Join1[A], error) {
	q, err := ephemeral.NewJoin1(a.e(), engineFilters(filters)...)
	return Join1[A]{Join{q.Join}, q}, err
}

// NewJoin1 declares the join of the column of a (accessors from Read
// or Write of one declaration, which declare the access) and filters in
// a system; its With and Without tables are presence reads, as NewJoin's.
func NewJoin1[A any](a Access[A], filters ...Filter) Join1[A] {
	q := systems.NewJoin1(a.access(), engineFilters(filters)...)
	return Join1[A]{Join{q.Join}, q}
}

// All yields every entity the join matches with its row, in ascending row
// order. The loop body may write through the row's pointers; it must not
// change the structure of the domain's tables. Allocates nothing.
func (q Join1[A]) All() iter.Seq2[Row1[A], Handle] {
	return func(yield func(Row1[A], Handle) bool) {
		for r, h := range q.q.All() {
			if !yield(Row1[A]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Chunk yields the matching entities of chunk c with their rows: the row
// form for a kernel at chunk c. It panics when c is outside
// 0..Chunks()-1. Allocates nothing.
func (q Join1[A]) Chunk(c int) iter.Seq2[Row1[A], Handle] {
	return func(yield func(Row1[A], Handle) bool) {
		for r, h := range q.q.Chunk(c) {
			if !yield(Row1[A]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Get returns h's row and true when the join matches h, else false: the
// probe by handle.
func (q Join1[A]) Get(h Handle) (Row1[A], bool) {
	r, ok := q.q.Get(ephemeral.Handle(h))
	return Row1[A]{r}, ok
}

// Spans returns chunk c's slice of each column, ChunkRows elements each,
// for the runs of NextRun or Runs; rows the join does not match hold
// don't-care values. It panics when c is outside 0..Chunks()-1.
func (q Join1[A]) Spans(c int) []A { return q.q.Spans(c) }

// Join2 is an entity query over the tables of one domain with 2 columns,
// each of any of its tables: the entities with a row in every required
// table (the columns' tables and With) and none in a Without table, with a
// pointer into each column; it has the methods of Join. The system makes
// it with NewJoin2, the host with HostJoin2.
type Join2[A, B any] struct {
	Join
	q ephemeral.Join2[A, B]
}

// HostJoin2 returns the join of columns a, b and filters, for the host:
// set-up and between frames. It returns the errors of HostJoin, and
// ErrNilColumn for a nil column.
func HostJoin2[A, B any](a *Column[A], b *Column[B], filters ...Filter) (Join2[A, B], error) {
	q, err := ephemeral.NewJoin2(a.e(), b.e(), engineFilters(filters)...)
	return Join2[A, B]{Join{q.Join}, q}, err
}

// NewJoin2 declares the join of the columns of a, b (accessors from Read
// or Write of one declaration, which declare the access) and filters in
// a system; its With and Without tables are presence reads, as NewJoin's.
func NewJoin2[A, B any](a Access[A], b Access[B], filters ...Filter) Join2[A, B] {
	q := systems.NewJoin2(a.access(), b.access(), engineFilters(filters)...)
	return Join2[A, B]{Join{q.Join}, q}
}

// All yields every entity the join matches with its row, in ascending row
// order. The loop body may write through the row's pointers; it must not
// change the structure of the domain's tables. Allocates nothing.
func (q Join2[A, B]) All() iter.Seq2[Row2[A, B], Handle] {
	return func(yield func(Row2[A, B], Handle) bool) {
		for r, h := range q.q.All() {
			if !yield(Row2[A, B]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Chunk yields the matching entities of chunk c with their rows: the row
// form for a kernel at chunk c. It panics when c is outside
// 0..Chunks()-1. Allocates nothing.
func (q Join2[A, B]) Chunk(c int) iter.Seq2[Row2[A, B], Handle] {
	return func(yield func(Row2[A, B], Handle) bool) {
		for r, h := range q.q.Chunk(c) {
			if !yield(Row2[A, B]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Get returns h's row and true when the join matches h, else false: the
// probe by handle.
func (q Join2[A, B]) Get(h Handle) (Row2[A, B], bool) {
	r, ok := q.q.Get(ephemeral.Handle(h))
	return Row2[A, B]{r}, ok
}

// Spans returns chunk c's slice of each column, ChunkRows elements each,
// for the runs of NextRun or Runs; rows the join does not match hold
// don't-care values. It panics when c is outside 0..Chunks()-1.
func (q Join2[A, B]) Spans(c int) ([]A, []B) { return q.q.Spans(c) }

// Join3 is an entity query over the tables of one domain with 3 columns,
// each of any of its tables: the entities with a row in every required
// table (the columns' tables and With) and none in a Without table, with a
// pointer into each column; it has the methods of Join. The system makes
// it with NewJoin3, the host with HostJoin3.
type Join3[A, B, C any] struct {
	Join
	q ephemeral.Join3[A, B, C]
}

// HostJoin3 returns the join of columns a, b, c and filters, for the host:
// set-up and between frames. It returns the errors of HostJoin, and
// ErrNilColumn for a nil column.
func HostJoin3[A, B, C any](a *Column[A], b *Column[B], c *Column[C], filters ...Filter) (Join3[A, B, C], error) {
	q, err := ephemeral.NewJoin3(a.e(), b.e(), c.e(), engineFilters(filters)...)
	return Join3[A, B, C]{Join{q.Join}, q}, err
}

// NewJoin3 declares the join of the columns of a, b, c (accessors from Read
// or Write of one declaration, which declare the access) and filters in
// a system; its With and Without tables are presence reads, as NewJoin's.
func NewJoin3[A, B, C any](a Access[A], b Access[B], c Access[C], filters ...Filter) Join3[A, B, C] {
	q := systems.NewJoin3(a.access(), b.access(), c.access(), engineFilters(filters)...)
	return Join3[A, B, C]{Join{q.Join}, q}
}

// All yields every entity the join matches with its row, in ascending row
// order. The loop body may write through the row's pointers; it must not
// change the structure of the domain's tables. Allocates nothing.
func (q Join3[A, B, C]) All() iter.Seq2[Row3[A, B, C], Handle] {
	return func(yield func(Row3[A, B, C], Handle) bool) {
		for r, h := range q.q.All() {
			if !yield(Row3[A, B, C]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Chunk yields the matching entities of chunk c with their rows: the row
// form for a kernel at chunk c. It panics when c is outside
// 0..Chunks()-1. Allocates nothing.
func (q Join3[A, B, C]) Chunk(c int) iter.Seq2[Row3[A, B, C], Handle] {
	return func(yield func(Row3[A, B, C], Handle) bool) {
		for r, h := range q.q.Chunk(c) {
			if !yield(Row3[A, B, C]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Get returns h's row and true when the join matches h, else false: the
// probe by handle.
func (q Join3[A, B, C]) Get(h Handle) (Row3[A, B, C], bool) {
	r, ok := q.q.Get(ephemeral.Handle(h))
	return Row3[A, B, C]{r}, ok
}

// Spans returns chunk c's slice of each column, ChunkRows elements each,
// for the runs of NextRun or Runs; rows the join does not match hold
// don't-care values. It panics when c is outside 0..Chunks()-1.
func (q Join3[A, B, C]) Spans(c int) ([]A, []B, []C) { return q.q.Spans(c) }

// Join4 is an entity query over the tables of one domain with 4 columns,
// each of any of its tables: the entities with a row in every required
// table (the columns' tables and With) and none in a Without table, with a
// pointer into each column; it has the methods of Join. The system makes
// it with NewJoin4, the host with HostJoin4.
type Join4[A, B, C, D any] struct {
	Join
	q ephemeral.Join4[A, B, C, D]
}

// HostJoin4 returns the join of columns a, b, c, d and filters, for the host:
// set-up and between frames. It returns the errors of HostJoin, and
// ErrNilColumn for a nil column.
func HostJoin4[A, B, C, D any](a *Column[A], b *Column[B], c *Column[C], d *Column[D], filters ...Filter) (Join4[A, B, C, D], error) {
	q, err := ephemeral.NewJoin4(a.e(), b.e(), c.e(), d.e(), engineFilters(filters)...)
	return Join4[A, B, C, D]{Join{q.Join}, q}, err
}

// NewJoin4 declares the join of the columns of a, b, c, d (accessors from Read
// or Write of one declaration, which declare the access) and filters in
// a system; its With and Without tables are presence reads, as NewJoin's.
func NewJoin4[A, B, C, D any](a Access[A], b Access[B], c Access[C], d Access[D], filters ...Filter) Join4[A, B, C, D] {
	q := systems.NewJoin4(a.access(), b.access(), c.access(), d.access(), engineFilters(filters)...)
	return Join4[A, B, C, D]{Join{q.Join}, q}
}

// All yields every entity the join matches with its row, in ascending row
// order. The loop body may write through the row's pointers; it must not
// change the structure of the domain's tables. Allocates nothing.
func (q Join4[A, B, C, D]) All() iter.Seq2[Row4[A, B, C, D], Handle] {
	return func(yield func(Row4[A, B, C, D], Handle) bool) {
		for r, h := range q.q.All() {
			if !yield(Row4[A, B, C, D]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Chunk yields the matching entities of chunk c with their rows: the row
// form for a kernel at chunk c. It panics when c is outside
// 0..Chunks()-1. Allocates nothing.
func (q Join4[A, B, C, D]) Chunk(c int) iter.Seq2[Row4[A, B, C, D], Handle] {
	return func(yield func(Row4[A, B, C, D], Handle) bool) {
		for r, h := range q.q.Chunk(c) {
			if !yield(Row4[A, B, C, D]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Get returns h's row and true when the join matches h, else false: the
// probe by handle.
func (q Join4[A, B, C, D]) Get(h Handle) (Row4[A, B, C, D], bool) {
	r, ok := q.q.Get(ephemeral.Handle(h))
	return Row4[A, B, C, D]{r}, ok
}

// Spans returns chunk c's slice of each column, ChunkRows elements each,
// for the runs of NextRun or Runs; rows the join does not match hold
// don't-care values. It panics when c is outside 0..Chunks()-1.
func (q Join4[A, B, C, D]) Spans(c int) ([]A, []B, []C, []D) { return q.q.Spans(c) }
