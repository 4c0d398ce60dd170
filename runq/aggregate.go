package runq

import "github.com/tickwork/tickwork/schema"

// adder is an aggregate's update for row r, specialised at Prepare to its
// function and its argument's kind (the rules: accumulate's).
type adder func(s *acc, r int)

// makeAdder is a's adder: count, sum/avg in int64 and float64, min/max by
// better's rule on the typed values.
func makeAdder(a *aggSpec) adder {
	if a.kind == schema.Count {
		return func(s *acc, _ int) { s.n++ }
	}
	x := a.x
	if a.kind == schema.Sum || a.kind == schema.Avg {
		switch x.k {
		case schema.Int32:
			f := x.i32
			return func(s *acc, r int) { v := f(r); s.n++; s.i += int64(v); s.f += float64(v) }
		case schema.Int64:
			f := x.i64
			return func(s *acc, r int) { v := f(r); s.n++; s.i += v; s.f += float64(v) }
		case schema.Float32:
			f := x.f32
			return func(s *acc, r int) { s.n++; s.f += float64(f(r)) }
		case schema.Float64:
			f := x.f64
			return func(s *acc, r int) { s.n++; s.f += f(r) }
		}
		return nil
	}
	isMax := a.kind == schema.Max
	switch x.k {
	case schema.Int32:
		f := x.i32
		return func(s *acc, r int) {
			v := f(r)
			if m := s.m.Int32(); !s.ok || isMax && v > m || !isMax && v < m {
				s.m, s.ok = I32(v), true
			}
		}
	case schema.Int64:
		f := x.i64
		return func(s *acc, r int) {
			v := f(r)
			if m := s.m.Int64(); !s.ok || isMax && v > m || !isMax && v < m {
				s.m, s.ok = I64(v), true
			}
		}
	case schema.Float32:
		f := x.f32
		if isMax {
			return func(s *acc, r int) {
				v := f(r)
				if m := s.m.Float32(); !s.ok || v > m || v != v && m == m {
					s.m, s.ok = F32(v), true
				}
			}
		}
		return func(s *acc, r int) {
			v := f(r)
			if m := s.m.Float32(); !s.ok || v < m || m != m && v == v {
				s.m, s.ok = F32(v), true
			}
		}
	case schema.Float64:
		f := x.f64
		if isMax {
			return func(s *acc, r int) {
				v := f(r)
				if m := s.m.Float64(); !s.ok || v > m || v != v && m == m {
					s.m, s.ok = F64(v), true
				}
			}
		}
		return func(s *acc, r int) {
			v := f(r)
			if m := s.m.Float64(); !s.ok || v < m || m != m && v == v {
				s.m, s.ok = F64(v), true
			}
		}
	}
	// bool and ref min/max are refused by the checker; keep the generic rule
	return func(s *acc, r int) {
		if v := x.value(r); !s.ok || better(isMax, v, s.m) {
			s.m, s.ok = v, true
		}
	}
}

// spanAdder is an aggregate's update for the rows of a span, specialised
// at Prepare as adder is: row j of rows updates accs[gids[j]*na] (gids nil:
// one group, accs[0]), in the rows' order.
type spanAdder func(accs []acc, na int, gids, rows []int32)

// makeSpanAdder is a's spanAdder: its argument evaluated over the span
// into a scratch vector, then accumulated by adder's rule; a per-row loop
// over add when the argument has no span form (v nil).
func makeSpanAdder(a *aggSpec, v *vex) spanAdder {
	if a.kind == schema.Count {
		return func(accs []acc, na int, gids, rows []int32) {
			if gids == nil {
				accs[0].n += int64(len(rows))
				return
			}
			for _, g := range gids[:len(rows)] {
				accs[int(g)*na].n++
			}
		}
	}
	if v != nil && v.k == a.x.k {
		isMax := a.kind == schema.Max
		switch {
		case a.kind != schema.Sum && a.kind != schema.Avg:
			switch v.k {
			case schema.Int32:
				return spanMinMaxInt(v.i32, colOf[int32](v), isMax, I32)
			case schema.Int64:
				return spanMinMaxInt(v.i64, colOf[int64](v), isMax, I64)
			case schema.Float32:
				return spanMinMaxFloat(v.f32, colOf[float32](v), isMax, F32)
			case schema.Float64:
				return spanMinMaxFloat(v.f64, colOf[float64](v), isMax, F64)
			}
		case v.k == schema.Int32:
			return spanSumInt(v.i32, colOf[int32](v))
		case v.k == schema.Int64:
			return spanSumInt(v.i64, colOf[int64](v))
		case v.k == schema.Float32:
			return spanSumFloat(v.f32, colOf[float32](v))
		case v.k == schema.Float64:
			return spanSumFloat(v.f64, colOf[float64](v))
		}
	}
	add := a.add
	return func(accs []acc, na int, gids, rows []int32) {
		for j, r := range rows {
			g := 0
			if gids != nil {
				g = int(gids[j])
			}
			add(&accs[g*na], int(r))
		}
	}
}

