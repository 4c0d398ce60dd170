package ephemeral

// Structural changes that let an entity pass between the tables of its
// domain: a row removed without deleting the entity (RemoveRow), an
// entity deleted once it has no row left (DeleteRowless), and a row moved
// from one table to another carrying the columns they share (Move). A
// command playback uses them (package commands, Policies); a host may too.

// RemoveRow removes h's row from t only, as Detach does, but keeps the
// entity alive even when that was its last row: it is then a live entity
// with no rows, as one made by Domain.Create, to Attach to a table of the
// domain or to delete (DeleteRowless, Domain.Delete). removed is false,
// and nothing changes, when h has no live row in t (zero, stale or
// foreign); rowless reports whether the entity has no row left. A
// structural change, as Insert. Allocates nothing.
func (t *Table) RemoveRow(h Handle) (removed, rowless bool) {
	if t.dom.closed != nil || !t.IsAlive(h) {
		return false, false
	}
	if len(t.watchers) != 0 {
		t.tell(Detached, h)
	}
	t.removeRow(h.Index())
	return true, t.dom.rowless(h)
}

// DeleteRowless deletes the live entity h of d when it has no row in any
// member table (its slot is freed, its generation advances) and reports
// whether it did; an entity with a row, or a dead, zero or foreign h, is
// left alone. A structural change, as Create. Allocates nothing.
func (d *Domain) DeleteRowless(h Handle) bool {
	if d.closed != nil || !d.IsAlive(h) || !d.rowless(h) {
		return false
	}
	d.release(h.Index())
	return true
}

// rowless reports whether no member table has a row for the live entity h.
func (d *Domain) rowless(h Handle) bool {
	i, w := h.Index(), h.word()
	for _, t := range d.tables {
		if t.gens[i] == w {
			return false
		}
	}
	return true
}

// Move moves the entity h's row from t to the table to of the same domain,
// in one structural change: the row leaves t and a row at the same slot
// joins to, the entity and its rows in other tables living on (it never
// has no row, so it is never deleted). The columns of to that t also has,
// same name and same element type, carry h's values over; every other
// column of to starts at zero, and the columns of t that to lacks are
// dropped with the row. This is the exchange of Bevy's and Ark's
// archetype moves (Ark's Exchange, Bevy's insert and remove of
// components on one entity): components both sides have keep their
// values, added ones are zero (here: no initial value but zero), removed
// ones are gone.
//
// It returns ErrForeignHandle when h is a nonzero handle of another
// domain, ErrStaleHandle when h has no live row in t (zero, dead, or an
// entity whose rows are elsewhere) and ErrRowExists when h already has a
// row in to; nothing changes then. It panics when to is nil, t itself or
// of another domain (programmer misuse). A structural change, as Insert;
// the first Move between two tables allocates the pairing of their
// columns, later ones allocate nothing.
func (t *Table) Move(h Handle, to *Table) error {
	if to == nil || to == t || to.dom != t.dom {
		movePanic(t, to)
	}
	if t.dom.closed != nil {
		return t.dom.closed
	}
	if !t.IsAlive(h) {
		if t.dom.foreign(h) {
			return ErrForeignHandle
		}
		return ErrStaleHandle
	}
	i := h.Index()
	if to.gens[i] != 0 {
		return ErrRowExists
	}
	if len(t.watchers) != 0 { // the row's last values in t, before anything moves
		t.tell(Detached, h)
	}
	to.enable(h)
	pl := t.movePlan(to)
	for k, c := range to.cols {
		if j := pl.src[k]; j >= 0 {
			sz := pl.size[k]
			copy(c.raw()[uintptr(i)*sz:uintptr(i+1)*sz], t.cols[j].raw()[uintptr(i)*sz:])
		} else {
			c.zeroRange(i, i+1)
		}
	}
	t.removeRow(i)
	if len(to.watchers) != 0 {
		to.tell(Attached, h)
	}
	return nil
}

// movePlan pairs the columns of to with those of t: for to's k-th column,
// src[k] is the index of t's column of the same name and element type, or
// -1. Kept on t, one per destination, and remade when either table gained
// a column since.
type movePlan struct {
	to         *Table
	nFrom, nTo int
	src        []int
	size       []uintptr
}

func (t *Table) movePlan(to *Table) *movePlan {
	for k := range t.moves {
		if pl := &t.moves[k]; pl.to == to {
			if pl.nFrom == len(t.cols) && pl.nTo == len(to.cols) {
				return pl
			}
			*pl = makeMovePlan(t, to)
			return pl
		}
	}
	t.moves = append(t.moves, makeMovePlan(t, to))
	return &t.moves[len(t.moves)-1]
}

func makeMovePlan(t, to *Table) movePlan {
	pl := movePlan{to: to, nFrom: len(t.cols), nTo: len(to.cols),
		src: make([]int, len(to.cols)), size: make([]uintptr, len(to.cols))}
	for k, c := range to.cols {
		pl.src[k] = -1
		for j, f := range t.cols {
			if f.name() == c.name() && f.elemType() == c.elemType() {
				pl.src[k], pl.size[k] = j, c.elemType().Size()
				break
			}
		}
	}
	return pl
}

// movePanic reports a Move to a nil table, to the table itself or to a
// table of another domain.
//
//go:noinline
func movePanic(t, to *Table) {
	switch {
	case to == nil:
		panic("ephemeral: Move of a row of table " + t.name + " to a nil table: pass the *Table returned by NewTable")
	case to == t:
		panic("ephemeral: Move of a row of table " + t.name + " to itself: move to another table of its domain")
	default:
		panic("ephemeral: Move of a row of table " + t.name + " to table " + to.name +
			" of another domain: a row moves only between tables of one domain (its handle names its slot there)")
	}
}
