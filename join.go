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
// .. Join15 (generated, join_gen.go) add columns and have its methods. A small value: copy it into
// kernel state freely; every method is safe from many goroutines while no
// structural change runs and allocates nothing. The system makes it with
// NewJoin, the host with HostJoin; the rule: package ephemeral, Joins.
type Join struct {
	j   ephemeral.Join
	err error // HostJoin's error (see Err)
}

// HostJoin returns the join of filters, for the host: set-up and between
// frames. A bad join keeps its error, a *DefinitionError
// (ErrStorageDefinition) with ErrJoinEmpty without a With table,
// ErrJoinDomains for tables of different domains, ErrJoinExcluded for a
// table both in With and Without; a nil table (a failed Table) gives
// ErrStorageDefinition alone: Err returns it, and All, Chunk, Each and
// Parallel panic with it (the rule: Query1.Err).
func HostJoin(filters ...Filter) Join {
	j, err := ephemeral.NewJoin(engineFilters(filters)...)
	return Join{j, err}
}

// Err is the error HostJoin or HostJoin1 .. HostJoin15 kept, nil for a
// good join or one a system made (the rule: Query1.Err).
func (q Join) Err() error { return q.err }

// NewJoin declares the join of filters in a system: its With and Without
// tables are presence reads of its manifest, which conflict with nothing
// (docs/architecture.md, Access rules). A bad join fails the declaration
// with the errors of HostJoin.
func NewJoin(s *Decl, filters ...Filter) Join {
	return Join{j: systems.NewJoin(s.e(), engineFilters(filters)...)}
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
		if q.err != nil {
			brokenQuery(q.err)
		}
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
		if q.err != nil {
			brokenQuery(q.err)
		}
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

// usedChunks is UsedChunks, 0 for the zero Join.
func (q Join) usedChunks() int {
	if q.j.Table() == nil {
		return 0
	}
	return q.j.UsedChunks()
}

// brokenQuery panics with err, the error a host query or join kept (the
// rule: Query1.Err); out of line, so that the iterators stay small.
//
//go:noinline
func brokenQuery(err error) { panic(err) }
