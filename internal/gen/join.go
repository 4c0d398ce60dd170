package main

// The typed joins, Join1 .. JoinN of MaxColumns columns, in the three
// packages: their rows are the queries' (RowN, the wide form past
// RegisterColumns included). The arity-free core (Join, Filter, the
// definition and its masks) is hand-written in each package's join.go.

const ephemeralJoins = `package ephemeral

import (
	"iter"
	"math/bits"
)
{{range .}}
// Join{{.N}} is an entity query over the tables of one domain with {{.N}} column{{if gt .N 1}}s{{end}},
// each of any of its tables: it yields the entities with a row in every
// required table (the {{if gt .N 1}}columns' tables{{else}}column's table{{end}} and With) and none in an excluded one
// (Without), each with its Row{{.N}}{{if .Wide}} (the wide form: the row index and the
// join's columns){{else}}, a pointer into each column{{end}} (see Joins in the package doc). The methods of Join (Has, Count, NextRun, Runs, Mask, UsedChunks)
// are promoted. A small value: copy it into kernel state freely. Make it
// with NewJoin{{.N}} (or, in a system, systems.NewJoin{{.N}}).
type Join{{.N}}[{{.Any}}] struct {
	Join
{{- if .Wide}}
	c *cols{{.N}}[{{.Types}}]
{{- else}}
{{- range .Cols}}
	{{.F}} []{{.T}}
{{- end}}
{{- end}}
}

// NewJoin{{.N}} returns the join of {{if eq .N 1}}column a{{else}}columns {{join .Cols "$F" ", "}}, which may belong to
// different tables of one domain{{end}}, and filters (With, Without). It returns
// a *DefinitionError (errors.Is ErrDefinition) with ErrNilColumn for a nil
// column and the errors of NewJoin (a nil table, ErrJoinDomains,
// ErrJoinExcluded). It allocates the definition{{if .Wide}} and the block of the
// join's column slices (24 bytes a column), which copies and rows share{{end}}: call
// it at set-up.
func NewJoin{{.N}}[{{.Any}}]({{join .Cols "$F *Column[$T]" ", "}}, filters ...Filter) (Join{{.N}}[{{.Types}}], error) {
	var qq Join{{.N}}[{{.Types}}]
	if {{join .Cols "$F == nil" " || "}} {
		return qq, &DefinitionError{Err: ErrNilColumn}
	}
	jn, err := newJoin([]*Table{ {{- join .Cols "$F.table" ", " -}} }, filters)
	if err != nil {
		return qq, err
	}
{{- if .Wide}}
	return Join{{.N}}[{{.Types}}]{jn, &cols{{.N}}[{{.Types}}]{ {{- join .Cols "$F: $F.data" ", " -}} }}, nil
{{- else}}
	return Join{{.N}}[{{.Types}}]{jn, {{join .Cols "$F.data" ", "}}}, nil
{{- end}}
}

// All yields every entity the join matches with its row, in ascending row
// order. The loop body may write through the row's pointers; it must not
// change the structure of the domain's tables (see Queries in the
// package doc). Allocates nothing.
func (q Join{{.N}}[{{.Types}}]) All() iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	return func(yield func(Row{{.N}}[{{.Types}}], Handle) bool) {
		jd := q.j
		gens := jd.with[0].gens
		for chunk := jd.liveChunk(0); chunk >= 0; chunk = jd.liveChunk(chunk + 1) {
			base := chunk << jd.shift
			for word, mask := jd.nextWord(chunk, 0); mask != 0; word, mask = jd.nextWord(chunk, word+1) {
				at := base + word<<6
				gs := (*[64]uint32)(gens[at:])
{{- if not .Wide}}
{{- range .Cols}}
				{{.F}}w := (*[64]{{.T}})(q.{{.F}}[at:])
{{- end}}
{{- end}}
				for ; mask != 0; mask &= mask - 1 {
					bit := bits.TrailingZeros64(mask) & 63
					if !yield(Row{{.N}}[{{.Types}}]{ {{- if .Wide}}q.c, at + bit{{else}}{{join .Cols "&$Fw[bit]" ", "}}{{end -}} }, handleOf(uint32(at+bit), gs[bit])) {
						return
					}
				}
			}
		}
	}
}

// Chunk yields the matching entities of chunk chunk with their rows, as
// All does for every chunk: the row form for a kernel at that chunk. It
// panics when chunk is outside 0..Chunks()-1. Allocates nothing.
func (q Join{{.N}}[{{.Types}}]) Chunk(chunk int) iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	return func(yield func(Row{{.N}}[{{.Types}}], Handle) bool) {
		jd := q.j.chunk(chunk, "Chunk")
		gens := jd.with[0].gens
		base := chunk << jd.shift
		for word, mask := jd.nextWord(chunk, 0); mask != 0; word, mask = jd.nextWord(chunk, word+1) {
			at := base + word<<6
			gs := (*[64]uint32)(gens[at:])
{{- if not .Wide}}
{{- range .Cols}}
			{{.F}}w := (*[64]{{.T}})(q.{{.F}}[at:])
{{- end}}
{{- end}}
			for ; mask != 0; mask &= mask - 1 {
				bit := bits.TrailingZeros64(mask) & 63
				if !yield(Row{{.N}}[{{.Types}}]{ {{- if .Wide}}q.c, at + bit{{else}}{{join .Cols "&$Fw[bit]" ", "}}{{end -}} }, handleOf(uint32(at+bit), gs[bit])) {
					return
				}
			}
		}
	}
}

// Get returns entity's row and true when the join matches entity
// (Join.Has), else the zero row and false: the probe by handle. Allocates
// nothing.
func (q Join{{.N}}[{{.Types}}]) Get(entity Handle) (Row{{.N}}[{{.Types}}], bool) {
	if !q.Has(entity) {
		return Row{{.N}}[{{.Types}}]{}, false
	}
	ix := entity.Index()
{{- if .Wide}}
	return Row{{.N}}[{{.Types}}]{q.c, int(ix)}, true
{{- else}}
	return Row{{.N}}[{{.Types}}]{ {{- join .Cols "&q.$F[ix]" ", " -}} }, true
{{- end}}
}

// Spans returns chunk chunk's slice of each column, ChunkRows elements
// each, element r being row chunk*ChunkRows+r: the span form for a
// kernel, with the runs of NextRun or Runs. Rows the join does not match
// hold don't-care values. It panics when chunk is outside 0..Chunks()-1.
func (q Join{{.N}}[{{.Types}}]) Spans(chunk int) ({{join .Cols "[]$T" ", "}}) {
	jd := q.j.chunk(chunk, "Spans")
	lo, hi := chunk<<jd.shift, (chunk+1)<<jd.shift
	return {{join .Cols "q.$P$F[lo:hi:hi]" ", "}}
}
{{end}}`

