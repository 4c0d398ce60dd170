package runq

import "github.com/tickwork/tickwork/schema"

// selector evaluates a where over a span of rows at a time: span appends
// the rows of [lo, hi) that pass to out; refine keeps the rows of in that
// pass (in place). A column compared with a constant or a parameter, a
// bool column and `and` of them are tight loops over the column slice;
// any other condition calls its closure per row. The rows kept are those
// of the closure (the same test), in ascending order.
type selector struct {
	span   func(lo, hi int, out []int32) []int32
	refine func(in []int32) []int32
}

// perRow is the selector of any bool closure.
func perRow(f func(int) bool) *selector {
	return &selector{
		span: func(lo, hi int, out []int32) []int32 {
			for r := lo; r < hi; r++ {
				if f(r) {
					out = append(out, int32(r))
				}
			}
			return out
		},
		refine: func(in []int32) []int32 {
			out := in[:0]
			for _, r := range in {
				if f(int(r)) {
					out = append(out, r)
				}
			}
			return out
		},
	}
}

// spanTest is the selector of a test of one value of a column slice.
func spanTest[T any](s []T, test func(v T) bool) *selector {
	return &selector{
		span: func(lo, hi int, out []int32) []int32 {
			for i, v := range s[lo:hi] {
				if test(v) {
					out = append(out, int32(lo+i))
				}
			}
			return out
		},
		refine: func(in []int32) []int32 {
			out := in[:0]
			for _, r := range in {
				if test(s[r]) {
					out = append(out, r)
				}
			}
			return out
		},
	}
}

// selectorOf compiles where e into a selector; f is e's closure.
func (c *compiler) selectorOf(e schema.Expr, f func(int) bool) *selector {
	switch e := e.(type) {
	case *schema.Binary:
		if _, sel := c.fused(e); sel != nil {
			return sel
		}
		if e.Op == schema.And {
			x, y := c.selectorOf(e.X, c.expr(e.X).b), c.selectorOf(e.Y, c.expr(e.Y).b)
			return &selector{
				span: func(lo, hi int, out []int32) []int32 {
					n := len(out)
					out = x.span(lo, hi, out)
					return append(out[:n], y.refine(out[n:])...)
				},
				refine: func(in []int32) []int32 { return y.refine(x.refine(in)) },
			}
		}
	case *schema.ColRef:
		if bc := c.bt.cols[e.Column.Index]; e.Var == c.from && bc.ok && e.Column.Type.Kind == schema.Bool {
			return spanTest(bc.b, func(v bool) bool { return v })
		}
	}
	return perRow(f)
}

// cmpKeep reports whether v op c, for the comparison ops.
func cmpKeep[T number](op schema.BinaryOp, v, c T) bool {
	switch op {
	case schema.Eq:
		return v == c
	case schema.Ne:
		return v != c
	case schema.Lt:
		return v < c
	case schema.Le:
		return v <= c
	case schema.Gt:
		return v > c
	}
	return v >= c
}

// cmpSpan appends the rows r of [lo, hi) with s[r] op c, one loop per op.
func cmpSpan[T number](op schema.BinaryOp, s []T, c T, lo, hi int, out []int32) []int32 {
	vs := s[lo:hi]
	switch op {
	case schema.Eq:
		for i, v := range vs {
			if v == c {
				out = append(out, int32(lo+i))
			}
		}
	case schema.Ne:
		for i, v := range vs {
			if v != c {
				out = append(out, int32(lo+i))
			}
		}
	case schema.Lt:
		for i, v := range vs {
			if v < c {
				out = append(out, int32(lo+i))
			}
		}
	case schema.Le:
		for i, v := range vs {
			if v <= c {
				out = append(out, int32(lo+i))
			}
		}
	case schema.Gt:
		for i, v := range vs {
			if v > c {
				out = append(out, int32(lo+i))
			}
		}
	default:
		for i, v := range vs {
			if v >= c {
				out = append(out, int32(lo+i))
			}
		}
	}
	return out
}

// cmpSelector is the selector of `column op operand` (fusedCompare's
// shape): operand is a constant or, read once per span, a parameter.
func cmpSelector[T number](op schema.BinaryOp, s []T, lit *T, arg *Value) *selector {
	operand := func() T {
		if lit != nil {
			return *lit
		}
		return asNumber[T](*arg)
	}
	return &selector{
		span: func(lo, hi int, out []int32) []int32 { return cmpSpan(op, s, operand(), lo, hi, out) },
		refine: func(in []int32) []int32 {
			c, out := operand(), in[:0]
			for _, r := range in {
				if cmpKeep(op, s[r], c) {
					out = append(out, r)
				}
			}
			return out
		},
	}
}
