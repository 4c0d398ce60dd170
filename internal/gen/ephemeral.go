package main

var templates = map[string]string{
	"ephemeral/query_gen.go": ephemeralQueries,
	"systems/query_gen.go":   systemsQueries,
	"query_gen.go":           faceQueries,
	"ephemeral/join_gen.go":  ephemeralJoins,
	"systems/join_gen.go":    systemsJoins,
	"join_gen.go":            faceJoins,
}

// The templates' own locals and parameters (entity, row, chunk, gens, ix,
// decl, ...) have names of two letters or more: the single letters a, b,
// ... are the columns'.

const ephemeralQueries = `package ephemeral

import (
	"iter"
	"unsafe"
)
{{range .}}
// Query{{.N}} is a typed view of {{.N}} column{{if gt .N 1}}s{{end}} of one table, for walking its live rows
// (see Queries in the package doc). It is a small value holding the table
// and {{if .Wide}}a pointer to its block of pin-stable column slices{{else}}the pin-stable column slices{{end}}: copy it into kernel state freely. Make
// it with NewQuery{{.N}} (or, in a system, systems.NewQuery{{.N}}).
{{- if .Wide}}
type Query{{.N}}[{{.Any}}] struct {
	t *Table
	c *cols{{.N}}[{{.Types}}]
}

// cols{{.N}} are the column slices of a Query{{.N}}, in one block made by
// NewQuery{{.N}} and shared by its copies and rows: a Row{{.N}} points here, a
// heap address, so that passing rows to the loop body moves nothing to
// the heap (a row pointing to a query on the stack would).
type cols{{.N}}[{{.Any}}] struct {
{{- range .Cols}}
	{{.F}} []{{.T}}
{{- end}}
}
{{- else}}
type Query{{.N}}[{{.Any}}] struct {
	t *Table
{{- range .Cols}}
	{{.F}} []{{.T}}
{{- end}}
}
{{- end}}

{{- if .Wide}}
// Row{{.N}} is one live row of a Query{{.N}}: its row index and the query's
// columns, from which Get makes a pointer into each column, valid until
// the next structural change of the table. (A row of more than four
// columns holds two words, not a pointer per column: Go keeps a struct of
// at most 32 bytes in registers, a wider one in memory, and copying that
// every row made the loop 8 times slower; BenchmarkIterateWide.)
type Row{{.N}}[{{.Any}}] struct {
	c  *cols{{.N}}[{{.Types}}]
	ix int
}

// Get returns the row's values, one pointer per column in query order.
func (r Row{{.N}}[{{.Types}}]) Get() ({{join .Cols "*$T" ", "}}) {
	// &c.a[ix] without the bounds check, so that Get inlines up to 9
	// columns and the row form runs 0.8 times the instructions of the
	// checked one (BenchmarkIterateWide). Sound because only the
	// iterators of a query or a join (and Join{{.N}}.Get) make a Row{{.N}}, with
	// ix a slot of the domain, below every column's length, and columns
	// never move or shrink; a zero Row{{.N}} has a nil c and panics on its
	// first load.
	c, ix := r.c, uintptr(r.ix)
	return {{join .Cols "(*$T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(c.$F)), ix*unsafe.Sizeof(c.$F[0])))" ", "}}
}
{{- else}}
// Row{{.N}} is one live row of a Query{{.N}}: {{if eq .N 1}}a pointer into its column{{else}}pointers into its columns{{end}}, valid
// until the next structural change of the table.
type Row{{.N}}[{{.Any}}] struct {
{{- range .Cols}}
	{{.F}} *{{.T}}
{{- end}}
}

// Get returns the row's value{{if gt .N 1}}s, one pointer per column in query order{{else}} pointer{{end}}.
func (r Row{{.N}}[{{.Types}}]) Get() ({{join .Cols "*$T" ", "}}) { return {{join .Cols "r.$F" ", "}} }
{{- end}}

// NewQuery{{.N}} returns the query of {{if eq .N 1}}column a{{else}}columns {{join .Cols "$F" ", "}}, which must belong to one table{{end}}.
// It returns a *DefinitionError (errors.Is ErrDefinition) with
// ErrNilColumn for a nil column{{if gt .N 1}}, ErrQueryTables for columns of different
// tables{{end}}. {{if .Wide}}It allocates the block of the query's column
// slices (24 bytes a column), once: copies and rows share it{{else}}Allocates nothing{{end}}.
func NewQuery{{.N}}[{{.Any}}]({{join .Cols "$F *Column[$T]" ", "}}) (Query{{.N}}[{{.Types}}], error) {
	var qq Query{{.N}}[{{.Types}}]
	if {{join .Cols "$F == nil" " || "}} {
		return qq, &DefinitionError{Err: ErrNilColumn}
	}
{{- range rest .Cols}}
	if err := sameTable(a.table, {{.F}}.table, {{.F}}.label); err != nil {
		return qq, err
	}
{{- end}}
{{- if .Wide}}
	return Query{{.N}}[{{.Types}}]{t: a.table, c: &cols{{.N}}[{{.Types}}]{ {{- join .Cols "$F: $F.data" ", " -}} }}, nil
{{- else}}
	return Query{{.N}}[{{.Types}}]{t: a.table, {{join .Cols "$F: $F.data" ", "}}}, nil
{{- end}}
}

// Table is the query's table; nil for the zero Query{{.N}}.
func (q Query{{.N}}[{{.Types}}]) Table() *Table { return q.t }

// All yields every live row of the table with its handle, in ascending row
// order (chunk by chunk, the enabled bitmaps applied). The loop body may
// write through the row's pointers; it must not change the table's
// structure (see Queries in the package doc). Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) All() iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	return func(yield func(Row{{.N}}[{{.Types}}], Handle) bool) {
		for chunk := q.t.liveChunk(0); chunk >= 0; chunk = q.t.liveChunk(chunk + 1) {
			mask, base := q.t.enabled[chunk], chunk<<q.t.dom.shift
			for lo, hi := nextRun(mask, 0); lo < hi; lo, hi = nextRun(mask, hi) {
				gens := q.t.gens[base+lo : base+hi]
{{- if .Wide}}
				for ix := range gens {
					if !yield(Row{{.N}}[{{.Types}}]{q.c, base + lo + ix}, handleOf(uint32(base+lo+ix), gens[ix])) {
						return
					}
				}
{{- else}}
{{- range .Cols}}
				{{.F}} := q.{{.F}}[base+lo : base+hi][:len(gens)]
{{- end}}
				for ix := range gens {
					if !yield(Row{{.N}}[{{.Types}}]{ {{- join .Cols "&$F[ix]" ", " -}} }, handleOf(uint32(base+lo+ix), gens[ix])) {
						return
					}
				}
{{- end}}
			}
		}
	}
}

// Chunk yields the live rows of chunk chunk with their handles, as All
// does for the whole table: the row form for a kernel at that chunk. It
// panics when chunk is outside 0..Table().Chunks()-1. Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Chunk(chunk int) iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	return func(yield func(Row{{.N}}[{{.Types}}], Handle) bool) {
		mask := q.t.Enabled(chunk)
		base := chunk << q.t.dom.shift
		for lo, hi := nextRun(mask, 0); lo < hi; lo, hi = nextRun(mask, hi) {
			gens := q.t.gens[base+lo : base+hi]
{{- if .Wide}}
			for ix := range gens {
				if !yield(Row{{.N}}[{{.Types}}]{q.c, base + lo + ix}, handleOf(uint32(base+lo+ix), gens[ix])) {
					return
				}
			}
{{- else}}
{{- range .Cols}}
			{{.F}} := q.{{.F}}[base+lo : base+hi][:len(gens)]
{{- end}}
			for ix := range gens {
				if !yield(Row{{.N}}[{{.Types}}]{ {{- join .Cols "&$F[ix]" ", " -}} }, handleOf(uint32(base+lo+ix), gens[ix])) {
					return
				}
			}
{{- end}}
		}
	}
}

// Runs yields the live runs [lo, hi) of chunk chunk, chunk-relative row
// indexes into the slices of Spans(chunk): the span form for a kernel (see
// Table.Runs). Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Runs(chunk int) iter.Seq2[int, int] {
	return func(yield func(lo, hi int) bool) {
		mask := q.t.Enabled(chunk)
		for lo, hi := nextRun(mask, 0); lo < hi; lo, hi = nextRun(mask, hi) {
			if !yield(lo, hi) {
				return
			}
		}
	}
}

// Spans returns chunk chunk's slice of each column, ChunkRows elements
// each, element r being row chunk*ChunkRows+r; rows that are not live hold
// don't-care values. It panics when chunk is outside 0..Table().Chunks()-1.
func (q Query{{.N}}[{{.Types}}]) Spans(chunk int) ({{join .Cols "[]$T" ", "}}) {
	if uint(chunk) >= uint(q.t.chunks()) {
		chunkPanic("Spans", chunk, q.t, "")
	}
	lo, hi := chunk<<q.t.dom.shift, (chunk+1)<<q.t.dom.shift
	return {{join .Cols "q.$P$F[lo:hi:hi]" ", "}}
}

// Insert inserts one new entity with a row in the table, in the lowest
// free slot (as Table.Insert), holding {{join .Cols "$F" ", "}} in the query's column{{if gt .N 1}}s{{end}}
// (columns of the table outside the query are zero), and returns its
// handle. When the table is full it inserts nothing and returns the
// *CapacityError (errors.Is ErrCapacity) of Table.Insert; a zero query
// inserts nothing and returns ErrZeroQuery, as InsertN. A structural
// change: for set-up and between frames, never from a system (see Queries
// in the package doc). Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Insert({{join .Cols "$F $T" ", "}}) (Handle, error) {
	if q.t == nil {
		return 0, ErrZeroQuery
	}
	entity, err := q.t.Insert()
	if err != nil {
		return entity, err
	}
	row := entity.Index()
{{- range .Cols}}
	q.{{.P}}{{.F}}[row] = {{.F}}
{{- end}}
	return entity, nil
}

// InsertN inserts n new entities with a row in the table, the lowest free
// slots first (as Table.InsertN), and calls fill with each one's handle
// and {{if eq .N 1}}a pointer to its value{{else}}pointers to its values{{end}} (zero until fill sets them), in slot order:
// fill sets every column of the query, and columns of the table outside
// the query stay zero. A nil fill inserts n rows of zero values; n <= 0
// inserts nothing. When the n rows do not fit it inserts none and returns
// the *CapacityError of Table.InsertN. A structural change: for set-up and
// between frames, never from a system (see Queries in the package doc).
// It allocates nothing.
func (q Query{{.N}}[{{.Types}}]) InsertN(n int, fill func(entity Handle, {{join .Cols "$F *$T" ", "}})) error {
	if fill == nil {
		return q.t.insertEach(n, nil)
	}
	return q.t.insertEach(n, func(entity Handle) {
		row := entity.Index()
		fill(entity, {{join .Cols "&q.$P$F[row]" ", "}})
	})
}
{{end}}`

