package codegen

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// lifecycleTypes writes the row type of each lifecycle event table: a
// field per column its delete and detach events keep, tagged with the
// column's name when the exported name differs (tickwork.LifecycleEvent).
func (g *gen) lifecycleTypes() {
	for _, l := range g.s.Lifecycles {
		n := exported(l.Name)
		g.doc("%s is what a delete or detach event of lifecycle event table %s keeps of a row of table %s (%s): Tables.%s holds tickwork.LifecycleEvent[%s]s.",
			n, l.Name, l.Table.Name, g.where(l.Pos), n, n)
		g.p("type %s struct {", n)
		for _, c := range l.Columns {
			tag := ""
			if exported(c.Name) != c.Name {
				tag = fmt.Sprintf(" `tickwork:%q`", c.Name)
			}
			g.p("%s %s%s", exported(c.Name), goType(c.Type), tag)
		}
		g.p("}")
		g.p("")
	}
}

// lifecycleFields writes the Tables fields of the lifecycle event tables.
func (g *gen) lifecycleFields() {
	for _, l := range g.s.Lifecycles {
		g.p("%s *tickwork.Events[tickwork.LifecycleEvent[%s]] // the lifecycle events of table %s", exported(l.Name), exported(l.Name), l.Table.Name)
	}
}

// declareLifecycles writes Declare's tickwork.Lifecycle calls.
func (g *gen) declareLifecycles() {
	for _, l := range g.s.Lifecycles {
		on := make([]string, len(l.On))
		for i, ch := range l.On {
			on[i] = "tickwork." + exported(ch)
		}
		g.p("t.%s = tickwork.Lifecycle[%s](b, t.%s.Table, tickwork.LifecycleSpec{Name: %q, Capacity: sz.%s, On: %s})",
			exported(l.Name), exported(l.Name), exported(l.Table.Name), l.Name, exported(l.Name), strings.Join(on, " | "))
	}
}

// lifecycleSized lists the Sizes fields of the lifecycle event tables.
func lifecycleSized(ls []*schema.Lifecycle) []sized {
	var out []sized
	for _, l := range ls {
		out = append(out, sized{l.Name, "lifecycle event table", "events", l.Capacity})
	}
	return out
}
