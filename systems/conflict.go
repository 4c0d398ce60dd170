package systems

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
)

// Overlap is one datum two manifests both touch, at least one of them
// writing it (see the package doc's access rules).
type Overlap struct {
	// Datum names what is shared: "table.column" for a column (also when
	// the other side changes the structure of its domain), "T" or "T|U"
	// for two structural changes in one domain (of tables T and U),
	// "event NAME" or "resource NAME".
	Datum string
	// A and B say how the first and second manifest touch it: "read",
	// "write", "emit", "consume", "create TABLE" or "delete TABLE".
	A, B string
}

// String formats the overlap as "A/B Datum", such as "write/read Body.x".
func (o Overlap) String() string { return o.A + "/" + o.B + " " + o.Datum }

// Conflicts appends to dst every overlap of a and b and returns it (nil or
// dst unchanged when they do not conflict): columns written by one and read
// or written by the other; structural changes (Creates, Deletes) of a table
// against any column access or structural change in a table of its domain;
// events emitted by both, or emitted by one and consumed (ThisFrame
// lifetime) by the other; resources written by one and used by the other.
// Overlaps come kind by kind in that order, each kind in the order of a's
// manifest (written columns before read ones). Pure; call it at set-up: it
// may allocate.
func Conflicts(dst []Overlap, a, b *Manifest) []Overlap {
	ac, bc := a.columns(), b.columns()
	as, bs := a.structural(), b.structural()
	// Columns.
	for _, ca := range ac {
		for _, cb := range bc {
			if ca.ref == cb.ref && (ca.write || cb.write) {
				dst = append(dst, Overlap{Datum: ca.ref.String(), A: rw(ca.write), B: rw(cb.write)})
			}
		}
	}
	// Structure against columns, both ways, then structure against structure.
	for _, sa := range as {
		for _, cb := range bc {
			if sameDomain(sa.t, cb.ref.Table) {
				dst = append(dst, Overlap{Datum: cb.ref.String(), A: sa.op + " " + sa.t.Name(), B: rw(cb.write)})
			}
		}
	}
	for _, ca := range ac {
		for _, sb := range bs {
			if sameDomain(sb.t, ca.ref.Table) {
				dst = append(dst, Overlap{Datum: ca.ref.String(), A: rw(ca.write), B: sb.op + " " + sb.t.Name()})
			}
		}
	}
	for _, sa := range as {
		for _, sb := range bs {
			if sameDomain(sa.t, sb.t) {
				d := sa.t.Name()
				if sb.t != sa.t {
					d += "|" + sb.t.Name()
				}
				dst = append(dst, Overlap{Datum: d, A: sa.op + " " + sa.t.Name(), B: sb.op + " " + sb.t.Name()})
			}
		}
	}
	// Events: emit is a write, consuming a ThisFrame table a read.
	be := b.eventUses()
	for _, ea := range a.eventUses() {
		for _, eb := range be {
			if ea.b == eb.b && (ea.emit || eb.emit) {
				dst = append(dst, Overlap{Datum: "event " + ea.b.Name(), A: ea.op(), B: eb.op()})
			}
		}
	}
	// Resources.
	br := b.resources()
	for _, ra := range a.resources() {
		for _, rb := range br {
			if ra.Name == rb.Name && (ra.Write || rb.Write) {
				dst = append(dst, Overlap{Datum: "resource " + ra.Name, A: rw(ra.Write), B: rw(rb.Write)})
			}
		}
	}
	return dst
}

func rw(write bool) string {
	if write {
		return "write"
	}
	return "read"
}

func sameDomain(a, b *ephemeral.Table) bool { return a == b || a.Domain() == b.Domain() }

type colUse struct {
	ref   ColumnRef
	write bool
}

// columns lists each column once, written ones first, as written.
func (m *Manifest) columns() []colUse {
	var out []colUse
	add := func(r ColumnRef, w bool) {
		for _, u := range out {
			if u.ref == r {
				return
			}
		}
		out = append(out, colUse{r, w})
	}
	for _, r := range m.Writes {
		add(r, true)
	}
	for _, r := range m.Reads {
		add(r, false)
	}
	return out
}

type structUse struct {
	t  *ephemeral.Table
	op string
}

// structural lists each (table, create|delete) once.
func (m *Manifest) structural() []structUse {
	var out []structUse
	add := func(t *ephemeral.Table, op string) {
		for _, u := range out {
			if u.t == t && u.op == op {
				return
			}
		}
		out = append(out, structUse{t, op})
	}
	for _, t := range m.Creates {
		add(t, "create")
	}
	for _, t := range m.Deletes {
		add(t, "delete")
	}
	return out
}

type eventUse struct {
	b    events.Buffer
	emit bool
}

func (u eventUse) op() string {
	if u.emit {
		return "emit"
	}
	return "consume"
}

// eventUses lists each event table once: emitted ones as emits, consumed
// ThisFrame ones as reads; NextFrame consumes are left out (they read only
// events published at an earlier boundary).
func (m *Manifest) eventUses() []eventUse {
	var out []eventUse
	add := func(b events.Buffer, emit bool) {
		for _, u := range out {
			if u.b == b {
				return
			}
		}
		out = append(out, eventUse{b, emit})
	}
	for _, b := range m.Emits {
		add(b, true)
	}
	for _, b := range m.Consumes {
		if b.Lifetime() == events.ThisFrame {
			add(b, false)
		}
	}
	return out
}
