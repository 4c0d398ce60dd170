package systems

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/internal/wire"
)

// ErrResourceState: a resource a snapshot cannot hold (its type holds
// pointers and provides no codec), a codec's error, or resource bytes the
// resource refuses. Returned as a *ResourceStateError.
var ErrResourceState = errors.New("systems: resource state")

// ResourceStateError names the resource whose state could not be taken or
// restored and why; Err is the codec's error, if any. errors.Is(err,
// ErrResourceState) is true, and errors.Is reaches Err.
type ResourceStateError struct {
	Resource string
	Detail   string
	Err      error
}

func (e *ResourceStateError) Error() string {
	s := "systems: resource " + strconv.Quote(e.Resource) + ": " + e.Detail
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is reports whether target is ErrResourceState.
func (e *ResourceStateError) Is(target error) bool { return target == ErrResourceState }

// Unwrap returns the codec's error.
func (e *ResourceStateError) Unwrap() error { return e.Err }

// ops is the snapshot side of a Resource (plumb.Resource, docs/state.md,
// "What a snapshot holds"), which only the runtime calls, through
// plumb.ResourceOf. Its methods touch the value (and CheckState the
// resource's scratch value): the host's goroutine, between frames, one at a
// time.
type ops[T any] Resource[T]

type stateful interface{ plumbing() plumb.Resource }

func (r *Resource[T]) plumbing() plumb.Resource { return (*ops[T])(r) }

func init() {
	plumb.RegisterResource(func(r any) (plumb.Resource, bool) {
		if s, ok := r.(stateful); ok {
			return s.plumbing(), true
		}
		return nil, false
	})
}

func (o *ops[T]) r() *Resource[T]                        { return (*Resource[T])(o) }
func (o *ops[T]) Name() string                           { return o.name }
func (o *ops[T]) AppendState(dst []byte) ([]byte, error) { return o.r().appendState(dst) }
func (o *ops[T]) CheckState(src []byte) error            { return o.r().checkState(src) }
func (o *ops[T]) LoadState(src []byte) error             { return o.r().loadState(src) }
func (o *ops[T]) Describe(dst []byte) []byte             { return o.r().describe(dst) }
func (o *ops[T]) Snapshottable() error                   { return o.r().snapshottable() }
func (o *ops[T]) StateSize() int                         { return o.r().stateSize() }
func (o *ops[T]) StateMax() (int, bool)                  { return o.r().stateMax() }

// SetLenBounds declares the lengths a slice resource may have, in
// elements, minLen..maxLen: a snapshot section outside them is refused by
// CheckState (and by the runtime's Snapshot), and the section's bound is
// maxLen elements (docs/state.md, "Sizes"). It returns a
// *ResourceStateError for a T that is no slice of pointer-free elements,
// minLen < 0, maxLen < minLen, or a value now outside the bounds. Set-up
// only (the runtime's AddSliceResource calls it), before the world is
// built.
func (r *Resource[T]) SetLenBounds(minLen, maxLen int) error {
	if r.state.kind != stateSlice {
		return r.stateErr("length bounds need a slice of pointer-free elements, not "+r.state.typ.String(), nil)
	}
	if minLen < 0 || maxLen < minLen {
		return r.stateErr("length bounds "+strconv.Itoa(minLen)+".."+strconv.Itoa(maxLen)+": want 0 <= minLen <= maxLen", nil)
	}
	if n := reflect.ValueOf(&r.v).Elem().Len(); n < minLen || n > maxLen {
		return r.stateErr("its value has "+strconv.Itoa(n)+" elements, outside its bounds "+strconv.Itoa(minLen)+".."+strconv.Itoa(maxLen), nil)
	}
	r.lens, r.hasLen = [2]int{minLen, maxLen}, true
	return nil
}

// SetCheck declares the host's check of a restored value: CheckState
// decodes a section that passed the byte checks into the resource's
// scratch value and calls check with it; an error refuses the section
// (a *ResourceStateError wrapping it), before anything of the world
// changes (docs/state.md, "Checks before any change"). check must only
// read the value and return an error naming what is wrong with it. A nil
// check removes it. Set-up only (the runtime's CheckResource calls it).
func (r *Resource[T]) SetCheck(check func(*T) error) { r.check = check }

// stateSize is the length appendState appends now; a codec resource
// encodes its value into a buffer it keeps (allocating when that grows,
// as the codec does) to learn it.
func (r *Resource[T]) stateSize() int {
	switch r.state.kind {
	case stateRaw:
		return int(r.state.size)
	case stateSlice:
		return len(sliceBytes(unsafe.Pointer(&r.v), r.state.size))
	case stateCodec:
		out, err := codecOf(&r.v).AppendBinary(r.enc[:0])
		if err != nil {
			return 0
		}
		r.enc = out
		return len(out)
	}
	return 0
}

// stateMax is the largest section checkState accepts: a raw T's size, a
// bounded slice's maxLen elements; a slice without bounds and a codec are
// unbounded (0, false).
func (r *Resource[T]) stateMax() (int, bool) {
	switch r.state.kind {
	case stateRaw:
		return int(r.state.size), true
	case stateSlice:
		if r.hasLen {
			return r.lens[1] * int(r.state.size), true
		}
	}
	return 0, false
}

// codec is the standard contract a resource type provides to be held by
// a snapshot when it is not pointer-free: encoding.BinaryAppender and
// encoding.BinaryUnmarshaler, on T or on *T.
type codec interface {
	encoding.BinaryAppender
	encoding.BinaryUnmarshaler
}

// How a snapshot holds a resource's value.
const (
	stateNone  = iota // holds pointers, no codec: a snapshot refuses it
	stateRaw          // pointer-free T: its bytes
	stateSlice        // []E of pointer-free E: its elements' bytes
	stateCodec        // T or *T is a codec
)

type resourceState struct {
	kind  uint8
	size  uintptr   // T's size (raw) or E's (slice)
	bools []uintptr // byte offsets of the bools of T (raw) or E (slice)
	typ   reflect.Type
}

// stateOf works out how a snapshot holds a T. Set-up only.
func stateOf[T any]() resourceState {
	typ := reflect.TypeFor[T]()
	st := resourceState{typ: typ}
	switch {
	case reflect.PointerTo(typ).Implements(reflect.TypeFor[codec]()) || typ.Implements(reflect.TypeFor[codec]()):
		st.kind = stateCodec
	case ephemeral.PointerPath(typ) == "":
		st.kind, st.size, st.bools = stateRaw, typ.Size(), wire.BoolOffsets(typ)
	case typ.Kind() == reflect.Slice && ephemeral.PointerPath(typ.Elem()) == "":
		st.kind, st.size, st.bools = stateSlice, typ.Elem().Size(), wire.BoolOffsets(typ.Elem())
	}
	return st
}

// codecOf returns the codec of *p (p itself when *T is one, else *p).
func codecOf[T any](p *T) codec {
	if c, ok := any(p).(codec); ok {
		return c
	}
	return any(*p).(codec)
}

func (r *Resource[T]) stateErr(detail string, err error) error {
	return &ResourceStateError{Resource: r.name, Detail: detail, Err: err}
}

// appendState appends the value's state to dst: a pointer-free T as its
// bytes, a slice of pointer-free elements as its elements' bytes, any
// other T through its codec (encoding.BinaryAppender on T or *T). It
// returns a *ResourceStateError (errors.Is ErrResourceState), appending
// nothing, for a T that holds pointers and is no codec, a slice outside
// its declared lengths (SetLenBounds), or the codec's error. Allocates only when dst grows (and what the codec allocates).
func (r *Resource[T]) appendState(dst []byte) ([]byte, error) {
	switch r.state.kind {
	case stateRaw:
		return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(&r.v)), r.state.size)...), nil
	case stateSlice:
		b := sliceBytes(unsafe.Pointer(&r.v), r.state.size)
		if r.hasLen && r.state.size != 0 {
			if n := len(b) / int(r.state.size); n < r.lens[0] || n > r.lens[1] {
				return dst, r.stateErr("it holds "+strconv.Itoa(n)+" elements, outside its declared lengths "+
					strconv.Itoa(r.lens[0])+".."+strconv.Itoa(r.lens[1]), nil)
			}
		}
		return append(dst, b...), nil
	case stateCodec:
		n := len(dst)
		out, err := codecOf(&r.v).AppendBinary(dst)
		if err != nil {
			return dst[:n], r.stateErr("AppendBinary failed", err)
		}
		return out, nil
	}
	return dst, r.snapshottable()
}

