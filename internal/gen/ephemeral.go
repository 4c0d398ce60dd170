package main

var templates = map[string]string{
	"ephemeral/query_gen.go": ephemeralQueries,
	"systems/query_gen.go":   systemsQueries,
	"query_gen.go":           faceQueries,
}

const ephemeralQueries = `package ephemeral

import "iter"
{{range .}}
// Query{{.N}} is a typed view of {{.N}} column{{if gt .N 1}}s{{end}} of one table, for walking its live rows
// (see Queries in the package doc). It is a small value holding the table
// and the pin-stable column slices: copy it into kernel state freely. Make
// it with NewQuery{{.N}} (or, in a system, systems.Query{{.N}}).
type Query{{.N}}[{{.Any}}] struct {
	t *Table
{{- range .Cols}}
	{{.F}} []{{.T}}
{{- end}}
}

// Row{{.N}} is one live row of a Query{{.N}}: {{if eq .N 1}}a pointer into its column{{else}}pointers into its columns{{end}}, valid
// until the next structural change of the table.
type Row{{.N}}[{{.Any}}] struct {
{{- range .Cols}}
	{{.F}} *{{.T}}
{{- end}}
}

// Get returns the row's value{{if gt .N 1}}s, one pointer per column in query order{{else}} pointer{{end}}.
func (r Row{{.N}}[{{.Types}}]) Get() ({{join .Cols "*$T" ", "}}) { return {{join .Cols "r.$F" ", "}} }

// NewQuery{{.N}} returns the query of {{if eq .N 1}}column a{{else}}columns {{join .Cols "$F" ", "}}, which must belong to one table{{end}}.
// It returns a *DefinitionError (errors.Is ErrDefinition) with
// ErrNilColumn for a nil column{{if gt .N 1}}, ErrQueryTables for columns of different
// tables{{end}}. Allocates nothing.
func NewQuery{{.N}}[{{.Any}}]({{join .Cols "$F *Column[$T]" ", "}}) (Query{{.N}}[{{.Types}}], error) {
	var q Query{{.N}}[{{.Types}}]
	if {{join .Cols "$F == nil" " || "}} {
		return q, &DefinitionError{Err: ErrNilColumn}
	}
{{- $first := index .Cols 0}}
{{- range rest .Cols}}
	if err := sameTable(a.table, {{.F}}.table, {{.F}}.label); err != nil {
		return q, err
	}
{{- end}}
	return Query{{.N}}[{{.Types}}]{t: a.table, {{join .Cols "$F: $F.data" ", "}}}, nil
}

// Table is the query's table; nil for the zero Query{{.N}}.
func (q Query{{.N}}[{{.Types}}]) Table() *Table { return q.t }

// All yields every live row of the table with its handle, in ascending row
// order (chunk by chunk, the enabled bitmaps applied). The loop body may
// write through the row's pointers; it must not change the table's
// structure (see Queries in the package doc). Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) All() iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	return func(yield func(Row{{.N}}[{{.Types}}], Handle) bool) {
		for c := q.t.liveChunk(0); c >= 0; c = q.t.liveChunk(c + 1) {
			mask, base := q.t.enabled[c], c<<q.t.dom.shift
			for lo, hi := nextRun(mask, 0); lo < hi; lo, hi = nextRun(mask, hi) {
				g := q.t.gens[base+lo : base+hi]
{{- range .Cols}}
				{{.F}} := q.{{.F}}[base+lo : base+hi][:len(g)]
{{- end}}
				for i := range g {
					if !yield(Row{{.N}}[{{.Types}}]{ {{- join .Cols "&$F[i]" ", " -}} }, handleOf(uint32(base+lo+i), g[i])) {
						return
					}
				}
			}
		}
	}
}

// Chunk yields the live rows of chunk c with their handles, as All does for
// the whole table: the row form for a kernel at chunk c. It panics when c
// is outside 0..Table().Chunks()-1. Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Chunk(c int) iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	return func(yield func(Row{{.N}}[{{.Types}}], Handle) bool) {
		mask := q.t.Enabled(c)
		base := c << q.t.dom.shift
		for lo, hi := nextRun(mask, 0); lo < hi; lo, hi = nextRun(mask, hi) {
			g := q.t.gens[base+lo : base+hi]
{{- range .Cols}}
			{{.F}} := q.{{.F}}[base+lo : base+hi][:len(g)]
{{- end}}
			for i := range g {
				if !yield(Row{{.N}}[{{.Types}}]{ {{- join .Cols "&$F[i]" ", " -}} }, handleOf(uint32(base+lo+i), g[i])) {
					return
				}
			}
		}
	}
}

// Runs yields the live runs [lo, hi) of chunk c, chunk-relative row
// indexes into the slices of Spans(c): the span form for a kernel (see
// Table.Runs). Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Runs(c int) iter.Seq2[int, int] {
	return func(yield func(lo, hi int) bool) {
		mask := q.t.Enabled(c)
		for lo, hi := nextRun(mask, 0); lo < hi; lo, hi = nextRun(mask, hi) {
			if !yield(lo, hi) {
				return
			}
		}
	}
}

// Spans returns chunk c's slice of each column, ChunkRows elements each,
// element r being row c*ChunkRows+r; rows that are not live hold
// don't-care values. It panics when c is outside 0..Table().Chunks()-1.
func (q Query{{.N}}[{{.Types}}]) Spans(c int) ({{join .Cols "[]$T" ", "}}) {
	if uint(c) >= uint(q.t.chunks()) {
		chunkPanic("Spans", c, q.t, "")
	}
	lo, hi := c<<q.t.dom.shift, (c+1)<<q.t.dom.shift
	return {{join .Cols "q.$F[lo:hi:hi]" ", "}}
}

// InsertN inserts n new entities with a row in the table, the lowest free
// slots first (as Table.InsertN), and calls fill with each one's handle
// and {{if eq .N 1}}a pointer to its value{{else}}pointers to its values{{end}} (zero until fill sets them), in slot order.
// When the n rows do not fit it inserts none and returns the
// *CapacityError of Table.InsertN. A structural change: for set-up and
// between frames, never from a system (see Queries in the package doc).
// It allocates nothing.
func (q Query{{.N}}[{{.Types}}]) InsertN(n int, fill func(h Handle, {{join .Cols "$F *$T" ", "}})) error {
	return q.t.insertEach(n, func(h Handle) {
		i := h.Index()
		fill(h, {{join .Cols "&q.$F[i]" ", "}})
	})
}
{{end}}`

