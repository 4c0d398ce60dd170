package runq

import (
	"go/constant"
	"math/bits"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// spanRows is the most rows one span evaluation covers: a chunk's run of
// live rows is cut into spans of at most spanRows rows, and every node's
// scratch vector is this long (docs/architecture.md, Run-time queries:
// how it runs).
const spanRows = 256

// vex is a compiled expression over a span of rows: the closure of its
// kind writes the expression's value at rows[j] to out[j] for every j <
// len(rows) (out is at least len(rows) long; rows are from-table rows).
// It computes what ex computes row by row, with the same operations in the
// same types. A node keeps its operands' scratch vectors: a vex is used by
// one goroutine at a time (its Query's).
type vex struct {
	k   schema.TypeKind
	i32 func(rows []int32, out []int32)
	i64 func(rows []int32, out []int64)
	f32 func(rows []int32, out []float32)
	f64 func(rows []int32, out []float64)
	b   func(rows []int32, out []bool)
	h   func(rows []int32, out []tickwork.Handle)
	col any // a bare column of the from row: its slice ([]int32, ...), read in place by an aggregate
}

func gather[T any](s []T) func([]int32, []T) {
	return func(rows []int32, out []T) {
		out = out[:len(rows)]
		for j, r := range rows {
			out[j] = s[r]
		}
	}
}

func splat[T any](v T) func([]int32, []T) {
	return func(rows []int32, out []T) {
		out = out[:len(rows)]
		for j := range out {
			out[j] = v
		}
	}
}

func splatFn[T any](v func() T) func([]int32, []T) {
	return func(rows []int32, out []T) {
		c := v()
		out = out[:len(rows)]
		for j := range out {
			out[j] = c
		}
	}
}

// vexpr compiles e over spans; nil when some node of e has no span form
// (a join's column, has, exists, found/missing): the caller then calls e's
// per-row closure row by row. e compiled without error by expr first.
func (c *compiler) vexpr(e schema.Expr) *vex {
	switch e := e.(type) {
	case *schema.Lit:
		return vlit(e.Value, kindOf(e.T))
	case *schema.ColRef:
		return c.vcol(e)
	case *schema.ParamRef:
		return c.vparam(e)
	case *schema.VarRef:
		if _, ok := c.joinIndex[e.Var]; ok || e.Var != c.from {
			return nil
		}
		tb := c.bt.tb
		return &vex{k: schema.Ref, h: func(rows []int32, out []tickwork.Handle) {
			out = out[:len(rows)]
			for j, r := range rows {
				out[j] = tickwork.QueryHandle(tb, int(r))
			}
		}}
	case *schema.IndexOf:
		if v, ok := e.X.(*schema.VarRef); ok && v.Var == c.from {
			return &vex{k: schema.Int32, i32: func(rows []int32, out []int32) { copy(out, rows) }}
		}
		x := c.vexpr(e.X)
		if x == nil {
			return nil
		}
		tmp := make([]tickwork.Handle, spanRows)
		return &vex{k: schema.Int32, i32: func(rows []int32, out []int32) {
			hs := tmp[:len(rows)]
			x.h(rows, hs)
			for j, h := range hs {
				out[j] = int32(h.Index())
			}
		}}
	case *schema.Floor:
		x := c.vexpr(e.X)
		if x == nil {
			return nil
		}
		if x.k == schema.Float32 {
			tmp := make([]float32, spanRows)
			return &vex{k: schema.Int32, i32: func(rows []int32, out []int32) {
				v := tmp[:len(rows)]
				x.f32(rows, v)
				for j, f := range v {
					out[j] = schema.FloorInt32(float64(f))
				}
			}}
		}
		tmp := make([]float64, spanRows)
		return &vex{k: schema.Int32, i32: func(rows []int32, out []int32) {
			v := tmp[:len(rows)]
			x.f64(rows, v)
			for j, f := range v {
				out[j] = schema.FloorInt32(f)
			}
		}}
	case *schema.Unary:
		return c.vunary(e)
	case *schema.Binary:
		return c.vbinary(e)
	case *schema.Convert:
		return c.vconvert(e)
	}
	return nil
}

func vlit(v constant.Value, k schema.TypeKind) *vex {
	switch k {
	case schema.Int32:
		x, _ := constant.Int64Val(constant.ToInt(v))
		return &vex{k: k, i32: splat(int32(x))}
	case schema.Int64:
		n, _ := constant.Int64Val(constant.ToInt(v))
		return &vex{k: k, i64: splat(n)}
	case schema.Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return &vex{k: k, f32: splat(f)}
	case schema.Float64:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return &vex{k: k, f64: splat(f)}
	case schema.Bool:
		return &vex{k: k, b: splat(constant.BoolVal(v))}
	}
	return nil
}

func (c *compiler) vcol(e *schema.ColRef) *vex {
	if _, ok := c.joinIndex[e.Var]; ok || e.Var != c.from {
		return nil
	}
	bc := c.bt.cols[e.Column.Index]
	if !bc.ok {
		return nil
	}
	switch k := e.Column.Type.Kind; k {
	case schema.Int32:
		return &vex{k: k, i32: gather(bc.i32), col: bc.i32}
	case schema.Int64:
		return &vex{k: k, i64: gather(bc.i64), col: bc.i64}
	case schema.Float32:
		return &vex{k: k, f32: gather(bc.f32), col: bc.f32}
	case schema.Float64:
		return &vex{k: k, f64: gather(bc.f64), col: bc.f64}
	case schema.Bool:
		return &vex{k: k, b: gather(bc.b), col: bc.b}
	default:
		return &vex{k: schema.Ref, h: gather(bc.h)}
	}
}

func (c *compiler) vparam(e *schema.ParamRef) *vex {
	// closures over a, read per span: a method value (a.Int32) would copy
	// the argument at Prepare
	a := &c.q.args[e.Param.Index]
	switch k := e.Param.Type.Kind; k {
	case schema.Int32:
		return &vex{k: k, i32: splatFn(func() int32 { return a.Int32() })}
	case schema.Int64:
		return &vex{k: k, i64: splatFn(func() int64 { return a.Int64() })}
	case schema.Float32:
		return &vex{k: k, f32: splatFn(func() float32 { return a.Float32() })}
	case schema.Float64:
		return &vex{k: k, f64: splatFn(func() float64 { return a.Float64() })}
	case schema.Bool:
		return &vex{k: k, b: splatFn(func() bool { return a.Bool() })}
	default:
		return &vex{k: schema.Ref, h: splatFn(func() tickwork.Handle { return a.Handle() })}
	}
}

func negSpan[T number](x func([]int32, []T)) func([]int32, []T) {
	return func(rows []int32, out []T) {
		x(rows, out)
		out = out[:len(rows)]
		for j := range out {
			out[j] = -out[j]
		}
	}
}

func (c *compiler) vunary(e *schema.Unary) *vex {
	x := c.vexpr(e.X)
	if x == nil {
		return nil
	}
	if e.Op == schema.Not {
		return &vex{k: schema.Bool, b: func(rows []int32, out []bool) {
			x.b(rows, out)
			out = out[:len(rows)]
			for j := range out {
				out[j] = !out[j]
			}
		}}
	}
	switch x.k {
	case schema.Int32:
		return &vex{k: x.k, i32: negSpan(x.i32)}
	case schema.Int64:
		return &vex{k: x.k, i64: negSpan(x.i64)}
	case schema.Float32:
		return &vex{k: x.k, f32: negSpan(x.f32)}
	case schema.Float64:
		return &vex{k: x.k, f64: negSpan(x.f64)}
	}
	return nil
}

// arithSpan is arith over spans: x into out, y into the node's scratch,
// then out[j] op= y[j] (a float product converted on its own: no fused
// multiply-add).
func arithSpan[T number](op schema.BinaryOp, x, y func([]int32, []T)) func([]int32, []T) {
	tmp := make([]T, spanRows)
	operands := func(rows []int32, out []T) ([]T, []T) {
		x(rows, out)
		t := tmp[:len(rows)]
		y(rows, t)
		return out[:len(t)], t
	}
	switch op {
	case schema.Add:
		return func(rows []int32, out []T) {
			o, t := operands(rows, out)
			for j := range o {
				o[j] += t[j]
			}
		}
	case schema.Sub:
		return func(rows []int32, out []T) {
			o, t := operands(rows, out)
			for j := range o {
				o[j] -= t[j]
			}
		}
	case schema.Mul:
		return func(rows []int32, out []T) {
			o, t := operands(rows, out)
			for j := range o {
				o[j] = T(o[j] * t[j])
			}
		}
	case schema.Div:
		return func(rows []int32, out []T) {
			o, t := operands(rows, out)
			for j := range o {
				o[j] /= t[j]
			}
		}
	}
	return nil
}

// remSpan is rem over spans (the divisor a nonzero constant: the
// checker's rule).
func remSpan[T int32 | int64](x, y func([]int32, []T)) func([]int32, []T) {
	tmp := make([]T, spanRows)
	return func(rows []int32, out []T) {
		x(rows, out)
		t := tmp[:len(rows)]
		y(rows, t)
		o := out[:len(t)]
		for j := range o {
			o[j] %= t[j]
		}
	}
}

// compareSpan is compare over spans.
func compareSpan[T number](op schema.BinaryOp, x, y func([]int32, []T)) func([]int32, []bool) {
	tx, ty := make([]T, spanRows), make([]T, spanRows)
	return func(rows []int32, out []bool) {
		a, b := tx[:len(rows)], ty[:len(rows)]
		x(rows, a)
		y(rows, b)
		o := out[:len(rows)]
		for j := range o {
			o[j] = cmpKeep(op, a[j], b[j])
		}
	}
}

func equalSpan[T bool | tickwork.Handle](op schema.BinaryOp, x, y func([]int32, []T)) func([]int32, []bool) {
	tx, ty := make([]T, spanRows), make([]T, spanRows)
	eq := op == schema.Eq
	return func(rows []int32, out []bool) {
		a, b := tx[:len(rows)], ty[:len(rows)]
		x(rows, a)
		y(rows, b)
		o := out[:len(rows)]
		for j := range o {
			o[j] = (a[j] == b[j]) == eq
		}
	}
}

func (c *compiler) vbinary(e *schema.Binary) *vex {
	x, y := c.vexpr(e.X), c.vexpr(e.Y)
	if x == nil || y == nil || x.k != y.k {
		return nil
	}
	switch e.Op {
	case schema.And, schema.Or:
		tmp, and := make([]bool, spanRows), e.Op == schema.And
		return &vex{k: schema.Bool, b: func(rows []int32, out []bool) {
			x.b(rows, out)
			t := tmp[:len(rows)]
			y.b(rows, t)
			o := out[:len(t)]
			for j := range o {
				if and {
					o[j] = o[j] && t[j]
				} else {
					o[j] = o[j] || t[j]
				}
			}
		}}
	}
	if e.Op.IsComparison() {
		out := &vex{k: schema.Bool}
		switch x.k {
		case schema.Int32:
			out.b = compareSpan(e.Op, x.i32, y.i32)
		case schema.Int64:
			out.b = compareSpan(e.Op, x.i64, y.i64)
		case schema.Float32:
			out.b = compareSpan(e.Op, x.f32, y.f32)
		case schema.Float64:
			out.b = compareSpan(e.Op, x.f64, y.f64)
		case schema.Bool:
			out.b = equalSpan(e.Op, x.b, y.b)
		case schema.Ref:
			out.b = equalSpan(e.Op, x.h, y.h)
		default:
			return nil
		}
		return out
	}
	out := &vex{k: x.k}
	if d, ok := constInt32(e.Y); ok && d != 0 && x.k == schema.Int32 && (e.Op == schema.Rem || e.Op == schema.Div) {
		f, rem := x.i32, e.Op == schema.Rem
		out.i32 = func(rows []int32, out []int32) {
			f(rows, out)
			divRemConst32(out[:len(rows)], d, rem)
		}
		return out
	}
	switch x.k {
	case schema.Int32:
		if e.Op == schema.Rem {
			out.i32 = remSpan(x.i32, y.i32)
		} else {
			out.i32 = arithSpan(e.Op, x.i32, y.i32)
		}
		if out.i32 != nil {
			return out
		}
	case schema.Int64:
		if e.Op == schema.Rem {
			out.i64 = remSpan(x.i64, y.i64)
		} else {
			out.i64 = arithSpan(e.Op, x.i64, y.i64)
		}
		if out.i64 != nil {
			return out
		}
	case schema.Float32:
		if out.f32 = arithSpan(e.Op, x.f32, y.f32); out.f32 != nil {
			return out
		}
	case schema.Float64:
		if out.f64 = arithSpan(e.Op, x.f64, y.f64); out.f64 != nil {
			return out
		}
	}
	return nil
}

// convSpan is Go's conversion S to D over spans.
func convSpan[S, D number](x func([]int32, []S)) func([]int32, []D) {
	tmp := make([]S, spanRows)
	return func(rows []int32, out []D) {
		v := tmp[:len(rows)]
		x(rows, v)
		for j, s := range v {
			out[j] = D(s)
		}
	}
}

// vconvert is convert over spans: the conversions it accepts (integers to
// integers and floats, floats to floats), each as Go's (float32 of an
// int64 or an int32 rounds the same integer once).
func (c *compiler) vconvert(e *schema.Convert) *vex {
	x := c.vexpr(e.X)
	if x == nil {
		return nil
	}
	to := kindOf(e.T)
	if to == x.k {
		return x
	}
	out := &vex{k: to}
	switch x.k {
	case schema.Int32:
		switch to {
		case schema.Int64:
			out.i64 = convSpan[int32, int64](x.i32)
		case schema.Float32:
			out.f32 = convSpan[int32, float32](x.i32)
		case schema.Float64:
			out.f64 = convSpan[int32, float64](x.i32)
		default:
			return nil
		}
	case schema.Int64:
		switch to {
		case schema.Int32:
			out.i32 = convSpan[int64, int32](x.i64)
		case schema.Float32:
			out.f32 = convSpan[int64, float32](x.i64)
		case schema.Float64:
			out.f64 = convSpan[int64, float64](x.i64)
		default:
			return nil
		}
	case schema.Float32:
		if to != schema.Float64 {
			return nil
		}
		out.f64 = convSpan[float32, float64](x.f32)
	case schema.Float64:
		if to != schema.Float32 {
			return nil
		}
		out.f32 = convSpan[float64, float32](x.f64)
	default:
		return nil
	}
	return out
}

// divRemConst32 sets o[j] to o[j] / d (rem false) or o[j] % d (rem true),
// d a nonzero int32 constant, as Go's int32 operators, without the
// hardware divide: |o[j]|'s quotient by |d| is the high word of its
// 128-bit product with M = floor((2^64-1)/|d|) + 1, exact for a numerator
// below 2^32 (its error term u*(M*|d| - 2^64)/2^64 < 1/|d| as u*|d| <
// 2^64), then the signs of Go's truncated division
// (TestDivRemConst32MatchesGo).
func divRemConst32(o []int32, d int32, rem bool) {
	ad := uint64(d)
	if d < 0 {
		ad = uint64(-int64(d))
	}
	if ad == 1 { // M would be 2^64
		for j, v := range o {
			switch {
			case rem:
				o[j] = 0
			case d < 0:
				o[j] = -v
			}
		}
		return
	}
	m := (^uint64(0))/ad + 1
	var dsign int64
	if d < 0 {
		dsign = -1
	}
	for j, v := range o {
		n := int64(v)
		ns := n >> 63              // -1 for a negative numerator
		u := uint64((n ^ ns) - ns) // |n|, at most 2^31
		q, _ := bits.Mul64(u, m)
		if rem {
			r := int64(u - q*ad)
			o[j] = int32((r ^ ns) - ns)
		} else {
			qs := ns ^ dsign
			o[j] = int32((int64(q) ^ qs) - qs)
		}
	}
}

// constInt32 is e's value when it is an int32 constant.
func constInt32(e schema.Expr) (int32, bool) {
	l, ok := e.(*schema.Lit)
	if !ok || kindOf(l.T) != schema.Int32 {
		return 0, false
	}
	x, _ := constant.Int64Val(constant.ToInt(l.Value))
	return int32(x), true
}
