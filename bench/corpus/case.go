package corpus

import (
	"database/sql"
	"fmt"
	"math"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
)

// Info describes a case: what [BenchmarkCorpus], the agreement test and
// cmd/corpustable print and run.
type Info struct {
	Name   string // the sub-benchmark's name, unique
	Family string // the operator family of issue 22
	Set    string // "arena" or "shop"
	// TW is the query in the schema's query syntax (docs/schema.md). A
	// case whose family the generator has declares it in arena/arena.tw
	// or bench/shop/shop.tw and runs it as its generated side
	// (Kase.NewGen); the others are not compiled yet.
	TW string
	// SQL is the statement run on DB.Scan, prepared once; IndexSQL, when
	// not empty, the one run on DB.Index instead (an R*Tree probe), else
	// SQL. Both order rows as the query's contract does (entity index
	// tie-break), so results compare row for row.
	SQL, IndexSQL string
	// Indexes are the statements that make DB.Index's matching indexes.
	Indexes []string
	// Tolerance, when not empty, says where and why a float of SQLite's
	// result is compared with a relative tolerance (1e-9) instead of bit
	// for bit.
	Tolerance string
	// Index, on an index-served case (issue 23), names the declared index
	// (in arena/arena.tw or bench/shop/shop.tw) that serves the generated
	// query; its scan side ([Kase].NewScan) runs the same query `using
	// scan`, and the index table (WriteIndexTable) prints the case. Empty
	// on the others.
	Index string
}

// Case is one corpus case; [Kase] is the only implementation.
type Case interface {
	Info() *Info
	// Hand returns the hand loop's runner over d, with its buffers
	// and scratch made: each call runs the loop into the same buffer
	// and returns the result's length (0 B once the buffer has grown).
	Hand(d *Data) func() int
	// Generated is Hand's twin for the generated query, or nil while
	// the case has none.
	Generated(d *Data) func() int
	// Parallel is Generated on the query's parallel lane, or nil.
	Parallel(d *Data) func() int
	// Scan is Generated for the same query forced to a scan (`using
	// scan`), or nil: an index-served case's baseline.
	Scan(d *Data) func() int
	// SQL returns the runner of the prepared statement st with d's
	// parameters: each call runs it, reads every row and returns the
	// count, or SQLite's error.
	SQL(d *Data, st *sql.Stmt) func() (int, error)
	// Runq is Generated for the case's Info.TW prepared at run time by
	// package runq against the data set's catalog ([Data.Catalog]), or
	// Prepare's error (runq.ErrUnsupported: a family the interpreter
	// does not run).
	Runq(d *Data) (func() int, error)
	// Agree runs the hand loop (and the generated query, its parallel
	// lane and its scan, if any) and both statements once and returns an error naming the first row
	// where they differ.
	Agree(d *Data, scan, index *sql.Stmt) error
}

// Row is a result row type: its pointer lists its fields' addresses for
// sql.Rows.Scan, in the SELECT's column order.
type Row[R any] interface {
	*R
	Dest(dst []any) []any
}

// Kase is a case with result rows R.
type Kase[R any, P Row[R]] struct {
	Meta Info
	// Args returns the SQL statement's arguments.
	Args func(d *Data) []any
	// Vals, when not nil, returns the run-time query's arguments (runq,
	// in its parameters' order); nil: Args converted to the parameters'
	// types (a case with a ref parameter, or other SQL arguments, sets it).
	Vals func(d *Data) []runq.Value
	// NewHand makes the hand loop's scratch and returns it: it appends
	// the result to dst[:0] and returns it.
	NewHand func(d *Data) func(dst []R) []R
	// NewGen is the generated query's NewHand; nil for a case whose query is not declared yet.
	NewGen func(d *Data) func(dst []R) []R
	// NewPar is NewGen on the query's parallel lane (its Parallel method,
	// attached to the data set's world: docs/schema.md, Queries); nil for
	// a query without one.
	NewPar func(d *Data) func(dst []R) []R
	// NewScan is NewGen's query forced to a scan (`using scan`): set on
	// an index-served case (Meta.Index), once its query is declared.
	NewScan func(d *Data) func(dst []R) []R
	// Close, when not nil, compares a SQLite row with the hand's where
	// Meta.Tolerance says; nil: the rows' %v forms must be equal (floats
	// bit for bit, -0 and +0 apart).
	Close func(sqlite, hand R) bool
}

