package runq

import (
	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// emitter writes a select item's values at rows into the rows' result
// block: row j's value goes to dst[j*w+off] (dst is len(rows)*w long).
type emitter func(rows []int32, dst []Value, off, w int)

// keyEmitter writes an ordering key at rows (orderKey's, reversed for
// desc): row j's key goes to dst[j*w+off].
type keyEmitter func(rows []int32, dst []uint64, off, w int)

func emitVec[T any](fill func([]int32, []T), mk func(T) Value) emitter {
	tmp := make([]T, spanRows)
	return func(rows []int32, dst []Value, off, w int) {
		v := tmp[:len(rows)]
		fill(rows, v)
		for j, x := range v {
			dst[j*w+off] = mk(x)
		}
	}
}

func emitCol[T any](s []T, mk func(T) Value) emitter {
	return func(rows []int32, dst []Value, off, w int) {
		for j, r := range rows {
			dst[j*w+off] = mk(s[r])
		}
	}
}

// emitOf is the emitter of select item e, x its per-row closure (called
// per row when e has no span form).
func (c *compiler) emitOf(e schema.Expr, x *ex) emitter {
	if cr, ok := e.(*schema.ColRef); ok && cr.Var == c.from && c.bt.cols[cr.Column.Index].ok {
		if _, joined := c.joinIndex[cr.Var]; !joined {
			bc := c.bt.cols[cr.Column.Index]
			switch cr.Column.Type.Kind {
			case schema.Int32:
				return emitCol(bc.i32, I32)
			case schema.Int64:
				return emitCol(bc.i64, I64)
			case schema.Float32:
				return emitCol(bc.f32, F32)
			case schema.Float64:
				return emitCol(bc.f64, F64)
			case schema.Bool:
				return emitCol(bc.b, Bool)
			case schema.Ref:
				return emitCol(bc.h, Ref)
			}
		}
	}
	if v, ok := e.(*schema.VarRef); ok && v.Var == c.from {
		tb := c.bt.tb
		return func(rows []int32, dst []Value, off, w int) {
			for j, r := range rows {
				dst[j*w+off] = Ref(tickwork.QueryHandle(tb, int(r)))
			}
		}
	}
	if v := c.vexpr(e); v != nil {
		switch v.k {
		case schema.Int32:
			return emitVec(v.i32, I32)
		case schema.Int64:
			return emitVec(v.i64, I64)
		case schema.Float32:
			return emitVec(v.f32, F32)
		case schema.Float64:
			return emitVec(v.f64, F64)
		case schema.Bool:
			return emitVec(v.b, Bool)
		case schema.Ref:
			return emitVec(v.h, Ref)
		}
	}
	val := c.valueOf(e, x)
	return func(rows []int32, dst []Value, off, w int) {
		for j, r := range rows {
			dst[j*w+off] = val(int(r))
		}
	}
}

func keyVec[T any](fill func([]int32, []T), key func(T) uint64, flip uint64) keyEmitter {
	tmp := make([]T, spanRows)
	return func(rows []int32, dst []uint64, off, w int) {
		v := tmp[:len(rows)]
		fill(rows, v)
		for j, x := range v {
			dst[j*w+off] = key(x) ^ flip
		}
	}
}

func keyI32(v int32) uint64 { return uint64(uint32(v) ^ 1<<31) }
func keyI64(v int64) uint64 { return uint64(v) ^ 1<<63 }
func keyF32(v float32) uint64 {
	return uint64(tickwork.QueryFloatKey32(v))
}
func keyBool(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// keyOfSpan is keyOf over spans: e's ordering key (orderKey's rule),
// reversed for desc; x is e's per-row closure (called per row when e has
// no span form).
func (c *compiler) keyOfSpan(e schema.Expr, x *ex, desc bool) keyEmitter {
	var flip uint64
	if desc {
		flip = ^uint64(0)
	}
	if e != nil {
		if v := c.vexpr(e); v != nil && v.k == x.k {
			switch v.k {
			case schema.Int32:
				return keyVec(v.i32, keyI32, flip)
			case schema.Int64:
				return keyVec(v.i64, keyI64, flip)
			case schema.Float32:
				return keyVec(v.f32, keyF32, flip)
			case schema.Float64:
				return keyVec(v.f64, tickwork.QueryFloatKey64, flip)
			case schema.Bool:
				return keyVec(v.b, keyBool, flip)
			case schema.Ref:
				return keyVec(v.h, tickwork.QueryHandleKey, flip)
			}
		}
	}
	key := keyOf(x, desc)
	return func(rows []int32, dst []uint64, off, w int) {
		for j, r := range rows {
			dst[j*w+off] = key(int(r))
		}
	}
}