const systemsJoins = `package systems

import "github.com/tickwork/tickwork/ephemeral"
{{range .}}
// NewJoin{{.N}} declares the join of the column{{if gt .N 1}}s{{end}} of {{join .Cols "$F" ", "}} (accessors from Read or
// Write of this declaration{{if gt .N 1}}, of any tables of one domain{{end}}) and filters: the
// system's ephemeral.Join{{.N}} (the rule: package ephemeral, Joins). The
// accessors declare the columns; the With and Without tables are presence
// reads (see NewJoin). A join whose definition fails fails the declaration.
func NewJoin{{.N}}[{{.Any}}]({{join .Cols "$F Access[$T]" ", "}}, filters ...ephemeral.Filter) ephemeral.Join{{.N}}[{{.Types}}] {
	decl, ca := a.access()
	decl = decl.use("NewJoin{{.N}}")
{{- $n := .N}}
{{- range rest .Cols}}
	decl{{.T}}, c{{.F}} := {{.F}}.access()
	decl.same("NewJoin{{$n}}", decl{{.T}})
{{- end}}
	qq, err := ephemeral.NewJoin{{.N}}({{join .Cols "c$F" ", "}}, filters...)
	qq.Join = decl.join("NewJoin{{.N}}", qq.Join, err, {{join .Cols "tableOf(c$F)" ", "}})
	return qq
}
{{end}}`

