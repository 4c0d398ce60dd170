package schema

import (
	"fmt"
	"slices"
	"strings"
)

// The checks of the declared systems' order that Build would otherwise
// make without a schema position (docs/schema.md, Systems, Ordering): a
// constraint against the phase order, and two systems of a phase that
// touch the same data with no chain of constraints between them.

// orderRef is one name of a system's before or after option.
type orderRef struct {
	sys    *System
	before bool // before: sys runs before name; after: name runs before sys
	name   string
	pos    Pos
}

func (o orderRef) rel() string {
	if o.before {
		return "before"
	}
	return "after"
}

// phaseOrder reports each before/after naming a declared system of
// another phase that the phase order contradicts, at the name. It needs
// only the two phases: a system whose body failed to check takes part.
func (c *checker) phaseOrder() {
	for _, o := range c.orders {
		if !slices.Contains(c.phased, o.sys) {
			continue // its phase failed to check
		}
		var other *System
		for _, y := range c.phased {
			if y.Name == o.name {
				other = y
			}
		}
		if other == nil || other.Phase == o.sys.Phase {
			continue
		}
		if o.before == (other.Phase > o.sys.Phase) {
			continue
		}
		c.errorf(o.pos, KindValue, "system %s (phase %s) cannot run %s %s (phase %s): phases run in the order %s; drop %s: %s or move one of them to the other's phase",
			o.sys.Name, o.sys.Phase, o.rel(), other.Name, other.Phase, strings.Join(phaseNames[:], ", "), o.rel(), other.Name)
	}
}

// conflicts reports each pair of declared systems of one phase that no
// chain of before/after constraints orders (through declared and extern
// systems) and whose manifests overlap under the engine's access rules
// (docs/architecture.md, Access rules), at the later system's name.
func (c *checker) conflicts() {
	ys := c.s.Systems
	idx := map[string]int{}
	for i, y := range ys {
		idx[y.Name] = i
	}
	for _, x := range c.s.Externs {
		idx[x.Name] = len(idx)
	}
	succ := make([][]int, len(idx))
	for _, o := range c.orders {
		i, ok := idx[o.sys.Name]
		j, ok2 := idx[o.name]
		if !ok || !ok2 || !slices.Contains(ys, o.sys) {
			continue
		}
		// An extern's phase is not known here; a chain through it that
		// crosses phases is refused by Build, so it can only order.
		if j < len(ys) && ys[j].Phase != o.sys.Phase {
			continue
		}
		if !o.before {
			i, j = j, i
		}
		succ[i] = append(succ[i], j)
	}
	reach := func(from, to int) bool {
		seen := make([]bool, len(succ))
		stack := []int{from}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, m := range succ[n] {
				if m == to {
					return true
				}
				if !seen[m] {
					seen[m] = true
					stack = append(stack, m)
				}
			}
		}
		return false
	}
	for j, b := range ys {
		for i, a := range ys[:j] {
			if a.Phase != b.Phase || reach(i, j) || reach(j, i) {
				continue
			}
			if ov := overlaps(a, b); len(ov) > 0 {
				c.errorf(b.Pos, KindAccess, "systems %s (%s) and %s of phase %s are not ordered, and %s; order them: add after: %s to system %s, or before: %s to system %s",
					a.Name, a.Pos, b.Name, b.Phase, strings.Join(ov, ", "), a.Name, b.Name, b.Name, a.Name)
			}
		}
	}
}

// manifestColumns are the columns a declared system's declaration reads
// and writes: its access, and for a join that uses no column of its table
// the column its probe is declared on (a read of the table's first
// column: the generator's probe).
func manifestColumns(y *System) (reads, writes []*Column) {
	reads = slices.Clone(y.Access.Reads)
	for _, j := range y.Joins {
		used := false
		for _, u := range y.Access.Uses {
			used = used || u.Var == j.Var
		}
		if !used && len(j.Table.Columns) > 0 && !slices.Contains(reads, j.Table.Columns[0]) && !slices.Contains(y.Access.Writes, j.Table.Columns[0]) {
			reads = append(reads, j.Table.Columns[0])
		}
	}
	return reads, y.Access.Writes
}

// overlaps lists, in words, the data systems a and b both touch with at
// least one of them writing: the access rules of the engine's conflict
// check (columns, tables deleted from in one domain, event tables).
func overlaps(a, b *System) []string {
	var out []string
	ar, aw := manifestColumns(a)
	br, bw := manifestColumns(b)
	for _, k := range aw {
		name := k.Table.Name + "." + k.Name
		switch {
		case slices.Contains(bw, k):
			out = append(out, "both write "+name)
		case slices.Contains(br, k):
			out = append(out, fmt.Sprintf("%s writes %s, which %s reads", a.Name, name, b.Name))
		}
	}
	for _, k := range bw {
		if slices.Contains(ar, k) {
			out = append(out, fmt.Sprintf("%s writes %s.%s, which %s reads", b.Name, k.Table.Name, k.Name, a.Name))
		}
	}
	for _, ta := range a.Access.Deletes {
		for _, tb := range b.Access.Deletes {
			switch {
			case ta == tb:
				out = append(out, "both delete from "+ta.Name)
			case ta.Domain != nil && ta.Domain == tb.Domain:
				out = append(out, fmt.Sprintf("both delete from domain %s (%s from %s, %s from %s)", ta.Domain.Name, a.Name, ta.Name, b.Name, tb.Name))
			}
		}
	}
	thisFrame := func(y *System, e *EventTable) bool {
		return e.Lifetime == ThisFrame && slices.Contains(y.Access.Consumes, e) && !slices.Contains(y.Access.Emits, e)
	}
	for _, e := range a.Access.Emits {
		switch {
		case slices.Contains(b.Access.Emits, e):
			out = append(out, "both emit "+e.Name)
		case thisFrame(b, e):
			out = append(out, fmt.Sprintf("%s emits %s, which %s consumes in the same frame", a.Name, e.Name, b.Name))
		}
	}
	for _, e := range b.Access.Emits {
		if thisFrame(a, e) {
			out = append(out, fmt.Sprintf("%s emits %s, which %s consumes in the same frame", b.Name, e.Name, a.Name))
		}
	}
	return out
}