const systemsQueries = `package systems

import "github.com/tickwork/tickwork/ephemeral"
{{range .}}
// NewQuery{{.N}} returns the query of the column{{if gt .N 1}}s{{end}} of {{join .Cols "$F" ", "}}, accessors from Read or
// Write of one declaration{{if gt .N 1}}, over one table{{end}}: the system's typed iteration
// (ephemeral.Query{{.N}}: All and Chunk, Spans and Runs). The accessors declare the
// access; a query over columns of different tables fails the declaration.
func NewQuery{{.N}}[{{.Any}}]({{join .Cols "$F Access[$T]" ", "}}) ephemeral.Query{{.N}}[{{.Types}}] {
	decl, ca := a.access()
	decl = decl.use("NewQuery{{.N}}")
{{- $n := .N}}
{{- range rest .Cols}}
	decl{{.T}}, c{{.F}} := {{.F}}.access()
	decl.same("NewQuery{{$n}}", decl{{.T}})
{{- end}}
	q, err := ephemeral.NewQuery{{.N}}({{join .Cols "c$F" ", "}})
	if err != nil {
		decl.failErr("NewQuery{{.N}}", err)
	}
	return q
}

// Spawner{{.N}} creates entities with their value{{if gt .N 1}}s{{end}} in {{.N}} column{{if gt .N 1}}s{{end}} of one table, through
// the recorder of its declaration (NewSpawner{{.N}}). A small value.
type Spawner{{.N}}[{{.Any}}] struct {
	r *Recorder
{{- range .Cols}}
	{{.F}} *ephemeral.Column[{{.T}}]
{{- end}}
}

// NewSpawner{{.N}} declares that the system records creates in the table of
// column{{if gt .N 1}}s{{end}} {{join .Cols "$F" ", "}} (as Record{{if gt .N 1}}; they must belong to one table{{end}}) and returns a
// spawner of rows with their value{{if gt .N 1}}s{{end}}. A nil column{{if gt .N 1}}, or columns of different
// tables,{{end}} fail{{if eq .N 1}}s{{end}} the declaration.
func NewSpawner{{.N}}[{{.Any}}](s *Decl, {{join .Cols "$F *ephemeral.Column[$T]" ", "}}) Spawner{{.N}}[{{.Types}}] {
	decl := s.use("NewSpawner{{.N}}")
	if _, err := ephemeral.NewQuery{{.N}}({{join .Cols "$F" ", "}}); err != nil {
		decl.failErr("NewSpawner{{.N}}", err)
		return Spawner{{.N}}[{{.Types}}]{r: &Recorder{}}
	}
	return Spawner{{.N}}[{{.Types}}]{Record(s, a.Table()), {{join .Cols "$F" ", "}}}
}

// Spawn records the creation of an entity with a row in the table holding
// {{join .Cols "$F" ", "}} (a create and {{.N}} deferred write{{if gt .N 1}}s{{end}}, played back as one bulk insert
// with the creates around it) and returns its provisional handle.
func (sp Spawner{{.N}}[{{.Types}}]) Spawn({{join .Cols "$F $T" ", "}}) ephemeral.Handle {
	h := sp.r.Create()
{{- range .Cols}}
	Set(sp.r, sp.{{.F}}, h, {{.F}})
{{- end}}
	return h
}

// Worker returns the spawner of worker w for chunk chunk, from inside a
// Parallel kernel (see Recorder.Worker).
func (sp Spawner{{.N}}[{{.Types}}]) Worker(w, chunk int) Spawner{{.N}}[{{.Types}}] {
	sp.r = sp.r.Worker(w, chunk)
	return sp
}
{{end}}`