// Info returns the case's description.
func (k *Kase[R, P]) Info() *Info { return &k.Meta }

// Hand implements Case.
func (k *Kase[R, P]) Hand(d *Data) func() int { return runner(k.NewHand, d) }

// Generated implements Case.
func (k *Kase[R, P]) Generated(d *Data) func() int {
	if k.NewGen == nil {
		return nil
	}
	return runner(k.NewGen, d)
}

// Parallel implements Case.
func (k *Kase[R, P]) Parallel(d *Data) func() int {
	if k.NewPar == nil {
		return nil
	}
	return runner(k.NewPar, d)
}

// Scan implements Case.
func (k *Kase[R, P]) Scan(d *Data) func() int {
	if k.NewScan == nil {
		return nil
	}
	return runner(k.NewScan, d)
}

func runner[R any](mk func(*Data) func([]R) []R, d *Data) func() int {
	f := mk(d)
	var buf []R
	return func() int {
		buf = f(buf[:0])
		return len(buf)
	}
}

// SQL implements Case.
func (k *Kase[R, P]) SQL(d *Data, st *sql.Stmt) func() (int, error) {
	args := k.args(d)
	var buf []R
	return func() (int, error) {
		var err error
		buf, err = k.query(st, args, buf[:0])
		return len(buf), err
	}
}

func (k *Kase[R, P]) args(d *Data) []any {
	if k.Args == nil {
		return nil
	}
	return k.Args(d)
}

// query runs st and appends its rows to dst.
func (k *Kase[R, P]) query(st *sql.Stmt, args []any, dst []R) ([]R, error) {
	rows, err := st.Query(args...)
	if err != nil {
		return dst, err
	}
	defer rows.Close()
	var r R
	ptrs := P(&r).Dest(nil)
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return dst, err
		}
		dst = append(dst, r)
	}
	return dst, rows.Err()
}

// Agree implements Case.
func (k *Kase[R, P]) Agree(d *Data, scan, index *sql.Stmt) error {
	hand := k.NewHand(d)(nil)
	if k.NewGen != nil {
		if err := k.same("generated", k.NewGen(d)(nil), hand, false); err != nil {
			return err
		}
	}
	if k.NewPar != nil {
		if err := k.same("parallel", k.NewPar(d)(nil), hand, false); err != nil {
			return err
		}
	}
	if k.NewScan != nil {
		if err := k.same("scan", k.NewScan(d)(nil), hand, false); err != nil {
			return err
		}
	}
	for _, s := range []struct {
		name string
		st   *sql.Stmt
	}{{"sqlite", scan}, {"sqlite_index", index}} {
		got, err := k.query(s.st, k.args(d), nil)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", k.Meta.Name, s.name, err)
		}
		if err := k.same(s.name, got, hand, true); err != nil {
			return err
		}
	}
	return nil
}

// same compares got with the hand's rows.
func (k *Kase[R, P]) same(name string, got, hand []R, sqlite bool) error {
	if len(got) != len(hand) {
		return fmt.Errorf("%s: %s has %d rows, hand %d (first rows: %v / %v)", k.Meta.Name, name, len(got), len(hand), head(got), head(hand))
	}
	for i := range got {
		a, b := fmt.Sprintf("%v", got[i]), fmt.Sprintf("%v", hand[i])
		if a == b || (sqlite && k.Close != nil && k.Close(got[i], hand[i])) {
			continue
		}
		return fmt.Errorf("%s: row %d of %d: %s %s, hand %s", k.Meta.Name, i, len(got), name, a, b)
	}
	return nil
}

func head[R any](rs []R) []R { return rs[:min(len(rs), 3)] }

// ID is a handle as the results carry it: entity index and generation
// (what SQLite stores as idx, gen).
type ID struct{ Index, Gen uint32 }

// idOf returns h's ID.
func idOf(h tickwork.Handle) ID { return ID{h.Index(), h.Generation()} }

// near reports whether a and b agree within a relative 1e-9 (or both are
// within 1e-9 of 0).
func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b), 1)
}
