package wire

import (
	"reflect"
	"strconv"
)

// Layout describes t by its memory layout, for a world's fingerprint
// (docs/state.md, "What the fingerprint covers"): its kind, size and
// alignment, a struct's fields (name, offset, layout) in order, an array's
// length and element, a slice's or pointer's element; a named type adds
// its bare name (no package path), so moving a type to another package
// keeps its layout and a changed field type, order or name does not. A
// named type met again inside itself is its name only. It allocates; call
// it at set-up.
func Layout(t reflect.Type) string {
	return string(layout(nil, t, map[reflect.Type]bool{}))
}

func layout(dst []byte, t reflect.Type, open map[reflect.Type]bool) []byte {
	if t.Name() != "" {
		dst = append(dst, t.Name()...)
		if open[t] {
			return dst
		}
		if t.Name() == t.Kind().String() { // a predeclared type: its kind says all but int's size
			return append(dst, "/"+strconv.FormatUint(uint64(t.Size()), 10)...)
		}
		open[t] = true
		defer delete(open, t)
		dst = append(dst, '=')
	}
	dst = append(dst, t.Kind().String()+"/"+strconv.FormatUint(uint64(t.Size()), 10)+"/"+strconv.Itoa(t.Align())...)
	switch t.Kind() {
	case reflect.Struct:
		dst = append(dst, '{')
		for i := range t.NumField() {
			f := t.Field(i)
			if i > 0 {
				dst = append(dst, ' ')
			}
			dst = append(dst, f.Name+"@"+strconv.FormatUint(uint64(f.Offset), 10)+":"...)
			dst = layout(dst, f.Type, open)
		}
		dst = append(dst, '}')
	case reflect.Array:
		dst = append(dst, "["+strconv.Itoa(t.Len())+"]"...)
		dst = layout(dst, t.Elem(), open)
	case reflect.Slice, reflect.Pointer, reflect.Chan:
		dst = append(dst, ' ')
		dst = layout(dst, t.Elem(), open)
	case reflect.Map:
		dst = append(dst, " ["...)
		dst = layout(dst, t.Key(), open)
		dst = append(dst, ']')
		dst = layout(dst, t.Elem(), open)
	}
	return dst
}
