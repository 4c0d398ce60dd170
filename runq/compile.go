package runq

import (
	"fmt"
	"go/constant"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// ex is a compiled expression: one typed closure over the from row's
// index, the one its type's kind names (docs/architecture.md, Run-time
// queries: every operation rounds to its type as the generated code's).
type ex struct {
	k   schema.TypeKind
	i32 func(r int) int32
	i64 func(r int) int64
	f32 func(r int) float32
	f64 func(r int) float64
	b   func(r int) bool
	h   func(r int) tickwork.Handle
}

// value is e's value at row r as a Value.
func (e *ex) value(r int) Value {
	switch e.k {
	case schema.Int32:
		return I32(e.i32(r))
	case schema.Int64:
		return I64(e.i64(r))
	case schema.Float32:
		return F32(e.f32(r))
	case schema.Float64:
		return F64(e.f64(r))
	case schema.Bool:
		return Bool(e.b(r))
	}
	return Ref(e.h(r))
}

// compiler turns a checked query's expressions into closures bound to a
// catalog's slices and to the prepared query's argument array.
type compiler struct {
	joinIndex map[*schema.Var]int // a join variable's join
	cat       *Catalog
	from      *schema.Var
	bt        *boundTable
	q         *Query
	err       *Error
}

func (c *compiler) unsupported(p schema.Pos, what string) {
	if c.err == nil {
		c.err = &Error{Pos: p, Kind: ErrUnsupported, Msg: fmt.Sprintf("%s is not run by the interpreter yet; declare the query in the .tw file", what)}
	}
}

// kindOf is the run-time kind of type t (an untyped constant takes its
// default type).
func kindOf(t schema.Type) schema.TypeKind {
	switch t.Kind {
	case schema.UntypedInt:
		return schema.Int64
	case schema.UntypedFloat:
		return schema.Float64
	}
	return t.Kind
}

func (c *compiler) expr(e schema.Expr) *ex {
	if c.err != nil {
		return &ex{}
	}
	switch e := e.(type) {
	case *schema.Lit:
		return c.lit(e, kindOf(e.T))
	case *schema.ColRef:
		return c.col(e)
	case *schema.ParamRef:
		return c.param(e)
	case *schema.VarRef:
		if ji, ok := c.joinIndex[e.Var]; ok {
			jh := c.q.jh
			return &ex{k: schema.Ref, h: func(int) tickwork.Handle { return jh[ji] }}
		}
		if e.Var != c.from {
			c.unsupported(e.Pos, "this row's handle")
			return &ex{}
		}
		tb := c.bt.tb
		return &ex{k: schema.Ref, h: func(r int) tickwork.Handle { return tickwork.QueryHandle(tb, r) }}
	case *schema.IndexOf:
		if v, ok := e.X.(*schema.VarRef); ok && v.Var == c.from {
			return &ex{k: schema.Int32, i32: func(r int) int32 { return int32(r) }}
		}
		x := c.expr(e.X)
		return &ex{k: schema.Int32, i32: func(r int) int32 { return int32(x.h(r).Index()) }}
	case *schema.Has:
		if e.Var != c.from {
			c.unsupported(e.Pos, "has of a joined row")
			return &ex{}
		}
		bt := c.cat.tables[e.Table.Name]
		if bt == nil {
			c.unbound(e.Pos, e.Table.Name, "")
			return &ex{}
		}
		from, other := c.bt.tb, bt.tb
		return &ex{k: schema.Bool, b: func(r int) bool { return other.IsAlive(tickwork.QueryHandle(from, r)) }}
	case *schema.Probe:
		ji, ok := c.joinIndex[e.Var]
		if !ok {
			c.unsupported(e.Pos, "found or missing of this row")
			return &ex{}
		}
		jrow, found := c.q.jrow, e.Found
		return &ex{k: schema.Bool, b: func(int) bool { return (jrow[ji] >= 0) == found }}
	case *schema.Exists:
		return c.existsExpr(e)
	case *schema.Floor:
		x := c.expr(e.X)
		if x.k == schema.Float32 {
			return &ex{k: schema.Int32, i32: func(r int) int32 { return schema.FloorInt32(float64(x.f32(r))) }}
		}
		return &ex{k: schema.Int32, i32: func(r int) int32 { return schema.FloorInt32(x.f64(r)) }}
	case *schema.Unary:
		return c.unary(e)
	case *schema.Binary:
		return c.binary(e)
	case *schema.Convert:
		return c.convert(e)
	}
	c.unsupported(e.Position(), fmt.Sprintf("expression %T", e))
	return &ex{}
}

func (c *compiler) unbound(p schema.Pos, table, col string) {
	if c.err == nil {
		what := "table " + table
		if col != "" {
			what = "column " + table + "." + col
		}
		c.err = &Error{Pos: p, Kind: ErrCatalog, Msg: what + " is not bound in the catalog; bind it (BindTable, BindColumn) before Prepare"}
	}
}

func (c *compiler) lit(e *schema.Lit, k schema.TypeKind) *ex {
	v := e.Value
	switch k {
	case schema.Int32:
		x, _ := constant.Int64Val(constant.ToInt(v))
		n := int32(x)
		return &ex{k: k, i32: func(int) int32 { return n }}
	case schema.Int64:
		n, _ := constant.Int64Val(constant.ToInt(v))
		return &ex{k: k, i64: func(int) int64 { return n }}
	case schema.Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return &ex{k: k, f32: func(int) float32 { return f }}
	case schema.Float64:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return &ex{k: k, f64: func(int) float64 { return f }}
	case schema.Bool:
		b := constant.BoolVal(v)
		return &ex{k: k, b: func(int) bool { return b }}
	}
	c.unsupported(e.Pos, "a constant of type "+e.T.String())
	return &ex{}
}

func (c *compiler) col(e *schema.ColRef) *ex {
	if ji, ok := c.joinIndex[e.Var]; ok {
		return c.joinCol(e, ji)
	}
	if e.Var != c.from {
		c.unsupported(e.Pos, "a joined row's column")
		return &ex{}
	}
	bc := c.bt.cols[e.Column.Index]
	if !bc.ok {
		c.unbound(e.Pos, c.bt.def.Name, e.Column.Name)
		return &ex{}
	}
	switch k := e.Column.Type.Kind; k {
	case schema.Int32:
		s := bc.i32
		return &ex{k: k, i32: func(r int) int32 { return s[r] }}
	case schema.Int64:
		s := bc.i64
		return &ex{k: k, i64: func(r int) int64 { return s[r] }}
	case schema.Float32:
		s := bc.f32
		return &ex{k: k, f32: func(r int) float32 { return s[r] }}
	case schema.Float64:
		s := bc.f64
		return &ex{k: k, f64: func(r int) float64 { return s[r] }}
	case schema.Bool:
		s := bc.b
		return &ex{k: k, b: func(r int) bool { return s[r] }}
	default:
		s := bc.h
		return &ex{k: schema.Ref, h: func(r int) tickwork.Handle { return s[r] }}
	}
}

func (c *compiler) param(e *schema.ParamRef) *ex {
	q, i := c.q, e.Param.Index
	switch k := e.Param.Type.Kind; k {
	case schema.Int32:
		return &ex{k: k, i32: func(int) int32 { return q.args[i].Int32() }}
	case schema.Int64:
		return &ex{k: k, i64: func(int) int64 { return q.args[i].Int64() }}
	case schema.Float32:
		return &ex{k: k, f32: func(int) float32 { return q.args[i].Float32() }}
	case schema.Float64:
		return &ex{k: k, f64: func(int) float64 { return q.args[i].Float64() }}
	case schema.Bool:
		return &ex{k: k, b: func(int) bool { return q.args[i].Bool() }}
	default:
		return &ex{k: schema.Ref, h: func(int) tickwork.Handle { return q.args[i].Handle() }}
	}
}

func (c *compiler) unary(e *schema.Unary) *ex {
	x := c.expr(e.X)
	if e.Op == schema.Not {
		f := x.b
		return &ex{k: schema.Bool, b: func(r int) bool { return !f(r) }}
	}
	switch x.k {
	case schema.Int32:
		f := x.i32
		return &ex{k: x.k, i32: func(r int) int32 { return -f(r) }}
	case schema.Int64:
		f := x.i64
		return &ex{k: x.k, i64: func(r int) int64 { return -f(r) }}
	case schema.Float32:
		f := x.f32
		return &ex{k: x.k, f32: func(r int) float32 { return -f(r) }}
	case schema.Float64:
		f := x.f64
		return &ex{k: x.k, f64: func(r int) float64 { return -f(r) }}
	}
	c.unsupported(e.Pos, "negation of "+e.T.String())
	return &ex{}
}

func (c *compiler) convert(e *schema.Convert) *ex {
	x := c.expr(e.X)
	to := kindOf(e.T)
	if c.err != nil {
		return &ex{}
	}
	// read x as int64 or float64 exactly, then narrow as Go's conversion.
	var asI func(int) int64
	var asF func(int) float64
	switch x.k {
	case schema.Int32:
		f := x.i32
		asI = func(r int) int64 { return int64(f(r)) }
	case schema.Int64:
		asI = x.i64
	case schema.Float32:
		f := x.f32
		asF = func(r int) float64 { return float64(f(r)) }
	case schema.Float64:
		asF = x.f64
	}
	switch {
	case to == x.k:
		return x
	case to == schema.Int32 && asI != nil:
		return &ex{k: to, i32: func(r int) int32 { return int32(asI(r)) }}
	case to == schema.Int64 && asI != nil:
		return &ex{k: to, i64: asI}
	case to == schema.Float32 && asI != nil && x.k == schema.Int32:
		f := x.i32
		return &ex{k: to, f32: func(r int) float32 { return float32(f(r)) }}
	case to == schema.Float32 && asI != nil:
		return &ex{k: to, f32: func(r int) float32 { return float32(asI(r)) }}
	case to == schema.Float32 && asF != nil:
		return &ex{k: to, f32: func(r int) float32 { return float32(asF(r)) }}
	case to == schema.Float64 && asI != nil:
		return &ex{k: to, f64: func(r int) float64 { return float64(asI(r)) }}
	case to == schema.Float64 && asF != nil:
		return &ex{k: to, f64: asF}
	}
	c.unsupported(e.Pos, "conversion to "+e.T.String())
	return &ex{}
}

// valueOf is x, the compiled e, as one closure giving a Value: a column
// of the from row reads its slice directly.
func (c *compiler) valueOf(e schema.Expr, x *ex) func(int) Value {
	if e == nil { // a window's item, filled after the scan
		return x.value
	}
	if cr, ok := e.(*schema.ColRef); ok && cr.Var == c.from {
		bc := c.bt.cols[cr.Column.Index]
		switch cr.Column.Type.Kind {
		case schema.Int32:
			s := bc.i32
			return func(r int) Value { return I32(s[r]) }
		case schema.Int64:
			s := bc.i64
			return func(r int) Value { return I64(s[r]) }
		case schema.Float32:
			s := bc.f32
			return func(r int) Value { return F32(s[r]) }
		case schema.Float64:
			s := bc.f64
			return func(r int) Value { return F64(s[r]) }
		case schema.Bool:
			s := bc.b
			return func(r int) Value { return Bool(s[r]) }
		case schema.Ref:
			s := bc.h
			return func(r int) Value { return Ref(s[r]) }
		}
	}
	if v, ok := e.(*schema.VarRef); ok && v.Var == c.from {
		tb := c.bt.tb
		return func(r int) Value { return Ref(tickwork.QueryHandle(tb, r)) }
	}
	return x.value
}

// keyOf is x's ordering key (orderKey's) as one closure, reversed for
// desc.
func keyOf(x *ex, desc bool) func(int) uint64 {
	var flip uint64
	if desc {
		flip = ^uint64(0)
	}
	switch x.k {
	case schema.Int32:
		f := x.i32
		return func(r int) uint64 { return uint64(uint32(f(r))^1<<31) ^ flip }
	case schema.Int64:
		f := x.i64
		return func(r int) uint64 { return uint64(f(r)) ^ 1<<63 ^ flip }
	case schema.Float32:
		f := x.f32
		return func(r int) uint64 { return uint64(tickwork.QueryFloatKey32(f(r))) ^ flip }
	case schema.Float64:
		f := x.f64
		return func(r int) uint64 { return tickwork.QueryFloatKey64(f(r)) ^ flip }
	}
	return func(r int) uint64 { return orderKey(x.value(r)) ^ flip }
}
