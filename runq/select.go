package runq

import (
	"slices"

	"github.com/tickwork/tickwork/schema"
)

// selector evaluates a where over a span of rows at a time: span appends
// the rows of [lo, hi) that pass to out; refine keeps the rows of in that
// pass (in place). A column compared with a constant or a parameter, a
// bool column and `and` of them are tight loops over the column slice;
// any other condition calls its closure per row. The rows kept are those
// of the closure (the same test), in ascending order.
type selector struct {
	span   func(lo, hi int, out []int32) []int32
	refine func(in []int32) []int32
	// masked, when not nil, is the selector of this one `and` a bool
	// column, as one loop (a comparison's: cmpSelector)
	masked func(mask []bool) *selector
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

// b2i is 1 for true: the selection loops add it to the count of rows
// kept instead of branching on an unpredictable test.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// boolSelector is the selector of a bool column of the from row.
func boolSelector(s []bool) *selector {
	return &selector{
		span: func(lo, hi int, out []int32) []int32 {
			n := len(out)
			out = slices.Grow(out, hi-lo)[:n+hi-lo]
			for i, v := range s[lo:hi] {
				out[n] = int32(lo + i)
				n += b2i(v)
			}
			return out[:n]
		},
		refine: func(in []int32) []int32 {
			n := 0
			for _, r := range in {
				in[n] = r
				n += b2i(s[r])
			}
			return in[:n]
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
			// a comparison and a bool column, either way round: one loop
			// (the conjuncts have no effects, so their order is free)
			if m := c.boolColumn(e.Y); m != nil && x.masked != nil {
				return x.masked(m)
			}
			if m := c.boolColumn(e.X); m != nil && y.masked != nil {
				return y.masked(m)
			}
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
		if m := c.boolColumn(e); m != nil {
			return boolSelector(m)
		}
	}
	if v := c.vexpr(e); v != nil && v.k == schema.Bool {
		return vexSelector(v)
	}
	return perRow(f)
}

// vexSelector is the selector of a condition with a span form: its bool
// vector over spanRows rows at a time, then the passing rows kept
// (branch-free). Evaluating it on rows an `and` would skip is harmless:
// an expression has no effects and cannot fail (an integer divisor is a
// nonzero constant).
func vexSelector(v *vex) *selector {
	rows, pass := make([]int32, spanRows), make([]bool, spanRows)
	return &selector{
		span: func(lo, hi int, out []int32) []int32 {
			n := len(out)
			out = slices.Grow(out, hi-lo)[:n+hi-lo]
			for a := lo; a < hi; a += spanRows {
				rs := rows[:min(spanRows, hi-a)]
				for j := range rs {
					rs[j] = int32(a + j)
				}
				ps := pass[:len(rs)]
				v.b(rs, ps)
				for j, p := range ps {
					out[n] = rs[j]
					n += b2i(p)
				}
			}
			return out[:n]
		},
		refine: func(in []int32) []int32 {
			k := 0
			for a := 0; a < len(in); a += spanRows {
				rs := in[a:min(len(in), a+spanRows)]
				ps := pass[:len(rs)]
				v.b(rs, ps)
				for j, p := range ps { // k <= a+j: the chunk's rows are read before they are overwritten
					in[k] = rs[j]
					k += b2i(p)
				}
			}
			return in[:k]
		},
	}
}

// boolColumn is e's slice when e is a bound bool column of the from row.
func (c *compiler) boolColumn(e schema.Expr) []bool {
	cr, ok := e.(*schema.ColRef)
	if !ok || cr.Var != c.from || cr.Column.Type.Kind != schema.Bool {
		return nil
	}
	if _, joined := c.joinIndex[cr.Var]; joined {
		return nil
	}
	if bc := c.bt.cols[cr.Column.Index]; bc.ok {
		return bc.b
	}
	return nil
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

// cmpSpan appends the rows r of [lo, hi) with s[r] op c, one loop per op
// (branch-free: every row is written, the count advances when it passes).
func cmpSpan[T number](op schema.BinaryOp, s []T, c T, lo, hi int, out []int32) []int32 {
	vs := s[lo:hi]
	n := len(out)
	out = slices.Grow(out, hi-lo)[:n+hi-lo]
	o := out[n:]
	k := 0
	switch op {
	case schema.Eq:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v == c)
		}
	case schema.Ne:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v != c)
		}
	case schema.Lt:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v < c)
		}
	case schema.Le:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v <= c)
		}
	case schema.Gt:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v > c)
		}
	default:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v >= c)
		}
	}
	return out[:n+k]
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
		span:   func(lo, hi int, out []int32) []int32 { return cmpSpan(op, s, operand(), lo, hi, out) },
		refine: func(in []int32) []int32 { return cmpRefine(op, s, operand(), in) },
		masked: func(mask []bool) *selector {
			return &selector{
				span: func(lo, hi int, out []int32) []int32 { return cmpSpanMask(op, s, operand(), mask, lo, hi, out) },
				refine: func(in []int32) []int32 {
					k := 0
					for _, r := range cmpRefine(op, s, operand(), in) {
						in[k] = r
						k += b2i(mask[r])
					}
					return in[:k]
				},
			}
		},
	}
}

// cmpSpanMask appends the rows r of [lo, hi) with s[r] op c and mask[r],
// one branch-free loop per op (cmpSpan's, the mask and-ed in).
func cmpSpanMask[T number](op schema.BinaryOp, s []T, c T, mask []bool, lo, hi int, out []int32) []int32 {
	vs := s[lo:hi]
	ms := mask[lo:hi][:len(vs)]
	n := len(out)
	out = slices.Grow(out, hi-lo)[:n+hi-lo]
	o := out[n:]
	k := 0
	switch op {
	case schema.Eq:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v == c) & b2i(ms[i])
		}
	case schema.Ne:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v != c) & b2i(ms[i])
		}
	case schema.Lt:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v < c) & b2i(ms[i])
		}
	case schema.Le:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v <= c) & b2i(ms[i])
		}
	case schema.Gt:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v > c) & b2i(ms[i])
		}
	default:
		for i, v := range vs {
			o[k] = int32(lo + i)
			k += b2i(v >= c) & b2i(ms[i])
		}
	}
	return out[:n+k]
}

// cmpRefine keeps the rows r of in with s[r] op c (in place, branch-free).
func cmpRefine[T number](op schema.BinaryOp, s []T, c T, in []int32) []int32 {
	k := 0
	switch op {
	case schema.Eq:
		for _, r := range in {
			in[k] = r
			k += b2i(s[r] == c)
		}
	case schema.Ne:
		for _, r := range in {
			in[k] = r
			k += b2i(s[r] != c)
		}
	case schema.Lt:
		for _, r := range in {
			in[k] = r
			k += b2i(s[r] < c)
		}
	case schema.Le:
		for _, r := range in {
			in[k] = r
			k += b2i(s[r] <= c)
		}
	case schema.Gt:
		for _, r := range in {
			in[k] = r
			k += b2i(s[r] > c)
		}
	default:
		for _, r := range in {
			in[k] = r
			k += b2i(s[r] >= c)
		}
	}
	return in[:k]
}
