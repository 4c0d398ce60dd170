package corpus

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/bench/shop"
	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
)

// The runq lane: a case's Info.TW prepared once by package runq (the
// interpreter of run-time queries: docs/architecture.md, Run-time
// queries) against the catalog of its data set, run with the generated
// lane's arguments, its rows read into the case's row type.

// catalogs binds the run-time query catalogs of d's two worlds (the
// generated Tables.BindCatalog of arena and bench/shop).
func (d *Data) catalogs() error {
	var err error
	if d.arenaCat, err = runq.NewCatalogOf(arena.SchemaFile, arena.SchemaText, d.A.BindCatalog); err != nil {
		return fmt.Errorf("corpus: the arena's catalog: %w", err)
	}
	if d.shopCat, err = runq.NewCatalogOf(shop.SchemaFile, shop.SchemaText, d.Shop.BindCatalog); err != nil {
		return fmt.Errorf("corpus: the shop's catalog: %w", err)
	}
	return nil
}

// Catalog is the run-time query catalog of the data set set ("arena" or
// "shop"), or nil for another name. Read-only: safe for concurrent
// Prepare calls.
func (d *Data) Catalog(set string) *runq.Catalog {
	switch set {
	case "arena":
		return d.arenaCat
	case "shop":
		return d.shopCat
	}
	return nil
}

// RunqText is the case's Info.TW as Prepare takes it: its query renamed
// NAME -> RtNAME, since a run-time query must not reuse a name of the
// schema, where the generated lane's twin is declared.
func RunqText(in *Info) string {
	return strings.Replace(in.TW, "query ", "query Rt", 1)
}

// PrepareRunq prepares the case's query on d's catalog and returns it
// with its arguments: Kase.Vals's, or Kase.Args's converted to the
// parameters' types. Errors: Prepare's (runq.ErrUnsupported for a family
// the interpreter does not run), or arguments that do not fit the
// parameters.
func (k *Kase[R, P]) PrepareRunq(d *Data) (*runq.Query, []runq.Value, error) {
	q, err := runq.Prepare(d.Catalog(k.Meta.Set), RunqText(&k.Meta))
	if err != nil {
		return nil, nil, err
	}
	if k.Vals != nil {
		return q, k.Vals(d), nil
	}
	args := k.args(d)
	ps := q.Params()
	if len(args) != len(ps) {
		return nil, nil, fmt.Errorf("%s: %d SQL arguments for %d parameters: give the case Vals", k.Meta.Name, len(args), len(ps))
	}
	vals := make([]runq.Value, len(ps))
	for i, p := range ps {
		v, ok := valueOf(p.Type.Kind, args[i])
		if !ok {
			return nil, nil, fmt.Errorf("%s: argument %d (%v, %T) does not fit parameter %s %s: give the case Vals", k.Meta.Name, i, args[i], args[i], p.Name, p.Type)
		}
		vals[i] = v
	}
	return q, vals, nil
}

// valueOf converts a SQL argument (an int, an int32, an int64, a float32
// or a float64) to a value of kind k; false for a ref or a bool.
func valueOf(k schema.TypeKind, a any) (runq.Value, bool) {
	var i int64
	var f float64
	isInt := true
	switch a := a.(type) {
	case int:
		i = int64(a)
	case int32:
		i = int64(a)
	case int64:
		i = a
	case float32:
		f, isInt = float64(a), false
	case float64:
		f, isInt = a, false
	default:
		return runq.Value{}, false
	}
	switch {
	case k == schema.Int32 && isInt:
		return runq.I32(int32(i)), true
	case k == schema.Int64 && isInt:
		return runq.I64(i), true
	case k == schema.Float32 && !isInt:
		return runq.F32(float32(f)), true
	case k == schema.Float32:
		return runq.F32(float32(i)), true
	case k == schema.Float64 && !isInt:
		return runq.F64(f), true
	case k == schema.Float64:
		return runq.F64(float64(i)), true
	}
	return runq.Value{}, false
}

// Runq implements Case.
func (k *Kase[R, P]) Runq(d *Data) (func() int, error) {
	f, err := k.newRunq(d)
	if err != nil {
		return nil, err
	}
	var buf []R
	return func() int {
		buf = f(buf[:0])
		return len(buf)
	}, nil
}

// newRunq is the runq lane's NewGen: each call runs the prepared query
// into the same value buffer and reads its rows into dst (0 B once the
// buffers have grown, past the interpreter's own).
func (k *Kase[R, P]) newRunq(d *Data) (func([]R) []R, error) {
	q, vals, err := k.PrepareRunq(d)
	if err != nil {
		return nil, err
	}
	var r R
	ptrs := P(&r).Dest(nil)
	cols := len(q.Columns())
	if w := width(q); w != len(ptrs) {
		return nil, fmt.Errorf("%s: the query's %d columns are %d row fields, the row type has %d", k.Meta.Name, cols, w, len(ptrs))
	}
	// one run here, so that bad arguments are this function's error: a
	// later run fails only if the data changed under the query
	out, err := q.Run(nil, vals)
	if err != nil {
		return nil, fmt.Errorf("%s: runq: %w", k.Meta.Name, err)
	}
	var runErr error
	return func(dst []R) []R {
		out, runErr = q.Run(out[:0], vals)
		if runErr != nil {
			panic(fmt.Sprintf("corpus: %s: runq: %v (the first run passed: Data's tables must stay read-only)", k.Meta.Name, runErr))
		}
		for i := 0; i+cols <= len(out); i += cols {
			fill(ptrs, out[i:i+cols])
			dst = append(dst, r)
		}
		return dst
	}, nil
}

// width is the number of row fields of q's columns: two for a ref (the
// ID's index and generation), one for the others.
func width(q *runq.Query) int {
	n := 0
	for _, c := range q.Columns() {
		n++
		if c.Kind == schema.Ref {
			n++
		}
	}
	return n
}

// fill stores one result row's values through the row's field pointers
// (Row.Dest): a ref into an ID's two fields.
func fill(ptrs []any, vals []runq.Value) {
	j := 0
	for _, v := range vals {
		switch p := ptrs[j].(type) {
		case *uint32:
			h := v.Handle()
			*p, *ptrs[j+1].(*uint32) = h.Index(), h.Generation()
			j++
		case *int32:
			*p = v.Int32()
		case *int64:
			*p = v.Int64()
		case *float32:
			*p = v.Float32()
		case *float64:
			*p = v.Float64()
		case *bool:
			*p = v.Bool()
		}
		j++
	}
}
