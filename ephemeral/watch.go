package ephemeral

import (
	"reflect"
	"unsafe"
)

// RowChange is one structural change of one row of a table, as a Watcher is
// told it. Every row that joins a table is one Created or Attached, every
// row that leaves it one Deleted or Detached, so a watcher that counts
// them follows Table.Len exactly. What a world makes of them:
// docs/architecture.md, Lifecycle events.
type RowChange uint8

// The changes of a row.
const (
	// Created: a new entity with a row in the table (Insert, InsertN, a
	// query's Insert and InsertN, a playback's creates).
	Created RowChange = iota
	// Attached: a row added for an entity that was alive already (Attach,
	// Move into the table).
	Attached
	// Deleted: the row left with its entity's deletion (Delete, DeleteN,
	// Domain.Delete and DeleteN, through any table of the domain).
	Deleted
	// Detached: the row left while its entity lived on at that moment
	// (Detach, RemoveRow, Move out of the table); an entity left with no
	// row dies with it (Detach) or later (Domain.DeleteRowless), and the
	// row's change is still Detached.
	Detached
)

// String is "create", "attach", "delete" or "detach".
func (c RowChange) String() string {
	switch c {
	case Created:
		return "create"
	case Attached:
		return "attach"
	case Deleted:
		return "delete"
	case Detached:
		return "detach"
	}
	return "RowChange(" + itoa(int(c)) + ")"
}

// Watcher is told of every structural change of the rows of the tables it
// watches (Table.Watch), synchronously, from the goroutine that makes the
// change, in the order the changes are made. For Created and Attached it
// is called once the row is live (its columns zero), for Deleted and
// Detached while the row is still live: its columns hold the row's last
// values (RowCopy reads them). Domain.Delete tells the tables of the
// domain that had a row in their definition order. A Watcher must not make
// structural changes itself.
type Watcher interface {
	Watch(c RowChange, h Handle)
}

// Watch adds w to the watchers of t, which are told of t's structural
// changes in the order they were added. A table without watchers pays one
// length test per change (per InsertN). Set-up only: not concurrently
// with anything else on t.
func (t *Table) Watch(w Watcher) { t.watchers = append(t.watchers, w) }

// tell tells t's watchers of change c of h's row.
func (t *Table) tell(c RowChange, h Handle) {
	for _, w := range t.watchers {
		w.Watch(c, h)
	}
}

// RowCopy copies chosen columns of a row of a table into a struct V: each
// field of V takes the value of the table's column of the same name (or
// the name in its `tickwork:"..."` tag) and the same element type, the
// pairing rule of Table.Move. A lifecycle watcher uses it to keep a
// deleted row's last values. Copy allocates nothing; safe from many
// goroutines while no structural change runs, as Column.Get.
type RowCopy[V any] struct {
	fields []rowField
}

type rowField struct {
	off, size uintptr
	src       []byte // the column's memory, pin-stable
	word      bool   // a 4- or 8-byte value aligned to its size: copied as one word
}

// NewRowCopy pairs the fields of V with t's columns. It returns a
// *DefinitionError (errors.Is ErrDefinition and ErrRowCopy) naming the
// table and the field when V is not a struct, or a field has no column of
// its name and type in t (the detail lists t's columns); a V with no
// fields copies nothing. Set-up only: the columns are those of t when it
// is called.
func NewRowCopy[V any](t *Table) (*RowCopy[V], error) {
	if t == nil {
		return nil, &DefinitionError{Err: errNilTable}
	}
	typ := reflect.TypeFor[V]()
	if typ.Kind() != reflect.Struct {
		return nil, &DefinitionError{Table: t.name, Err: ErrRowCopy, Detail: "got " + typ.String() + ", want a struct of column values"}
	}
	rc := &RowCopy[V]{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		name := f.Name
		if tag, ok := f.Tag.Lookup("tickwork"); ok && tag != "" {
			name = tag
		}
		src := -1
		for j, c := range t.cols {
			if c.name() == name && c.elemType() == f.Type {
				src = j
				break
			}
		}
		if src < 0 {
			return nil, &DefinitionError{Table: t.name, Column: name, Err: ErrRowCopy,
				Detail: "field " + typ.String() + "." + f.Name + " of type " + f.Type.String() + "; the table's columns: " + t.columnList()}
		}
		size := f.Type.Size()
		word := (size == 4 || size == 8) && uintptr(f.Type.Align()) == size
		rc.fields = append(rc.fields, rowField{off: f.Offset, size: size, src: t.cols[src].raw(), word: word})
	}
	return rc, nil
}

// columnList names t's columns and their types, for an error's detail.
func (t *Table) columnList() string {
	if len(t.cols) == 0 {
		return "none"
	}
	s := ""
	for i, c := range t.cols {
		if i > 0 {
			s += ", "
		}
		s += c.name() + " " + c.elemType().String()
	}
	return s
}

// Copy writes the values of row's paired columns into dst's fields. row
// must be below the table's Chunks*ChunkRows (a handle's Index); it
// panics otherwise. Allocates nothing.
func (rc *RowCopy[V]) Copy(dst *V, row uint32) {
	out := unsafe.Slice((*byte)(unsafe.Pointer(dst)), unsafe.Sizeof(*dst))
	for _, f := range rc.fields {
		at := uintptr(row) * f.size
		switch {
		case f.word && f.size == 4:
			*(*uint32)(unsafe.Pointer(&out[f.off])) = *(*uint32)(unsafe.Pointer(&f.src[at]))
		case f.word:
			*(*uint64)(unsafe.Pointer(&out[f.off])) = *(*uint64)(unsafe.Pointer(&f.src[at]))
		default:
			copy(out[f.off:f.off+f.size], f.src[at:at+f.size])
		}
	}
}
