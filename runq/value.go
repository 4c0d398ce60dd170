package runq

import (
	"math"
	"strconv"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// Value is one typed value of a query's result or parameter: a kind and
// its bits (a float keeps its exact bits, NaN payload and -0 included).
// The zero Value is an invalid one (Kind 0). Make one with [I32], [I64],
// [F32], [F64], [Bool] or [Ref]; compare two with ==, bit for bit.
type Value struct {
	bits uint64
	kind schema.TypeKind
}

// I32 is an int32 value.
func I32(v int32) Value { return Value{uint64(uint32(v)), schema.Int32} }

// I64 is an int64 value.
func I64(v int64) Value { return Value{uint64(v), schema.Int64} }

// F32 is a float32 value (its bits kept).
func F32(v float32) Value { return Value{uint64(math.Float32bits(v)), schema.Float32} }

// F64 is a float64 value (its bits kept).
func F64(v float64) Value { return Value{math.Float64bits(v), schema.Float64} }

// Bool is a bool value.
func Bool(v bool) Value {
	if v {
		return Value{1, schema.Bool}
	}
	return Value{0, schema.Bool}
}

// Ref is a handle value (a ref parameter or a row's handle).
func Ref(h tickwork.Handle) Value { return Value{uint64(h), schema.Ref} }

// Kind is the value's type: schema.Int32, Int64, Float32, Float64, Bool or
// Ref.
func (v Value) Kind() schema.TypeKind { return v.kind }

// Int32 is an Int32 value's value (the low 32 bits otherwise).
func (v Value) Int32() int32 { return int32(uint32(v.bits)) }

// Int64 is an Int64 value's value.
func (v Value) Int64() int64 { return int64(v.bits) }

// Float32 is a Float32 value's value.
func (v Value) Float32() float32 { return math.Float32frombits(uint32(v.bits)) }

// Float64 is a Float64 value's value.
func (v Value) Float64() float64 { return math.Float64frombits(v.bits) }

// Bool is a Bool value's value.
func (v Value) Bool() bool { return v.bits != 0 }

// Handle is a Ref value's handle.
func (v Value) Handle() tickwork.Handle { return tickwork.Handle(v.bits) }

// String prints the value as Go would (a handle as Handle.String).
func (v Value) String() string {
	switch v.kind {
	case schema.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case schema.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	case schema.Float32:
		return strconv.FormatFloat(float64(v.Float32()), 'g', -1, 32)
	case schema.Float64:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 64)
	case schema.Bool:
		return strconv.FormatBool(v.Bool())
	case schema.Ref:
		return v.Handle().String()
	}
	return "invalid"
}