// colOf is v's column slice when v is a bare column of T, else nil.
func colOf[T any](v *vex) []T {
	s, _ := v.col.([]T)
	return s
}

// spanSumInt is sum and avg of an integer argument: s.i in int64, s.f in
// float64 (adder's two sums).
func spanSumInt[T int32 | int64](x func([]int32, []T), col []T) spanAdder {
	tmp := make([]T, spanRows)
	return func(accs []acc, na int, gids, rows []int32) {
		if gids == nil && col != nil {
			s := &accs[0]
			i, f := s.i, s.f
			for _, r := range rows {
				e := col[r]
				i += int64(e)
				f += float64(e)
			}
			s.n, s.i, s.f = s.n+int64(len(rows)), i, f
			return
		}
		v := tmp[:len(rows)]
		x(rows, v)
		if gids == nil {
			s := &accs[0]
			i, f := s.i, s.f
			for _, e := range v {
				i += int64(e)
				f += float64(e)
			}
			s.n, s.i, s.f = s.n+int64(len(v)), i, f
			return
		}
		for j, e := range v {
			s := &accs[int(gids[j])*na]
			s.n++
			s.i += int64(e)
			s.f += float64(e)
		}
	}
}

// spanSumFloat is sum and avg of a float argument, added in float64 in
// the rows' order.
func spanSumFloat[T float32 | float64](x func([]int32, []T), col []T) spanAdder {
	tmp := make([]T, spanRows)
	return func(accs []acc, na int, gids, rows []int32) {
		if gids == nil && col != nil {
			s := &accs[0]
			f := s.f
			for _, r := range rows {
				f += float64(col[r])
			}
			s.n, s.f = s.n+int64(len(rows)), f
			return
		}
		v := tmp[:len(rows)]
		x(rows, v)
		if gids == nil {
			s := &accs[0]
			f := s.f
			for _, e := range v {
				f += float64(e)
			}
			s.n, s.f = s.n+int64(len(v)), f
			return
		}
		for j, e := range v {
			s := &accs[int(gids[j])*na]
			s.n++
			s.f += float64(e)
		}
	}
}

func spanMinMaxInt[T int32 | int64](x func([]int32, []T), col []T, isMax bool, mk func(T) Value) spanAdder {
	tmp := make([]T, spanRows)
	return func(accs []acc, na int, gids, rows []int32) {
		if gids == nil && col != nil {
			s := &accs[0]
			m, ok := asNumber[T](s.m), s.ok
			for _, r := range rows {
				if e := col[r]; !ok || isMax && e > m || !isMax && e < m {
					m, ok = e, true
				}
			}
			if ok {
				s.m, s.ok = mk(m), true
			}
			return
		}
		v := tmp[:len(rows)]
		x(rows, v)
		if gids == nil {
			s := &accs[0]
			m, ok := asNumber[T](s.m), s.ok
			for _, e := range v {
				if !ok || isMax && e > m || !isMax && e < m {
					m, ok = e, true
				}
			}
			if ok {
				s.m, s.ok = mk(m), true
			}
			return
		}
		for j, e := range v {
			s := &accs[int(gids[j])*na]
			if m := asNumber[T](s.m); !s.ok || isMax && e > m || !isMax && e < m {
				s.m, s.ok = mk(e), true
			}
		}
	}
}

// spanMinMaxFloat is min and max of a float argument (a NaN the greatest:
// adder's rule).
func spanMinMaxFloat[T float32 | float64](x func([]int32, []T), col []T, isMax bool, mk func(T) Value) spanAdder {
	tmp := make([]T, spanRows)
	better := func(e, m T) bool {
		if isMax {
			return e > m || e != e && m == m
		}
		return e < m || m != m && e == e
	}
	return func(accs []acc, na int, gids, rows []int32) {
		if gids == nil && col != nil {
			s := &accs[0]
			m, ok := asNumber[T](s.m), s.ok
			if isMax {
				for _, r := range rows {
					if e := col[r]; !ok || e > m || e != e && m == m {
						m, ok = e, true
					}
				}
			} else {
				for _, r := range rows {
					if e := col[r]; !ok || e < m || m != m && e == e {
						m, ok = e, true
					}
				}
			}
			if ok {
				s.m, s.ok = mk(m), true
			}
			return
		}
		v := tmp[:len(rows)]
		x(rows, v)
		if gids == nil {
			s := &accs[0]
			m, ok := asNumber[T](s.m), s.ok
			if isMax {
				for _, e := range v {
					if !ok || e > m || e != e && m == m {
						m, ok = e, true
					}
				}
			} else {
				for _, e := range v {
					if !ok || e < m || m != m && e == e {
						m, ok = e, true
					}
				}
			}
			if ok {
				s.m, s.ok = mk(m), true
			}
			return
		}
		for j, e := range v {
			s := &accs[int(gids[j])*na]
			if !s.ok || better(e, asNumber[T](s.m)) {
				s.m, s.ok = mk(e), true
			}
		}
	}
}