// snapshottable returns nil when a snapshot can hold the resource
// (pointer-free, a slice of pointer-free elements, or a codec), else the
// *ResourceStateError AppendState would return. Allocates only the error.
func (r *Resource[T]) snapshottable() error {
	if r.state.kind != stateNone {
		return nil
	}
	return r.stateErr("its type "+r.state.typ.String()+" holds pointers: make it pointer-free, a slice of pointer-free elements, "+
		"or give it encoding.BinaryAppender and encoding.BinaryUnmarshaler", nil)
}

// sliceBytes is the element bytes of the slice header at p.
func sliceBytes(p unsafe.Pointer, size uintptr) []byte {
	s := *(*[]byte)(p) // the header's data pointer and length, in elements
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice(unsafe.SliceData(s), uintptr(len(s))*size)
}

// checkState reports whether src decodes to a value of the resource,
// without touching the value: for a raw T, src is sizeof(T) bytes; for a
// slice, whole elements; bools are 0 or 1. A codec decodes src into a
// scratch value kept by the resource (made on the first call; its
// UnmarshalBinary must accept a zero value, as the encoding contract asks,
// and decide from the bytes alone). It returns a *ResourceStateError
// (errors.Is ErrResourceState, wrapping the codec's error).
func (r *Resource[T]) checkState(src []byte) error {
	st := &r.state
	switch st.kind {
	case stateRaw:
		if uintptr(len(src)) != st.size {
			return r.stateErr(strconv.Itoa(len(src))+" bytes for a "+strconv.FormatUint(uint64(st.size), 10)+"-byte "+st.typ.String(), nil)
		}
	case stateSlice:
		if st.size == 0 && len(src) != 0 || st.size != 0 && uintptr(len(src))%st.size != 0 {
			return r.stateErr(strconv.Itoa(len(src))+" bytes are no whole "+strconv.FormatUint(uint64(st.size), 10)+"-byte elements", nil)
		}
		if st.size != 0 && r.hasLen {
			if n := uintptr(len(src)) / st.size; n < uintptr(r.lens[0]) || n > uintptr(r.lens[1]) {
				return r.stateErr(strconv.FormatUint(uint64(n), 10)+" elements, outside its declared lengths "+
					strconv.Itoa(r.lens[0])+".."+strconv.Itoa(r.lens[1]), nil)
			}
		}
	case stateCodec:
		if err := unmarshalChecked(codecOf(r.scratch()), src); err != nil {
			return r.stateErr("UnmarshalBinary refused the bytes", err)
		}
		return r.runCheck()
	default:
		return r.stateErr("its type "+st.typ.String()+" holds pointers and has no codec", nil)
	}
	if !wire.CheckBools(src, st.size, st.bools) {
		return r.stateErr("a bool that is neither 0 nor 1", nil)
	}
	if r.check != nil {
		decode(r.scratch(), st, src)
		return r.runCheck()
	}
	return nil
}

