package runq

import (
	"math"

	"github.com/tickwork/tickwork/schema"
)

// asNumber is v's value as T, v of T's kind.
func asNumber[T number](v Value) T {
	var z T
	switch any(z).(type) {
	case int32:
		return T(int32(uint32(v.bits)))
	case int64:
		return T(int64(v.bits))
	case float32:
		return T(math.Float32frombits(uint32(v.bits)))
	}
	return T(math.Float64frombits(v.bits))
}

// cmpColumn is `column op operand` for a column slice and a constant or
// a parameter (one closure instead of three: the same comparison).
func cmpColumn[T number](op schema.BinaryOp, s []T, lit *T, arg *Value) func(int) bool {
	var c T
	if lit != nil {
		c = *lit
		switch op {
		case schema.Eq:
			return func(r int) bool { return s[r] == c }
		case schema.Ne:
			return func(r int) bool { return s[r] != c }
		case schema.Lt:
			return func(r int) bool { return s[r] < c }
		case schema.Le:
			return func(r int) bool { return s[r] <= c }
		case schema.Gt:
			return func(r int) bool { return s[r] > c }
		case schema.Ge:
			return func(r int) bool { return s[r] >= c }
		}
		return nil
	}
	switch op {
	case schema.Eq:
		return func(r int) bool { return s[r] == asNumber[T](*arg) }
	case schema.Ne:
		return func(r int) bool { return s[r] != asNumber[T](*arg) }
	case schema.Lt:
		return func(r int) bool { return s[r] < asNumber[T](*arg) }
	case schema.Le:
		return func(r int) bool { return s[r] <= asNumber[T](*arg) }
	case schema.Gt:
		return func(r int) bool { return s[r] > asNumber[T](*arg) }
	case schema.Ge:
		return func(r int) bool { return s[r] >= asNumber[T](*arg) }
	}
	return nil
}

// fusedCompare compiles `v.C op x`, v the from row and x a constant or a
// parameter of C's type, into one closure; nil when e is not of that shape
// (the generic path then compiles it).
func (c *compiler) fusedCompare(e *schema.Binary) func(int) bool {
	f, _ := c.fused(e)
	return f
}

// fused is fusedCompare's closure and selector.
func (c *compiler) fused(e *schema.Binary) (func(int) bool, *selector) {
	cr, ok := e.X.(*schema.ColRef)
	if !ok || cr.Var != c.from || !e.Op.IsComparison() {
		return nil, nil
	}
	bc := c.bt.cols[cr.Column.Index]
	if !bc.ok {
		return nil, nil
	}
	var arg *Value
	var lit *ex
	switch y := e.Y.(type) {
	case *schema.ParamRef:
		arg = &c.q.args[y.Param.Index]
	case *schema.Lit:
		lit = c.lit(y, cr.Column.Type.Kind)
	default:
		return nil, nil
	}
	switch cr.Column.Type.Kind {
	case schema.Int32:
		var p *int32
		if lit != nil {
			v := lit.i32(0)
			p = &v
		}
		return cmpColumn(e.Op, bc.i32, p, arg), cmpSelector(e.Op, bc.i32, p, arg)
	case schema.Int64:
		var p *int64
		if lit != nil {
			v := lit.i64(0)
			p = &v
		}
		return cmpColumn(e.Op, bc.i64, p, arg), cmpSelector(e.Op, bc.i64, p, arg)
	case schema.Float32:
		var p *float32
		if lit != nil {
			v := lit.f32(0)
			p = &v
		}
		return cmpColumn(e.Op, bc.f32, p, arg), cmpSelector(e.Op, bc.f32, p, arg)
	case schema.Float64:
		var p *float64
		if lit != nil {
			v := lit.f64(0)
			p = &v
		}
		return cmpColumn(e.Op, bc.f64, p, arg), cmpSelector(e.Op, bc.f64, p, arg)
	}
	return nil, nil
}
