package frame

import (
	"slices"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
)

// Overlap is one datum two manifests both touch, at least one of them
// writing it (docs/architecture.md, Access rules); the scheduler reports
// it as a scheduler.Overlap.
type Overlap struct {
	// Datum names what is shared: "table.column" for a column, "T" or
	// "T|U" for the structure of one domain recorded by both (tables T
	// and U), "event NAME" or "resource NAME".
	Datum string
	// A and B say how the first and second manifest touch it: "read",
	// "read by run condition" (docs/architecture.md, Run conditions),
	// "write", "record TABLE", "emit" or "consume".
	A, B string
}

// String formats the overlap as "A/B Datum", such as "write/read Body.x".
func (o Overlap) String() string { return o.A + "/" + o.B + " " + o.Datum }

// Conflicts appends to dst every overlap of a and b under the access rules
// (docs/architecture.md, Access rules) and returns it (nil or dst
// unchanged when they do not conflict). Overlaps come kind by kind
// (columns, recorded domains, event tables, resources), each in the
// order of a's manifest (written columns first). Pure; it allocates: call it at set-up.
func Conflicts(dst []Overlap, a, b *Manifest) []Overlap {
	bc := b.columns()
	for _, ca := range a.columns() {
		for _, cb := range bc {
			if ca.ref == cb.ref && (ca.write || cb.write) {
				d := ca.ref.String()
				dst = append(dst, Overlap{Datum: d, A: a.rw(ca.write, d), B: b.rw(cb.write, d)})
			}
		}
	}
	for _, ta := range a.Records {
		for _, tb := range b.Records {
			if sameDomain(ta, tb) {
				d := ta.Name()
				if tb != ta {
					d += "|" + tb.Name()
				}
				dst = append(dst, Overlap{Datum: d, A: "record " + ta.Name(), B: "record " + tb.Name()})
			}
		}
	}
	be := b.eventUses()
	for _, ea := range a.eventUses() {
		for _, eb := range be {
			if ea.b == eb.b && (ea.emit || eb.emit) {
				dst = append(dst, Overlap{Datum: "event " + ea.b.Name(), A: ea.op(), B: eb.op()})
			}
		}
	}
	for _, ra := range a.Resources {
		for _, rb := range b.Resources {
			if ra.Resource == rb.Resource && (ra.Write || rb.Write) {
				d := "resource " + ra.Resource.Name()
				dst = append(dst, Overlap{Datum: d, A: a.rw(ra.Write, d), B: b.rw(rb.Write, d)})
			}
		}
	}
	return dst
}

// rw says how m touches datum: "write", "read by run condition" (a read
// of one of its run conditions, CondReads) or "read".
func (m *Manifest) rw(write bool, datum string) string {
	switch {
	case write:
		return "write"
	case slices.Contains(m.CondReads, datum):
		return "read by run condition"
	}
	return "read"
}

func sameDomain(a, b *ephemeral.Table) bool { return a == b || a.Domain() == b.Domain() }

type colUse struct {
	ref   ColumnRef
	write bool
}

// columns lists written columns, then read ones (a manifest keeps them
// apart).
func (m *Manifest) columns() []colUse {
	out := make([]colUse, 0, len(m.Writes)+len(m.Reads))
	for _, r := range m.Writes {
		out = append(out, colUse{r, true})
	}
	for _, r := range m.Reads {
		out = append(out, colUse{r, false})
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
// ThisFrame ones as reads; NextFrame consumes are left out (they read the
// previous frame's events).
func (m *Manifest) eventUses() []eventUse {
	var out []eventUse
	for _, b := range m.Emits {
		out = append(out, eventUse{b, true})
	}
	for _, b := range m.Consumes {
		if b.Lifetime() == events.ThisFrame && !containsBuffer(m.Emits, b) {
			out = append(out, eventUse{b, false})
		}
	}
	return out
}

func containsBuffer(bs []events.Buffer, b events.Buffer) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}
