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
