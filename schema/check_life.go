package schema

import (
	"slices"

	"github.com/tickwork/tickwork/ephemeral"
)

// lifecycle checks a lifecycle event table: its table, its options
// (capacity required, on optional) and the columns its delete and detach
// events keep (docs/schema.md, Lifecycle event tables).
func (c *checker) lifecycle(l *Lifecycle, d *synLifeDecl) {
	of := "lifecycle event table " + d.Name.Name
	if dd, found := c.names[d.Table.Name]; !found {
		c.errorf(c.pos(d.Table.Pos), KindUnknown, "unknown table %q of %s%s", d.Table.Name, of, c.hint(d.Table.Name, "table"))
	} else if dd.table == nil {
		c.errorf(c.pos(d.Table.Pos), KindType, "%s of %s is %s, not a table: lifecycle events are those of a table's rows", d.Table.Name, of, article(dd.what))
	} else {
		l.Table = dd.table
	}
	opts := c.options(d.Opts, of, "capacity", "on")
	if o := opts["capacity"]; o != nil {
		l.Capacity, _ = c.intOption(o, of, 1, ephemeral.MaxCapacity)
	} else {
		c.errorf(c.pos(d.Name.Pos), KindMissing, "%s has no capacity; add (capacity: N), the most events it holds", of)
	}
	l.On = LifecycleChanges
	if o := opts["on"]; o != nil {
		l.On = c.lifecycleChanges(o, of)
	}
	if l.Table == nil {
		return
	}
	for _, id := range d.Columns {
		i := slices.IndexFunc(l.Table.Columns, func(col *Column) bool {
			return col.Name == id.Name || (col.Group != nil && col.Group.Name == id.Name)
		})
		switch {
		case i < 0:
			c.errorf(c.pos(id.Pos), KindUnknown, "%s keeps column %q, which table %s does not have%s", of, id.Name, l.Table.Name, columnHint(id.Name, l.Table))
		case l.Table.Columns[i].Group != nil:
			c.errorf(c.pos(id.Pos), KindType, "%s keeps column %s, of struct %s: a lifecycle event keeps columns of int32, int64, float32, float64, bool or ref only",
				of, id.Name, l.Table.Columns[i].Group.Struct.Name)
		case slices.Contains(l.Columns, l.Table.Columns[i]):
			c.errorf(c.pos(id.Pos), KindDuplicate, "%s keeps column %s twice; keep one", of, id.Name)
		default:
			l.Columns = append(l.Columns, l.Table.Columns[i])
		}
	}
}

// lifecycleChanges reads an on option: a list of changes, each once, in
// any order; the result is in LifecycleChanges' order.
func (c *checker) lifecycleChanges(o *synOption, of string) []string {
	if !o.Value.IsList || len(o.Value.List) == 0 {
		c.errorf(c.pos(o.Value.Pos), KindType, "option on of %s must be a list of changes, such as [deleted, detached]; the changes are created, attached, deleted and detached", of)
		return nil
	}
	seen := map[string]bool{}
	for _, id := range o.Value.List {
		switch {
		case !slices.Contains(LifecycleChanges, id.Name):
			c.errorf(c.pos(id.Pos), KindUnknown, "unknown change %q in option on of %s%s", id.Name, of, suggest(id.Name, LifecycleChanges, "changes"))
		case seen[id.Name]:
			c.errorf(c.pos(id.Pos), KindDuplicate, "change %s is given twice in option on of %s; keep one", id.Name, of)
		}
		seen[id.Name] = true
	}
	var on []string
	for _, ch := range LifecycleChanges {
		if seen[ch] {
			on = append(on, ch)
		}
	}
	return on
}

// columnHint suggests a column of t close to name.
func columnHint(name string, t *Table) string {
	cands := make([]string, 0, len(t.Columns))
	for _, col := range t.Columns {
		n := col.Name
		if col.Group != nil {
			n = col.Group.Name
		}
		if !slices.Contains(cands, n) {
			cands = append(cands, n)
		}
	}
	return suggest(name, cands, "its columns")
}

// lifeHint is what an error naming a lifecycle event table where a
// declared system or query wants a table or an event table adds: who
// fills and who reads one.
func lifeHint(d declared) string {
	if d.life == nil {
		return ""
	}
	return " (playback fills a lifecycle event table; a hand-written system reads it: tickwork.Consume or tickwork.Observe of Tables." + d.life.Name + ")"
}
