package ephemeral_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork/ephemeral"
)

// A standalone table with two columns: insert, read and write by handle,
// delete, and what a stale handle gives afterwards.
func ExampleTable() {
	units, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Capacity: 1000})
	if err != nil {
		panic(err)
	}
	hp, _ := ephemeral.AddColumn[int32](units, "hp")
	pos, _ := ephemeral.AddColumn[[2]float32](units, "pos")

	h, _ := units.Insert()
	hp.Set(h, 100)
	pos.Set(h, [2]float32{3, 4})
	v, ok := hp.Get(h)
	// A handle prints as index:generation@tag; the tag depends on how many
	// domains the process made before, so print the slot and generation.
	fmt.Println("slot", h.Index(), "generation", h.Generation(), "hp", v, ok, "len", units.Len())

	units.Delete(h)
	v, ok = hp.Get(h)
	fmt.Println("after delete: hp", v, ok, "set", hp.Set(h, 1), "alive", units.IsAlive(h))

	// The new entity reuses the slot with a new generation: h stays dead.
	h2, _ := units.Insert()
	fmt.Println("new generation", h2.Generation(), "same slot", h2.Index() == h.Index(), "h alive", units.IsAlive(h))
	fmt.Println("delete h again:", units.Delete(h), "len", units.Len())

	// Inserts past capacity fail with a typed error and insert nothing.
	full, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "tiny", Capacity: 1})
	full.Insert()
	_, err = full.Insert()
	var ce *ephemeral.CapacityError
	fmt.Println(errors.Is(err, ephemeral.ErrCapacity), errors.As(err, &ce), ce.Capacity)
	fmt.Println(err)
	// Output:
	// slot 0 generation 1 hp 100 true len 1
	// after delete: hp 0 false set false alive false
	// new generation 3 same slot true h alive false
	// delete h again: false len 1
	// true true 1
	// ephemeral: table "tiny" is full: capacity 1 rows, 1 live, 1 requested
}

// Two tables share a domain: an entity's rows sit at the same slot in
// both, and deleting the entity deletes them all.
func ExampleDomain() {
	dom, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "entities", Capacity: 100})
	units, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Domain: dom})
	bodies, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "bodies", Domain: dom})
	hp, _ := ephemeral.AddColumn[int32](units, "hp")
	vel, _ := ephemeral.AddColumn[[2]float32](bodies, "vel")

	a, _ := units.Insert()
	b, _ := units.Insert()
	_ = bodies.Attach(a) // a gets a Body row too
	hp.Set(a, 10)
	vel.Set(a, [2]float32{1, 0})
	fmt.Println("slots", a.Index(), b.Index(), "units", units.Len(), "bodies", bodies.Len())
	fmt.Println("attach again:", bodies.Attach(a))

	bodies.Delete(a) // deletes a everywhere
	fmt.Println("a in units", units.IsAlive(a), "a in bodies", bodies.IsAlive(a), "entities", dom.Len())
	fmt.Println("attach a:", errors.Is(bodies.Attach(a), ephemeral.ErrStaleHandle))
	// Output:
	// slots 0 1 units 2 bodies 1
	// attach again: ephemeral: entity already has a row in this table
	// a in units false a in bodies false entities 1
	// attach a: true
}

// A kernel walks a column chunk by chunk and, within a chunk, over the runs
// of live rows given by the enabled bitmap.
func ExampleEachRun() {
	t, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "particles", Capacity: 200, ChunkRows: 64})
	x, _ := ephemeral.AddColumn[float32](t, "x")
	v, _ := ephemeral.AddColumn[float32](t, "v")
	hs := make([]ephemeral.Handle, 130)
	_ = t.InsertN(hs)
	for i, h := range hs {
		v.Set(h, 1)
		if i >= 60 && i < 70 || i == 100 {
			t.Delete(h)
		}
	}
	for c := 0; c < t.Chunks(); c++ {
		xs, vs := x.Span(c), v.Span(c)
		ephemeral.EachRun(t.Enabled(c), func(lo, hi int) {
			fmt.Printf("chunk %d rows [%d, %d)\n", c, c*t.ChunkRows()+lo, c*t.ChunkRows()+hi)
			for r := lo; r < hi; r++ {
				xs[r] += vs[r]
			}
		})
	}
	fmt.Println("live", t.Len())
	// Output:
	// chunk 0 rows [0, 60)
	// chunk 1 rows [70, 100)
	// chunk 1 rows [101, 128)
	// chunk 2 rows [128, 130)
	// live 119
}

// A system takes one lease per run, then probes handles at the cost of a
// compare and an index, reading values through the whole column.
func ExampleLease() {
	t, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "targets", Capacity: 10})
	hp, _ := ephemeral.AddColumn[int32](t, "hp")
	a, _ := t.Insert()
	b, _ := t.Insert()
	hp.Set(a, 7)
	hp.Set(b, 9)
	t.Delete(b)

	lease := t.Lease()
	all := hp.All()
	for _, h := range []ephemeral.Handle{a, b, 0} {
		if row, ok := lease.Row(h); ok {
			all[row] -= 2
			fmt.Println("row", row, "hp", all[row])
		} else {
			fmt.Println("gone")
		}
	}
	// Output:
	// row 0 hp 5
	// gone
	// gone
}

// A handle carries the tag of the domain that issued it. Two standalone
// tables are two domains: their first handles have the same slot and
// generation, but one table's handle, given to the other, names no row
// there. Tables whose rows share an entity share a domain.
func ExampleHandle_scope() {
	a, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "a", Capacity: 10})
	b, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "b", Capacity: 10})
	av, _ := ephemeral.AddColumn[int32](a, "v")
	bv, _ := ephemeral.AddColumn[int32](b, "v")
	ha, _ := a.Insert()
	hb, _ := b.Insert()
	av.Set(ha, 1)
	bv.Set(hb, 2)
	fmt.Println("same slot and generation:", ha.Index() == hb.Index() && ha.Generation() == hb.Generation(),
		"same handle:", ha == hb)
	v, ok := bv.Get(ha)
	fmt.Println("b read with a's handle:", v, ok, "set:", bv.Set(ha, 9), "delete:", b.Delete(ha))
	fmt.Println("b owns it:", b.Domain().Owns(ha), "attach:", b.Attach(ha))
	v, _ = bv.Get(hb)
	fmt.Println("b's row:", v, "len", b.Len())

	dom, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "world", Capacity: 10})
	c, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "c", Domain: dom})
	d, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "d", Domain: dom})
	hc, _ := c.Insert()
	fmt.Println("shared domain: d owns c's handle:", d.Domain().Owns(hc), "attach:", d.Attach(hc), "d has it:", d.IsAlive(hc))
	// Output:
	// same slot and generation: true same handle: false
	// b read with a's handle: 0 false set: false delete: false
	// b owns it: false attach: ephemeral: handle of another domain
	// b's row: 2 len 1
	// shared domain: d owns c's handle: true attach: <nil> d has it: true
}
