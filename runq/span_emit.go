package runq

import (
	"math"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// emitter writes a select item's values at rows into the rows' result
// block: row j's value goes to dst[j*w+off] (dst is len(rows)*w long).
type emitter func(rows []int32, dst []Value, off, w int)

// keyEmitter writes an ordering key at rows (orderKey's, reversed for
// desc): row j's key goes to dst[j*w+off].
type keyEmitter func(rows []int32, dst []uint64, off, w int)

// putValues writes v[j] as a Value to dst[j*w+off], one loop per kind
// (no call per row).
func putValues(k schema.TypeKind, v any, dst []Value, off, w int) {
	switch k {
	case schema.Int32:
		for j, x := range v.([]int32) {
			dst[j*w+off] = Value{uint64(uint32(x)), k}
		}
	case schema.Int64:
		for j, x := range v.([]int64) {
			dst[j*w+off] = Value{uint64(x), k}
		}
	case schema.Float32:
		for j, x := range v.([]float32) {
			dst[j*w+off] = Value{uint64(math.Float32bits(x)), k}
		}
	case schema.Float64:
		for j, x := range v.([]float64) {
			dst[j*w+off] = Value{math.Float64bits(x), k}
		}
	case schema.Bool:
		for j, x := range v.([]bool) {
			dst[j*w+off] = Value{uint64(b2i(x)), k}
		}
	default:
		for j, x := range v.([]tickwork.Handle) {
			dst[j*w+off] = Value{uint64(x), schema.Ref}
		}
	}
}

// emitVec is the emitter of a span expression of kind k.
func emitVec[T any](k schema.TypeKind, fill func([]int32, []T)) emitter {
	tmp := make([]T, spanRows)
	return func(rows []int32, dst []Value, off, w int) {
		v := tmp[:len(rows)]
		fill(rows, v)
		putValues(k, v, dst, off, w)
	}
}

// emitOf is the emitter of select item e, x its per-row closure (called
// per row when e has no span form).
func (c *compiler) emitOf(e schema.Expr, x *ex) emitter {
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
			return emitVec(v.k, v.i32)
		case schema.Int64:
			return emitVec(v.k, v.i64)
		case schema.Float32:
			return emitVec(v.k, v.f32)
		case schema.Float64:
			return emitVec(v.k, v.f64)
		case schema.Bool:
			return emitVec(v.k, v.b)
		case schema.Ref:
			return emitVec(v.k, v.h)
		}
	}
	val := c.valueOf(e, x)
	return func(rows []int32, dst []Value, off, w int) {
		for j, r := range rows {
			dst[j*w+off] = val(int(r))
		}
	}
}

// putKeys writes v[j]'s ordering key (orderKey's), xor flip, to
// dst[j*w+off], one loop per kind (no call per row).
func putKeys(v any, dst []uint64, off, w int, flip uint64) {
	switch v := v.(type) {
	case []int32:
		for j, x := range v {
			dst[j*w+off] = uint64(uint32(x)^1<<31) ^ flip
		}
	case []int64:
		for j, x := range v {
			dst[j*w+off] = uint64(x) ^ 1<<63 ^ flip
		}
	case []float32:
		for j, x := range v {
			dst[j*w+off] = uint64(tickwork.QueryFloatKey32(x)) ^ flip
		}
	case []float64:
		for j, x := range v {
			dst[j*w+off] = tickwork.QueryFloatKey64(x) ^ flip
		}
	case []bool:
		for j, x := range v {
			dst[j*w+off] = uint64(b2i(x)) ^ flip
		}
	case []tickwork.Handle:
		for j, x := range v {
			dst[j*w+off] = tickwork.QueryHandleKey(x) ^ flip
		}
	}
}

func keyVec[T any](fill func([]int32, []T), flip uint64) keyEmitter {
	tmp := make([]T, spanRows)
	return func(rows []int32, dst []uint64, off, w int) {
		v := tmp[:len(rows)]
		fill(rows, v)
		putKeys(v, dst, off, w, flip)
	}
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
				return keyVec(v.i32, flip)
			case schema.Int64:
				return keyVec(v.i64, flip)
			case schema.Float32:
				return keyVec(v.f32, flip)
			case schema.Float64:
				return keyVec(v.f64, flip)
			case schema.Bool:
				return keyVec(v.b, flip)
			case schema.Ref:
				return keyVec(v.h, flip)
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