const systemsQueries = `package systems

import (
	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
)
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
	qq, err := ephemeral.NewQuery{{.N}}({{join .Cols "c$F" ", "}})
	if err != nil {
		decl.failErr("NewQuery{{.N}}", err)
	}
	return qq
}

// Spawner{{.N}} creates entities with their value{{if gt .N 1}}s{{end}} in {{.N}} column{{if gt .N 1}}s{{end}} of one table, through
// the recorder of its declaration (NewSpawner{{.N}}). A small value. Spawn from the
// system's body; a worker's spawner (Worker) from that kernel worker only.
type Spawner{{.N}}[{{.Any}}] struct {
	rec *Recorder
	cur *setters{{.N}}[{{.Types}}] // the setters of rec's buffer
	all *spawnSets{{.N}}[{{.Types}}]
}

// spawnSets{{.N}} are a Spawner{{.N}}'s columns and, bound at seal, the
// setters of its serial buffer and of each worker's, so that Spawn writes
// each column without looking its store up (a lookup per write grew with
// the column count).
type spawnSets{{.N}}[{{.Any}}] struct {
{{- range .Cols}}
	{{.F}} *ephemeral.Column[{{.T}}]
{{- end}}
	serial  setters{{.N}}[{{.Types}}]
	workers []setters{{.N}}[{{.Types}}]
}

// setters{{.N}} record the writes of one buffer, a column each.
type setters{{.N}}[{{.Any}}] struct {
{{- range .Cols}}
	{{.F}} commands.Setter[{{.T}}]
{{- end}}
}

// bind makes the setters of rec's buffers; at seal, after rec's own bind.
func (ss *spawnSets{{.N}}[{{.Types}}]) bind(rec *Recorder) {
	ss.serial = setters{{.N}}[{{.Types}}]{ {{- join .Cols "commands.NewSetter(rec.rec, ss.$F)" ", " -}} }
	ss.workers = make([]setters{{.N}}[{{.Types}}], len(rec.workers))
	for w := range rec.workers {
		wr := rec.workers[w].rec
		ss.workers[w] = setters{{.N}}[{{.Types}}]{ {{- join .Cols "commands.NewSetter(wr, ss.$F)" ", " -}} }
	}
}

// NewSpawner{{.N}} declares that the system records creates in the table of
// column{{if gt .N 1}}s{{end}} {{join .Cols "$F" ", "}} (as Record{{if gt .N 1}}; they must belong to one table{{end}}) and returns a
// spawner of rows with their value{{if gt .N 1}}s{{end}}. A nil column{{if gt .N 1}}, or columns of different
// tables,{{end}} fail{{if eq .N 1}}s{{end}} the declaration.
func NewSpawner{{.N}}[{{.Any}}](decl *Decl, {{join .Cols "$F *ephemeral.Column[$T]" ", "}}) Spawner{{.N}}[{{.Types}}] {
	use := decl.use("NewSpawner{{.N}}")
	if _, err := ephemeral.NewQuery{{.N}}({{join .Cols "$F" ", "}}); err != nil {
		use.failErr("NewSpawner{{.N}}", err)
		return Spawner{{.N}}[{{.Types}}]{rec: &Recorder{}}
	}
	rec := Record(decl, a.Table())
	all := &spawnSets{{.N}}[{{.Types}}]{ {{- join .Cols "$F: $F" ", " -}} }
	use.bind(func(*frame.Run) error { all.bind(rec); return nil })
	return Spawner{{.N}}[{{.Types}}]{rec, &all.serial, all}
}

// Spawn records the creation of an entity with a row in the table holding
// {{join .Cols "$F" ", "}} (a create and {{.N}} deferred write{{if gt .N 1}}s{{end}}, played back as one bulk insert
// with the creates around it) and returns its provisional handle. Columns
// of the table outside the spawner's are zero. Allocates nothing once the
// recorder's buffers have grown to the run's spawns (Reserve).
func (sp Spawner{{.N}}[{{.Types}}]) Spawn({{join .Cols "$F $T" ", "}}) ephemeral.Handle {
	entity := sp.rec.Create()
{{- range .Cols}}
	sp.cur.{{.F}}.Set(entity, {{.F}})
{{- end}}
	return entity
}

// Reserve makes room for n spawns per run in the spawner's recorder (a
// create and {{.N}} write{{if gt .N 1}}s{{end}} each: ReserveValues of every column and
// Recorder.Reserve of the records), so that up to n Spawn calls a run
// never allocate, not even at a frame that spawns more than any before.
// Call it in the declaration (it then waits for the buffers, made at
// seal) or in the body, not from a kernel. It allocates 16 bytes a record
// and the values; its errors are Recorder.Reserve's (a negative n: an
// *ephemeral.CountError; past the memory budget: the budget's error).
func (sp Spawner{{.N}}[{{.Types}}]) Reserve(n int) error {
	if sp.rec.t == nil {
		return nil // a failed declaration: Build reports it
	}
	if n < 0 {
		return sp.rec.negative("Spawner{{.N}}.Reserve", n)
	}
{{- range .Cols}}
	if err := ReserveValues(sp.rec, sp.all.{{.F}}, n); err != nil {
		return err
	}
{{- end}}
	return sp.rec.Reserve(n * {{add .N 1}})
}

// Worker returns the spawner of worker w for chunk chunk, from inside a
// Parallel kernel (see Recorder.Worker).
func (sp Spawner{{.N}}[{{.Types}}]) Worker(w, chunk int) Spawner{{.N}}[{{.Types}}] {
	sp.rec = sp.rec.Worker(w, chunk)
	sp.cur = &sp.all.workers[w]
	return sp
}
{{end}}`

