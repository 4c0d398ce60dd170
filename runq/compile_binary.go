package runq

import (
	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

type number interface {
	int32 | int64 | float32 | float64
}

// arith is x op y in T, as Go computes it on values of T (integers wrap;
// integer / and % truncate, their divisor a nonzero constant: the
// checker's rule; every float operation rounds to T, a product included:
// no fused multiply-add, docs/schema.md, Expressions and arithmetic).
func arith[T number](op schema.BinaryOp, x, y func(int) T) func(int) T {
	switch op {
	case schema.Add:
		return func(r int) T { return x(r) + y(r) }
	case schema.Sub:
		return func(r int) T { return x(r) - y(r) }
	case schema.Mul:
		return func(r int) T { return T(x(r) * y(r)) }
	case schema.Div:
		return func(r int) T { return x(r) / y(r) }
	}
	return nil
}

func rem[T int32 | int64](x, y func(int) T) func(int) T {
	return func(r int) T { return x(r) % y(r) }
}

// compare is x op y for an ordered T (floats compare as Go does: any
// comparison with a NaN is false but !=; -0 == +0).
func compare[T number](op schema.BinaryOp, x, y func(int) T) func(int) bool {
	switch op {
	case schema.Eq:
		return func(r int) bool { return x(r) == y(r) }
	case schema.Ne:
		return func(r int) bool { return x(r) != y(r) }
	case schema.Lt:
		return func(r int) bool { return x(r) < y(r) }
	case schema.Le:
		return func(r int) bool { return x(r) <= y(r) }
	case schema.Gt:
		return func(r int) bool { return x(r) > y(r) }
	case schema.Ge:
		return func(r int) bool { return x(r) >= y(r) }
	}
	return nil
}

func equal[T bool | tickwork.Handle](op schema.BinaryOp, x, y func(int) T) func(int) bool {
	if op == schema.Eq {
		return func(r int) bool { return x(r) == y(r) }
	}
	return func(r int) bool { return x(r) != y(r) }
}

func (c *compiler) binary(e *schema.Binary) *ex {
	if c.err == nil {
		if f := c.fusedCompare(e); f != nil {
			return &ex{k: schema.Bool, b: f}
		}
	}
	x, y := c.expr(e.X), c.expr(e.Y)
	if c.err != nil {
		return &ex{}
	}
	switch e.Op {
	case schema.And:
		f, g := x.b, y.b
		return &ex{k: schema.Bool, b: func(r int) bool { return f(r) && g(r) }}
	case schema.Or:
		f, g := x.b, y.b
		return &ex{k: schema.Bool, b: func(r int) bool { return f(r) || g(r) }}
	}
	if x.k != y.k {
		c.unsupported(e.Pos, "an operation on "+e.X.Type().String()+" and "+e.Y.Type().String())
		return &ex{}
	}
	if e.Op.IsComparison() {
		var f func(int) bool
		switch x.k {
		case schema.Int32:
			f = compare(e.Op, x.i32, y.i32)
		case schema.Int64:
			f = compare(e.Op, x.i64, y.i64)
		case schema.Float32:
			f = compare(e.Op, x.f32, y.f32)
		case schema.Float64:
			f = compare(e.Op, x.f64, y.f64)
		case schema.Bool:
			f = equal(e.Op, x.b, y.b)
		case schema.Ref:
			f = equal(e.Op, x.h, y.h)
		}
		if f == nil {
			c.unsupported(e.Pos, "comparison "+e.Op.String()+" of "+e.X.Type().String())
			return &ex{}
		}
		return &ex{k: schema.Bool, b: f}
	}
	out := &ex{k: x.k}
	switch x.k {
	case schema.Int32:
		if e.Op == schema.Rem {
			out.i32 = rem(x.i32, y.i32)
		} else {
			out.i32 = arith(e.Op, x.i32, y.i32)
		}
		if out.i32 != nil {
			return out
		}
	case schema.Int64:
		if e.Op == schema.Rem {
			out.i64 = rem(x.i64, y.i64)
		} else {
			out.i64 = arith(e.Op, x.i64, y.i64)
		}
		if out.i64 != nil {
			return out
		}
	case schema.Float32:
		if out.f32 = arith(e.Op, x.f32, y.f32); out.f32 != nil {
			return out
		}
	case schema.Float64:
		if out.f64 = arith(e.Op, x.f64, y.f64); out.f64 != nil {
			return out
		}
	}
	c.unsupported(e.Pos, "operator "+e.Op.String()+" on "+e.X.Type().String())
	return &ex{}
}
