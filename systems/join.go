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
	return ownLease(t.Lease(), d)
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