const faceJoins = `package tickwork

import (
	"iter"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/systems"
)
{{range .}}
// Join{{.N}} is an entity query over the tables of one domain with {{.N}} column{{if gt .N 1}}s{{end}},
// each of any of its tables: the entities with a row in every required
// table (the {{if gt .N 1}}columns' tables{{else}}column's table{{end}} and With) and none in a Without table, each
// with its Row{{.N}}{{if .Wide}} (the wide form: the row index and the join's columns){{else}}, a pointer into each column{{end}}; it has
// the methods of Join. The system makes it with NewJoin{{.N}}, the host with
// HostJoin{{.N}}.
type Join{{.N}}[{{.Any}}] struct {
	Join
	q ephemeral.Join{{.N}}[{{.Types}}]
{{- if .Wide}}
	c *cols{{.N}}[{{.Types}}]
{{- end}}
	par func(*joinKernel{{.N}}[{{.Types}}], int, int) // Parallel's chunk function, made once by NewJoin{{.N}}: a generic method value allocates
}

// HostJoin{{.N}} returns the join of column{{if gt .N 1}}s{{end}} {{join .Cols "$F" ", "}} and filters, for the host:
// set-up and between frames. A bad join keeps the errors of HostJoin, and
// ErrNilColumn for a nil column (Join.Err).{{if .Wide}} It allocates the join's column blocks
// (48 bytes a column), once; copies and rows share them.{{end}}
func HostJoin{{.N}}[{{.Any}}]({{join .Cols "$F *Column[$T]" ", "}}, filters ...Filter) Join{{.N}}[{{.Types}}] {
	qq, err := ephemeral.NewJoin{{.N}}({{join .Cols "$F.e()" ", "}}, engineFilters(filters)...)
{{- if .Wide}}
	if err != nil {
		return Join{{.N}}[{{.Types}}]{Join: Join{qq.Join, err}, q: qq}
	}
	return Join{{.N}}[{{.Types}}]{Join: Join{qq.Join, nil}, q: qq, c: &cols{{.N}}[{{.Types}}]{ {{- join .Cols "$F.All()" ", " -}} }}
{{- else}}
	return Join{{.N}}[{{.Types}}]{Join: Join{qq.Join, err}, q: qq}
{{- end}}
}

// NewJoin{{.N}} declares the join of the column{{if gt .N 1}}s{{end}} of {{join .Cols "$F" ", "}} (accessors from Read
// or Write of one declaration, which declare the access) and filters in
// a system; its With and Without tables are presence reads, as NewJoin's.{{if .Wide}}
// It allocates the join's column blocks (48 bytes a column), once: call
// it in the DeclareFunc, as every accessor.{{end}}
func NewJoin{{.N}}[{{.Any}}]({{join .Cols "$F Access[$T]" ", "}}, filters ...Filter) Join{{.N}}[{{.Types}}] {
	qq := systems.NewJoin{{.N}}({{join .Cols "$F.access()" ", "}}, engineFilters(filters)...)
{{- if .Wide}}
	return Join{{.N}}[{{.Types}}]{Join: Join{qq.Join, nil}, q: qq, c: &cols{{.N}}[{{.Types}}]{ {{- join .Cols "columnData($F)" ", " -}} }, par: (*joinKernel{{.N}}[{{.Types}}]).chunk}
{{- else}}
	return Join{{.N}}[{{.Types}}]{Join: Join{qq.Join, nil}, q: qq, par: (*joinKernel{{.N}}[{{.Types}}]).chunk}
{{- end}}
}

// All yields every entity the join matches with its row, in ascending row
// order. The loop body may write through the row's pointers; it must not
// change the structure of the domain's tables. Allocates nothing. It
// panics on a broken host join (Err).
func (q Join{{.N}}[{{.Types}}]) All() iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	{{template "faceYield" (yieldOf . "q.q.All()")}}
}

// Chunk yields the matching entities of chunk chunk with their rows: the
// row form for a kernel at that chunk. It panics when chunk is outside
// 0..Chunks()-1. Allocates nothing.
func (q Join{{.N}}[{{.Types}}]) Chunk(chunk int) iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	{{template "faceYield" (yieldOf . "q.q.Chunk(chunk)")}}
}

// Get returns entity's row and true when the join matches entity, else
// the zero row and false: the probe by handle. Allocates nothing.
func (q Join{{.N}}[{{.Types}}]) Get(entity Handle) (Row{{.N}}[{{.Types}}], bool) {
{{- if .Wide}}
	if _, ok := q.q.Get(ephemeral.Handle(entity)); !ok {
		return Row{{.N}}[{{.Types}}]{}, false
	}
	return Row{{.N}}[{{.Types}}]{q.c, int(ephemeral.Handle(entity).Index())}, true
{{- else}}
	row, ok := q.q.Get(ephemeral.Handle(entity))
	return Row{{.N}}[{{.Types}}]{row}, ok
{{- end}}
}

// Spans returns chunk chunk's slice of each column, ChunkRows elements
// each, for the runs of NextRun or Runs; rows the join does not match
// hold don't-care values. It panics when chunk is outside 0..Chunks()-1.
func (q Join{{.N}}[{{.Types}}]) Spans(chunk int) ({{join .Cols "[]$T" ", "}}) { return q.q.Spans(chunk) }
{{template "faceEach" (eachOf . "Join")}}
{{end}}`