const faceQueries = `package tickwork

import (
	"iter"
	"unsafe"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/systems"
)

// columnData is the whole column of accessor a (ReadColumn.All), for the
// rows of a query of more than four columns; nil for a failed accessor.
func columnData[T any](a Access[T]) []T {
	switch v := a.(type) {
	case ReadColumn[T]:
		return v.All()
	case WriteColumn[T]:
		return v.All()
	}
	return nil
}
{{range .}}
// Query{{.N}} is a typed view of {{.N}} column{{if gt .N 1}}s{{end}} of one table, for walking its live rows:
// a small value holding the table and {{if .Wide}}a pointer to its block of pin-stable column slices{{else}}the pin-stable column slices{{end}}; copy
// it into kernel state freely. A system makes it with NewQuery{{.N}}, the host
// with HostQuery{{.N}}. The loop body may write through a row's pointers; it
// must not change the table's structure (docs/architecture.md, Storage).
// The host's writes through a host query's pointers are raw: indexes and
// change readers do not see them (docs/architecture.md, Indexes (d)); a
// system's through its query's are its declared writes.
{{- if .Wide}}
type Query{{.N}}[{{.Any}}] struct {
	q   ephemeral.Query{{.N}}[{{.Types}}]
	c   *cols{{.N}}[{{.Types}}]
	err error                                   // HostQuery{{.N}}'s error (see Err)
	par func(*queryKernel{{.N}}[{{.Types}}], int, int) // Parallel's chunk function, made once by NewQuery{{.N}}: a generic method value allocates
}

// cols{{.N}} are the whole columns of a Query{{.N}}, in one block made with the
// query and shared by its copies and rows (see Row{{.N}}).
type cols{{.N}}[{{.Any}}] struct {
{{- range .Cols}}
	{{.F}} []{{.T}}
{{- end}}
}

// Row{{.N}} is one live row of a Query{{.N}}: its row index and the query's
// columns, from which Get makes a pointer into each column, valid until
// the next structural change of the table. (Two words, not a pointer per
// column: Go keeps a struct of at most 32 bytes in registers, a wider one
// in memory, and copying that every row made the loop 8 times slower;
// ephemeral's BenchmarkIterateWide.)
type Row{{.N}}[{{.Any}}] struct {
	c  *cols{{.N}}[{{.Types}}]
	ix int
}

// Get returns the row's values, one pointer per column in query order.
func (r Row{{.N}}[{{.Types}}]) Get() ({{join .Cols "*$T" ", "}}) {
	// &c.a[ix] without the bounds check, as ephemeral.Row{{.N}}.Get: only
	// the iterators of a query or a join (and Join{{.N}}.Get) make a Row{{.N}},
	// with ix a live slot of the domain, and columns never move or shrink;
	// a zero Row{{.N}} panics on its first load.
	c, ix := r.c, uintptr(r.ix)
	return {{join .Cols "(*$T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(c.$F)), ix*unsafe.Sizeof(c.$F[0])))" ", "}}
}
{{- else}}
type Query{{.N}}[{{.Any}}] struct {
	q   ephemeral.Query{{.N}}[{{.Types}}]
	err error                                   // HostQuery{{.N}}'s error (see Err)
	par func(*queryKernel{{.N}}[{{.Types}}], int, int) // Parallel's chunk function, made once by NewQuery{{.N}}: a generic method value allocates
}

// Row{{.N}} is one live row of a Query{{.N}}: {{if eq .N 1}}a pointer into its column{{else}}pointers into its columns{{end}}, valid until the
// next structural change of the table.
type Row{{.N}}[{{.Any}}] struct{ r ephemeral.Row{{.N}}[{{.Types}}] }

// Get returns the row's value{{if gt .N 1}}s, one pointer per column in query order{{else}} pointer{{end}}.
func (r Row{{.N}}[{{.Types}}]) Get() ({{join .Cols "*$T" ", "}}) { return r.r.Get() }
{{- end}}

// HostQuery{{.N}} returns the query of {{if eq .N 1}}column a{{else}}columns {{join .Cols "$F" ", "}}, which must belong to one table{{end}}, for
// the host: set-up and between frames. A bad query keeps its error, a
// *DefinitionError (ErrStorageDefinition) with ErrNilColumn for a nil
// column{{if gt .N 1}}, ErrQueryTables for columns of different tables{{end}} (the rule of host
// queries' errors: HostQuery1): Err returns it. {{if .Wide}}It allocates the query's column blocks
// (48 bytes a column), once; copies and rows share them{{else}}Allocates nothing{{end}}.
func HostQuery{{.N}}[{{.Any}}]({{join .Cols "$F *Column[$T]" ", "}}) Query{{.N}}[{{.Types}}] {
	qq, err := ephemeral.NewQuery{{.N}}({{join .Cols "$F.e()" ", "}})
	if err != nil {
		return Query{{.N}}[{{.Types}}]{q: qq, err: err}
	}
{{- if .Wide}}
	return Query{{.N}}[{{.Types}}]{q: qq, c: &cols{{.N}}[{{.Types}}]{ {{- join .Cols "$F.All()" ", " -}} }}
{{- else}}
	return Query{{.N}}[{{.Types}}]{q: qq}
{{- end}}
}

{{if eq .N 1 -}}
// Err is the error HostQuery1 kept, nil for a good query or one a system
// made. Host queries have no second result: a bad one (a nil column, from
// a failed AddColumn, or columns of different tables) keeps its error;
// its first Insert or InsertN returns it and inserts nothing, and All,
// Chunk, Each and Parallel panic with it (the message is the error's), so
// a set-up that inserts through its queries checks their errors where it
// checks Insert's.
{{- else -}}
// Err is the error HostQuery{{.N}} kept, nil for a good query or one a
// system made (the rule: Query1.Err).
{{- end}}
func (q Query{{.N}}[{{.Types}}]) Err() error { return q.err }

// NewQuery{{.N}} returns the query of the column{{if gt .N 1}}s{{end}} of {{join .Cols "$F" ", "}}, accessors from Read or
// Write of one declaration{{if gt .N 1}}, over one table{{end}}: the system's typed iteration. The
// accessors declare the access{{if gt .N 1}}; columns of different tables fail the
// declaration{{end}}.{{if .Wide}} It allocates the query's column blocks (48 bytes a column),
// once: call it in the DeclareFunc, as every accessor.{{end}}
func NewQuery{{.N}}[{{.Any}}]({{join .Cols "$F Access[$T]" ", "}}) Query{{.N}}[{{.Types}}] {
{{- if .Wide}}
	return Query{{.N}}[{{.Types}}]{q: systems.NewQuery{{.N}}({{join .Cols "$F.access()" ", "}}), par: (*queryKernel{{.N}}[{{.Types}}]).chunk,
		c: &cols{{.N}}[{{.Types}}]{ {{- join .Cols "columnData($F)" ", " -}} }}
{{- else}}
	return Query{{.N}}[{{.Types}}]{q: systems.NewQuery{{.N}}({{join .Cols "$F.access()" ", "}}), par: (*queryKernel{{.N}}[{{.Types}}]).chunk}
{{- end}}
}

// Table is the query's table; nil for the zero Query{{.N}}.
func (q Query{{.N}}[{{.Types}}]) Table() *Table { return (*Table)(q.q.Table()) }

// All yields every live row of the table with its handle, in ascending row
// order. Allocates nothing. It panics on a broken host query (Err).
func (q Query{{.N}}[{{.Types}}]) All() iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	{{template "faceYield" (yieldOf . "q.q.All()")}}
}

// Chunk yields the live rows of chunk chunk with their handles, as All
// does for the whole table: the row form for a kernel at that chunk. It
// panics when chunk is outside 0..Table().Chunks()-1 and on a broken host
// query (Err). Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Chunk(chunk int) iter.Seq2[Row{{.N}}[{{.Types}}], Handle] {
	{{template "faceYield" (yieldOf . "q.q.Chunk(chunk)")}}
}

// Spans returns chunk chunk's slice of each column, ChunkRows elements
// each, element r being row chunk*ChunkRows+r; rows that are not live hold
// don't-care values. It panics when chunk is outside 0..Table().Chunks()-1.
func (q Query{{.N}}[{{.Types}}]) Spans(chunk int) ({{join .Cols "[]$T" ", "}}) { return q.q.Spans(chunk) }

// Runs yields the live runs [lo, hi) of chunk chunk, chunk-relative row
// indexes into the slices of Spans(chunk): the span form for a kernel.
// Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Runs(chunk int) iter.Seq2[int, int] { return q.q.Runs(chunk) }
{{template "faceEach" (eachOf . "Query")}}

// usedChunks is the table's used chunks, 0 for the zero Query{{.N}}.
func (q Query{{.N}}[{{.Types}}]) usedChunks() int {
	if t := q.q.Table(); t != nil {
		return t.UsedChunks()
	}
	return 0
}

// Insert inserts one new entity with a row in the table, in the lowest
// free slot, holding {{join .Cols "$F" ", "}} in the query's column{{if gt .N 1}}s{{end}} (columns of the table
// outside the query are zero), and returns its handle. When the table is
// full it inserts nothing and returns a *CapacityError (ErrCapacity); a
// broken host query inserts nothing and returns its error (Err), a zero
// Query{{.N}} ErrZeroQuery (as InsertN). A structural change: for set-up
// and between frames; during a frame it panics (the rule: Table).
// Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) Insert({{join .Cols "$F $T" ", "}}) (Handle, error) {
	if q.err != nil {
		return 0, q.err
	}
	if t := q.q.Table(); t != nil {
		guard(t.Domain(), "Query{{.N}}.Insert", useCreate)
	}
	entity, err := q.q.Insert({{join .Cols "$F" ", "}})
	return Handle(entity), err
}

// InsertN inserts n new entities with a row in the table, the lowest free
// slots first, and calls fill with each one's handle and {{if eq .N 1}}a pointer to its
// value{{else}}pointers to its values{{end}} (zero until fill sets them), in slot order: fill sets
// every column of the query, and columns of the table outside the query
// stay zero. A nil fill inserts n rows of zero values; n <= 0 inserts
// nothing. When the n rows do not fit it inserts none and returns a
// *CapacityError; a broken host query inserts none and returns its error
// (Err). A structural change: for set-up and between frames; during a
// frame it panics (the rule: Table). Allocates nothing.
func (q Query{{.N}}[{{.Types}}]) InsertN(n int, fill func(entity Handle, {{join .Cols "$F *$T" ", "}})) error {
	if q.err != nil {
		return q.err
	}
	if t := q.q.Table(); t != nil {
		guard(t.Domain(), "Query{{.N}}.InsertN", useCreate)
	}
	if fill == nil {
		return q.q.InsertN(n, nil)
	}
	return q.q.InsertN(n, func(entity ephemeral.Handle, {{join .Cols "$F *$T" ", "}}) { fill(Handle(entity), {{join .Cols "$F" ", "}}) })
}

// Spawner{{.N}} creates entities with their value{{if gt .N 1}}s{{end}} in {{.N}} column{{if gt .N 1}}s{{end}} of one table, through
// the recorder of its declaration (NewSpawner{{.N}}). A small value. Spawn from the
// system's body; a worker's spawner (Worker) from that kernel worker only.
type Spawner{{.N}}[{{.Any}}] struct{ s systems.Spawner{{.N}}[{{.Types}}] }

// NewSpawner{{.N}} declares that the system records creates in the table of
// column{{if gt .N 1}}s{{end}} {{join .Cols "$F" ", "}} (as Record{{if gt .N 1}}; they must belong to one table{{end}}) and returns a
// spawner of rows with their value{{if gt .N 1}}s{{end}}. A nil column{{if gt .N 1}}, or columns of different
// tables,{{end}} fail{{if eq .N 1}}s{{end}} the declaration.
func NewSpawner{{.N}}[{{.Any}}](decl *Decl, {{join .Cols "$F *Column[$T]" ", "}}) Spawner{{.N}}[{{.Types}}] {
	return Spawner{{.N}}[{{.Types}}]{systems.NewSpawner{{.N}}(decl.e(), {{join .Cols "$F.e()" ", "}})}
}

// Spawn records the creation of an entity with a row holding {{join .Cols "$F" ", "}} (a
// create and {{.N}} deferred write{{if gt .N 1}}s{{end}}; columns outside the spawner's are zero)
// and returns its provisional handle. Allocates nothing once the
// recorder's buffers have grown to the run's spawns (Reserve).
func (sp Spawner{{.N}}[{{.Types}}]) Spawn({{join .Cols "$F $T" ", "}}) Handle { return Handle(sp.s.Spawn({{join .Cols "$F" ", "}})) }

// Reserve makes room for n spawns per run, so that up to n Spawn calls a
// run never allocate. Call it in the declaration or in the body. It
// allocates; its errors are Recorder.Reserve's (a negative n: a
// *CountError, ErrNegativeCount; past the memory budget: ErrMemoryBudget).
func (sp Spawner{{.N}}[{{.Types}}]) Reserve(n int) error { return sp.s.Reserve(n) }

// Worker returns the spawner of worker w for chunk chunk, from inside a
// Parallel kernel (see Recorder.Worker).
func (sp Spawner{{.N}}[{{.Types}}]) Worker(w, chunk int) Spawner{{.N}}[{{.Types}}] {
	return Spawner{{.N}}[{{.Types}}]{sp.s.Worker(w, chunk)}
}

// At returns the spawner of worker w for its chunk, from inside a query's
// or a join's Parallel (see Recorder.At).
func (sp Spawner{{.N}}[{{.Types}}]) At(w Worker) Spawner{{.N}}[{{.Types}}] {
	return Spawner{{.N}}[{{.Types}}]{sp.s.Worker(w.id, w.chunk)}
}

// SpawnUse{{.N}} is a row system's spawner of rows with their value{{if gt .N 1}}s{{end}} in {{.N}} column{{if gt .N 1}}s{{end}} of one
// table, made by Spawns{{.N}}: its Spawner{{.N}} (Spawn, Reserve, and At from a
// ParallelEach) is set at Build, as NewSpawner{{.N}} in the declaration.
type SpawnUse{{.N}}[{{.Any}}] struct {
	Spawner{{.N}}[{{.Types}}]
	mk    func(decl *Decl) Spawner{{.N}}[{{.Types}}]
	owner string
}

// Spawns{{.N}} is the use that spawns rows of the table of {{join .Cols "$F" ", "}} from the body (as
// NewSpawner{{.N}}; a nil column{{if gt .N 1}}, or columns of different tables,{{end}} fail{{if eq .N 1}}s{{end}} Build). It allocates:
// make it at set-up.
func Spawns{{.N}}[{{.Any}}]({{join .Cols "$F *Column[$T]" ", "}}) *SpawnUse{{.N}}[{{.Types}}] {
	return &SpawnUse{{.N}}[{{.Types}}]{mk: func(decl *Decl) Spawner{{.N}}[{{.Types}}] { return NewSpawner{{.N}}(decl, {{join .Cols "$F" ", "}}) }}
}

func (u *SpawnUse{{.N}}[{{.Types}}]) declare(d *Decl) {
	bound("Spawns{{.N}}", &u.owner, d)
	u.Spawner{{.N}} = u.mk(d)
}

// Each{{.N}} adds the row system name of phase phase: each run calls fn with
// the run's Context and every live row of the table of {{join .Cols "$F" ", "}} (Reads or
// Writes, which declare the access), as Query{{.N}}.Each; uses declare the
// rest of its manifest (Records, Spawns1.., Emits, ReadsResource,
// WritesResource, Orders), so conflicts are checked as for any system (the rule of row
// systems: the package doc, Row systems). Its errors are Builder.System's and NewQuery{{.N}}'s, at Build; a nil fn fails Build too
// (ErrBadDeclaration, naming the system).
func Each{{.N}}[{{.Any}}](bl *Builder, name string, phase Phase, {{join .Cols "$F Col[$T]" ", "}}, fn func(ctx *Context, entity Handle, {{join .Cols "$F *$T" ", "}}), uses ...Use) {
	bl.System(name, phase, func(decl *Decl) RunFunc {
		q := NewQuery{{.N}}({{join .Cols "$F.declare(decl)" ", "}})
		declareUses(decl, uses)
		if fn == nil {
			return nilRowFunc(decl, "Each{{.N}}")
		}
		return func(ctx *Context) {
			for row, entity := range q.All() {
				{{join .Cols "$F" ", "}} := row.Get()
				fn(ctx, entity, {{join .Cols "$F" ", "}})
			}
		}
	})
}

// ParallelEach{{.N}} is Each{{.N}} whose rows run on the kernel workers, as
// Query{{.N}}.Parallel: fn is given the Worker (its DT and Tick, and the At
// of recorders, spawners and emitters) in place of the Context; its errors are
// Each{{.N}}'s (a nil fn fails Build). Allocates nothing per run.
func ParallelEach{{.N}}[{{.Any}}](bl *Builder, name string, phase Phase, {{join .Cols "$F Col[$T]" ", "}}, fn func(wk Worker, entity Handle, {{join .Cols "$F *$T" ", "}}), uses ...Use) {
	bl.System(name, phase, func(decl *Decl) RunFunc {
		q := NewQuery{{.N}}({{join .Cols "$F.declare(decl)" ", "}})
		declareUses(decl, uses)
		if fn == nil {
			return nilRowFunc(decl, "ParallelEach{{.N}}")
		}
		return func(ctx *Context) { q.Parallel(ctx, fn) }
	})
}
{{end}}`