// runCheck runs the host's check (SetCheck) on the scratch value CheckState
// decoded the section into.
func (r *Resource[T]) runCheck() error {
	if r.check == nil {
		return nil
	}
	if err := r.check(r.spare); err != nil {
		return r.stateErr("its check refused the restored value", err)
	}
	return nil
}

// decode makes *p the raw or slice value src holds (checked): a slice
// keeps its backing array when it has room, else it allocates one, and is
// never nil.
func decode[T any](p *T, st *resourceState, src []byte) {
	switch st.kind {
	case stateRaw:
		copy(unsafe.Slice((*byte)(unsafe.Pointer(p)), st.size), src)
	case stateSlice:
		n := 0
		if st.size != 0 {
			n = len(src) / int(st.size)
		}
		rv := reflect.ValueOf(p).Elem()
		if rv.Cap() < n || rv.IsNil() {
			rv.Set(reflect.MakeSlice(st.typ, n, n))
		}
		rv.SetLen(n)
		copy(sliceBytes(unsafe.Pointer(p), st.size), src)
	}
}

// CodecPanicError is a codec's UnmarshalBinary that panicked on the bytes
// CheckState gave it (a codec that trusts its input): Value is what it
// panicked with. CheckState returns it wrapped in a *ResourceStateError.
type CodecPanicError struct{ Value any }

func (e *CodecPanicError) Error() string {
	return "UnmarshalBinary panicked (" + fmt.Sprint(e.Value) + "): a codec must return an error for bytes it cannot decode"
}

// unmarshalChecked is c.UnmarshalBinary(src), its panic returned as a
// *CodecPanicError.
func unmarshalChecked(c codec, src []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &CodecPanicError{Value: p}
		}
	}()
	return c.UnmarshalBinary(src)
}

// scratch returns the resource's scratch value for CheckState, made on
// first use (a pointer T gets a new pointee).
func (r *Resource[T]) scratch() *T {
	if r.spare == nil {
		r.spare = new(T)
		if r.state.typ.Kind() == reflect.Pointer {
			reflect.ValueOf(r.spare).Elem().Set(reflect.New(r.state.typ.Elem()))
		}
	}
	return r.spare
}

// loadState makes the value the one src encodes, src being a state
// CheckState accepted. A slice keeps its backing array when it has room
// (else it allocates one) and is never nil after it: with no elements it
// is an empty slice (a nil value gets one, allocated once). It returns the codec's error wrapped in a
// *ResourceStateError, which after CheckState means the codec is not
// deterministic.
func (r *Resource[T]) loadState(src []byte) error {
	st := &r.state
	switch st.kind {
	case stateRaw, stateSlice:
		decode(&r.v, st, src)
	case stateCodec:
		if err := codecOf(&r.v).UnmarshalBinary(src); err != nil {
			return r.stateErr("UnmarshalBinary refused bytes its CheckState accepted", err)
		}
	default:
		return r.stateErr("its type holds pointers and has no codec", nil)
	}
	return nil
}

// describe appends a line naming the resource, its type and how a
// snapshot holds it, for a world's fingerprint. It allocates.
func (r *Resource[T]) describe(dst []byte) []byte {
	kinds := [...]string{"none", "raw", "slice", "codec"}
	return append(dst, "resource "+strconv.Quote(r.name)+" "+wire.Layout(r.state.typ)+" "+
		strconv.FormatUint(uint64(r.state.size), 10)+" "+kinds[r.state.kind]+"\n"...)
}
