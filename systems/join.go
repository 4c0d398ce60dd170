package systems

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
)

// Joins in a system (the rule: package ephemeral, Joins): columns come
// from Read and Write accessors, which declare them; With and Without
// tables enter the manifest as presence reads (frame.Manifest.Presence;
// docs/architecture.md, Access rules). A join whose definition fails
// fails the declaration with a *DefinitionError wrapping the
// *ephemeral.DefinitionError (errors.Is ephemeral.ErrJoinDomains, ...).

// NewJoin declares a join with no column, for tag tables: the entities
// that pass filters (at least one With), as handles (ephemeral.Join.All,
// Chunk, Runs, Mask).
func NewJoin(s *Decl, filters ...ephemeral.Filter) ephemeral.Join {
	d := s.use("NewJoin")
	q, err := ephemeral.NewJoin(filters...)
	return d.join("NewJoin", q, err)
}

// NewJoin1 declares the join of the column of a (from Read or Write of
// this declaration) and filters.
func NewJoin1[A any](a Access[A], filters ...ephemeral.Filter) ephemeral.Join1[A] {
	decl, ca := a.access()
	decl = decl.use("NewJoin1")
	q, err := ephemeral.NewJoin1(ca, filters...)
	q.Join = decl.join("NewJoin1", q.Join, err, tableOf(ca))
	return q
}

// NewJoin2 declares the join of the columns of a and b (accessors of this
// declaration, of any tables of one domain) and filters.
func NewJoin2[A, B any](a Access[A], b Access[B], filters ...ephemeral.Filter) ephemeral.Join2[A, B] {
	decl, ca := a.access()
	decl = decl.use("NewJoin2")
	declB, cb := b.access()
	decl.same("NewJoin2", declB)
	q, err := ephemeral.NewJoin2(ca, cb, filters...)
	q.Join = decl.join("NewJoin2", q.Join, err, tableOf(ca), tableOf(cb))
	return q
}

// NewJoin3 declares the join of the columns of a, b and c and filters, as
// NewJoin2.
func NewJoin3[A, B, C any](a Access[A], b Access[B], c Access[C], filters ...ephemeral.Filter) ephemeral.Join3[A, B, C] {
	decl, ca := a.access()
	decl = decl.use("NewJoin3")
	declB, cb := b.access()
	declC, cc := c.access()
	decl.same("NewJoin3", declB)
	decl.same("NewJoin3", declC)
	q, err := ephemeral.NewJoin3(ca, cb, cc, filters...)
	q.Join = decl.join("NewJoin3", q.Join, err, tableOf(ca), tableOf(cb), tableOf(cc))
	return q
}

// NewJoin4 declares the join of the columns of a, b, c and d and filters,
// as NewJoin2.
func NewJoin4[A, B, C, D any](a Access[A], b Access[B], c Access[C], d Access[D], filters ...ephemeral.Filter) ephemeral.Join4[A, B, C, D] {
	decl, ca := a.access()
	decl = decl.use("NewJoin4")
	declB, cb := b.access()
	declC, cc := c.access()
	declD, cd := d.access()
	decl.same("NewJoin4", declB)
	decl.same("NewJoin4", declC)
	decl.same("NewJoin4", declD)
	q, err := ephemeral.NewJoin4(ca, cb, cc, cd, filters...)
	q.Join = decl.join("NewJoin4", q.Join, err, tableOf(ca), tableOf(cb), tableOf(cc), tableOf(cd))
	return q
}

// Presence declares that the system reads which entities have a row in
// table t (a presence read, as a join's With table) and returns t's lease,
// to probe by handle: Presence(s, stunned).IsAlive(h) asks whether h is
// tagged. A nil t fails the declaration.
func Presence(s *Decl, t *ephemeral.Table) ephemeral.Lease {
	d := s.use("Presence")
	if t == nil {
		d.fail("Presence", "nil table (the Table call that made it failed: its error comes first)")
		return ephemeral.Lease{}
	}
	d.man.Presence = frame.AddNew(d.man.Presence, t)
	return t.Lease()
}

// tableOf is c's table, nil for a nil column.
func tableOf[T any](c *ephemeral.Column[T]) *ephemeral.Table {
	if c == nil {
		return nil
	}
	return c.Table()
}

// join records the failure err of call, or declares the presence reads
// of q: its required and excluded tables other than its columns' tables
// cols, which the column accessors declared.
func (d *Decl) join(call string, q ephemeral.Join, err error, cols ...*ephemeral.Table) ephemeral.Join {
	if err != nil {
		d.failErr(call, err)
		return q
	}
	for _, list := range [2][]*ephemeral.Table{q.Required(), q.Excluded()} {
	next:
		for _, t := range list {
			for _, c := range cols {
				if c == t {
					continue next
				}
			}
			d.man.Presence = frame.AddNew(d.man.Presence, t)
		}
	}
	return q
}
