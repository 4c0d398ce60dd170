// Package wire holds the byte-level helpers of the snapshot format
// (docs/state.md): little-endian appenders, a bounds-checked reader, byte
// views of pointer-free slices and the bool check of raw values. It imports
// nothing of Tickwork, so every engine package that keeps state may use it.
package wire

import (
	"encoding/binary"
	"reflect"
	"unsafe"
)

// LittleEndian reports whether the machine stores integers little-endian,
// the byte order of the snapshot format (raw column, event and resource
// bytes are copied as they sit in memory).
var LittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// U32 appends v, little-endian. Allocates only when dst grows.
func U32(dst []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(dst, v) }

// U64 appends v, little-endian. Allocates only when dst grows.
func U64(dst []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(dst, v) }

// Bytes is the memory of s as bytes: len(s)*sizeof(T) bytes, aliasing s.
// T must be pointer-free (the caller's contract).
func Bytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(s[0]))
}

// Reader decodes a byte slice front to back. A read past the end sets Bad
// and returns zeros, so a decoder checks once, at the end.
type Reader struct {
	B   []byte
	Bad bool
}

// U32 reads a little-endian uint32.
func (r *Reader) U32() uint32 {
	if len(r.B) < 4 {
		r.Bad, r.B = true, nil
		return 0
	}
	v := binary.LittleEndian.Uint32(r.B)
	r.B = r.B[4:]
	return v
}

// U64 reads a little-endian uint64.
func (r *Reader) U64() uint64 {
	if len(r.B) < 8 {
		r.Bad, r.B = true, nil
		return 0
	}
	v := binary.LittleEndian.Uint64(r.B)
	r.B = r.B[8:]
	return v
}

// Peek32 is the little-endian uint32 at the front, 0 when fewer than 4
// bytes remain; it consumes nothing.
func (r Reader) Peek32() uint32 {
	if len(r.B) < 4 {
		return 0
	}
	return binary.LittleEndian.Uint32(r.B)
}

// Next returns the next n bytes (aliasing the input), or nil and Bad when
// fewer remain. n may come from the input: it is bounded by what is left.
func (r *Reader) Next(n uint64) []byte {
	if uint64(len(r.B)) < n {
		r.Bad, r.B = true, nil
		return nil
	}
	b := r.B[:n:n]
	r.B = r.B[n:]
	return b
}

// BoolOffsets lists the byte offsets of the bool fields of a pointer-free
// type t (arrays and structs walked), in order; nil when it has none. A raw
// value whose bool bytes are neither 0 nor 1 is no value of t (CheckBools).
// It allocates: call it at set-up.
func BoolOffsets(t reflect.Type) []uintptr {
	var out []uintptr
	var walk func(t reflect.Type, base uintptr)
	walk = func(t reflect.Type, base uintptr) {
		switch t.Kind() {
		case reflect.Bool:
			out = append(out, base)
		case reflect.Array:
			for i := 0; i < t.Len(); i++ {
				walk(t.Elem(), base+uintptr(i)*t.Elem().Size())
			}
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				walk(f.Type, base+f.Offset)
			}
		}
	}
	walk(t, 0)
	return out
}

// CheckBools reports whether every element of b (elements of size bytes)
// holds 0 or 1 at each of offs. Allocates nothing.
func CheckBools(b []byte, size uintptr, offs []uintptr) bool {
	if len(offs) == 0 || size == 0 {
		return true
	}
	if size == 1 { // a bool column or slice: 8 bytes at a time
		var or uint64
		i := 0
		for ; i+8 <= len(b); i += 8 {
			or |= binary.LittleEndian.Uint64(b[i:])
		}
		for ; i < len(b); i++ {
			or |= uint64(b[i])
		}
		return or&0xfefefefefefefefe == 0
	}
	for e := uintptr(0); e+size <= uintptr(len(b)); e += size {
		for _, o := range offs {
			if b[e+o] > 1 {
				return false
			}
		}
	}
	return true
}