const faceQueries = `package tickwork

import (
	"iter"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/systems"
)
{{range .}}
// Query{{.N}} is a typed view of {{.N}} column{{if gt .N 1}}s{{end}} of one table, for walking its live rows:
// a small value holding the table and the pin-stable column slices; copy
// it into kernel state freely. A system makes it with NewQuery{{.N}}, the host
// with HostQuery{{.N}}. The loop body may write through a row's pointers; it
// must not change the table's structure (docs/architecture.md, Storage).
type Query{{.N}}[{{.Any}}] struct{ q ephemeral.Query{{.N}}[{{.Types}}] }

// Row{{.N}} is one live row of a Query{{.N}}: {{if eq .N 1}}a pointer into its column{{else}}pointers into its columns{{end}}, valid until the
// next structural change of the table.
type Row{{.N}}[{{.Any}}] struct{ r ephemeral.Row{{.N}}[{{.Types}}] }

// Get returns the row's value{{if gt .N 1}}s, one pointer per column in query order{{else}} pointer{{end}}.
func (r Row{{.N}}[{{.Types}}]) Get() ({{join .Cols "*$T" ", "}}) { return r.r.Get() }

// HostQuery{{.N}} returns the query of {{if eq .N 1}}column a{{else}}columns {{join .Cols "$F" ", "}}, which must belong to one table{{end}}, for
// the host: set-up and between frames. It returns a *DefinitionError
// (ErrStorageDefinition) with ErrNilColumn for a nil column{{if gt .N 1}}, ErrQueryTables
// for columns of different tables{{end}}. Allocates nothing.
func HostQuery{{.N}}[{{.Any}}]({{join .Cols "$F *Column[$T]" ", "}}) (Query{{.N}}[{{.Types}}], error) {
	q, err := ephemeral.NewQuery{{.N}}({{join .Cols "$F.e()" ", "}})
	return Query{{.N}}[{{.Types}}]{q}, err
}

// NewQuery{{.N}} returns the query of the column{{if gt .N 1}}s{{end}} of {{join .Cols "$F" ", "}}, accessors from Read or
// Write of one declaration{{if gt .N 1}}, over one table{{end}}: the system's typed iteration. The
// accessors declare the access{{if gt .N 1}}; columns of different tables fail the
// declaration{{end}}.
func NewQuery{{.N}}[{{.Any}}]({{join .Cols "$F Access[$T]" ", "}}) Query{{.N}}[{{.Types}}] {
	return Query{{.N}}[{{.Types}}]{systems.NewQuery{{.N}}({{join .Cols "$F.access()" ", "}})}
}

// Table is the query's table; nil for the zero Query{{.N}}.
func (q Query{{.N}}[{{.Types}}]) Table() *Table { return (*Table)(q.q.Table()) }

// All yields every live row of the table with its handle, in ascending row
// order. Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) All() iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	return func(yield func(Row{{.N}}[{{.Types}}], Handle) bool) {
		for r, h := range q.q.All() {
			if !yield(Row{{.N}}[{{.Types}}]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Chunk yields the live rows of chunk c with their handles, as All does for
// the whole table: the row form for a kernel at chunk c. It panics when c
// is outside 0..Table().Chunks()-1. Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Chunk(c int) iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	return func(yield func(Row{{.N}}[{{.Types}}], Handle) bool) {
		for r, h := range q.q.Chunk(c) {
			if !yield(Row{{.N}}[{{.Types}}]{r}, Handle(h)) {
				return
			}
		}
	}
}

// Spans returns chunk c's slice of each column, ChunkRows elements each,
// element r being row c*ChunkRows+r; rows that are not live hold
// don't-care values. It panics when c is outside 0..Table().Chunks()-1.
func (q Query{{.N}}[{{.Types}}]) Spans(c int) ({{join .Cols "[]$T" ", "}}) { return q.q.Spans(c) }

// Runs yields the live runs [lo, hi) of chunk c, chunk-relative row
// indexes into the slices of Spans(c): the span form for a kernel.
// Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Runs(c int) iter.Seq2[int, int] { return q.q.Runs(c) }

// InsertN inserts n new entities with a row in the table, the lowest free
// slots first, and calls fill with each one's handle and {{if eq .N 1}}a pointer to its
// value{{else}}pointers to its values{{end}} (zero until fill sets them), in slot order. When the n
// rows do not fit it inserts none and returns a *CapacityError. A
// structural change: for set-up and between frames, never from a system.
// Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) InsertN(n int, fill func(h Handle, {{join .Cols "$F *$T" ", "}})) error {
	return q.q.InsertN(n, func(h ephemeral.Handle, {{join .Cols "$F *$T" ", "}}) { fill(Handle(h), {{join .Cols "$F" ", "}}) })
}

// Spawner{{.N}} creates entities with their value{{if gt .N 1}}s{{end}} in {{.N}} column{{if gt .N 1}}s{{end}} of one table, through
// the recorder of its declaration (NewSpawner{{.N}}). A small value.
type Spawner{{.N}}[{{.Any}}] struct{ s systems.Spawner{{.N}}[{{.Types}}] }

// NewSpawner{{.N}} declares that the system records creates in the table of
// column{{if gt .N 1}}s{{end}} {{join .Cols "$F" ", "}} (as Record{{if gt .N 1}}; they must belong to one table{{end}}) and returns a
// spawner of rows with their value{{if gt .N 1}}s{{end}}. A nil column{{if gt .N 1}}, or columns of different
// tables,{{end}} fail{{if eq .N 1}}s{{end}} the declaration.
func NewSpawner{{.N}}[{{.Any}}](s *Decl, {{join .Cols "$F *Column[$T]" ", "}}) Spawner{{.N}}[{{.Types}}] {
	return Spawner{{.N}}[{{.Types}}]{systems.NewSpawner{{.N}}(s.e(), {{join .Cols "$F.e()" ", "}})}
}

// Spawn records the creation of an entity with a row holding {{join .Cols "$F" ", "}} (a
// create and {{.N}} deferred write{{if gt .N 1}}s{{end}}) and returns its provisional handle.
func (sp Spawner{{.N}}[{{.Types}}]) Spawn({{join .Cols "$F $T" ", "}}) Handle { return Handle(sp.s.Spawn({{join .Cols "$F" ", "}})) }

// Worker returns the spawner of worker w for chunk chunk, from inside a
// Parallel kernel (see Recorder.Worker).
func (sp Spawner{{.N}}[{{.Types}}]) Worker(w, chunk int) Spawner{{.N}}[{{.Types}}] {
	return Spawner{{.N}}[{{.Types}}]{sp.s.Worker(w, chunk)}
}
{{end}}`
