package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// A system joins two tables of one domain, Body (positions) and Motion
// (velocities), and skips the entities tagged Frozen, a tag table with no
// columns; another system tags the entities that passed x = 2, through a
// recorder of the tag table, and they stop. The host counts the tags with
// a join of the tag alone.
func ExampleNewJoin2() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithPacing(tickwork.OneTickPerFrame))
	herd := b.Domain(tickwork.DomainSpec{Name: "Herd", Capacity: 8})
	body := b.Table(tickwork.TableSpec{Name: "Body", Domain: herd})
	motion := b.Table(tickwork.TableSpec{Name: "Motion", Domain: herd})
	frozen := b.Table(tickwork.TableSpec{Name: "Frozen", Domain: herd}) // a tag table
	x := tickwork.AddColumn[float32](b, body, "X")
	v := tickwork.AddColumn[float32](b, motion, "V")
	b.System("move", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewJoin2(tickwork.Write(s, x), tickwork.Read(s, v), tickwork.Without(frozen))
		return func(*tickwork.Context) {
			for r := range q.All() {
				px, pv := r.Get()
				*px += *pv
			}
		}
	})
	b.System("freeze", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewJoin1(tickwork.Read(s, x), tickwork.Without(frozen))
		tag := tickwork.Record(s, frozen)
		return func(*tickwork.Context) {
			for r, h := range q.All() {
				if *r.Get() > 2 {
					tag.Attach(h) // played back after Update
				}
			}
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for i := range 4 {
		h, _ := body.Insert()
		if i > 0 { // entity 0 has no motion row: the join skips it
			_ = motion.Attach(h)
			v.Set(h, float32(i))
		}
	}
	for range 3 {
		_ = w.Frame(1.0 / 60)
	}
	q := tickwork.HostJoin1(x)
	for r, h := range q.All() {
		fmt.Println("entity", h.Index(), "x", *r.Get(), "frozen", frozen.IsAlive(h))
	}
	tags := tickwork.HostJoin(tickwork.With(frozen))
	fmt.Println(tags.Count(), "frozen")
	// Output:
	// entity 0 x 0 frozen false
	// entity 1 x 3 frozen true
	// entity 2 x 4 frozen true
	// entity 3 x 3 frozen true
	// 3 frozen
}

// joinKernel is the state of a Parallel kernel over a join, passed by
// value.
type joinKernel struct {
	q  tickwork.Join2[float32, float32]
	dt float32
}

// A kernel over a join's chunks: each worker takes a chunk, the chunk's
// column slices (Spans) and its runs of matching rows (Runs), here the
// bodies with a motion row and no Anchored tag (a tag table).
func ExampleJoin2_Spans() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(2), tickwork.WithPacing(tickwork.OneTickPerFrame),
		tickwork.WithFixedStep(0.5))
	dom := b.Domain(tickwork.DomainSpec{Name: "D", Capacity: 1000, ChunkRows: 128})
	body := b.Table(tickwork.TableSpec{Name: "Body", Domain: dom})
	motion := b.Table(tickwork.TableSpec{Name: "Motion", Domain: dom})
	anchored := b.Table(tickwork.TableSpec{Name: "Anchored", Domain: dom})
	x := tickwork.AddColumn[float32](b, body, "X")
	v := tickwork.AddColumn[float32](b, motion, "V")
	b.System("move", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewJoin2(tickwork.Write(s, x), tickwork.Read(s, v), tickwork.Without(anchored))
		return func(ctx *tickwork.Context) {
			tickwork.Parallel(ctx, q.UsedChunks(), joinKernel{q, float32(ctx.DT())}, func(st *joinKernel, _, c int) {
				xs, vs := st.q.Spans(c)
				for lo, hi := range st.q.Runs(c) {
					for r := lo; r < hi; r++ {
						xs[r] += float32(vs[r] * st.dt)
					}
				}
			})
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	hs := make([]tickwork.Handle, 1000)
	_ = body.InsertN(hs)
	for i, h := range hs {
		if i%2 == 0 {
			_ = motion.Attach(h)
			v.Set(h, 2)
		}
		if i%10 == 0 {
			_ = anchored.Attach(h)
		}
	}
	_ = w.Frame(0.5)
	var sum float32
	for _, h := range hs {
		p, _ := x.Get(h)
		sum += p
	}
	q := tickwork.HostJoin2(x, v, tickwork.Without(anchored))
	fmt.Println(q.Count(), "moved by 1, sum", sum)
	// Output:
	// 400 moved by 1, sum 400
}

// A host join of five columns over two tables of one domain, skipping the
// entities tagged Frozen: from five columns a row is the wide form, whose
// Get returns a pointer per column.
func ExampleHostJoin5() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	herd := b.Domain(tickwork.DomainSpec{Name: "Herd", Capacity: 8})
	body := b.Table(tickwork.TableSpec{Name: "Body", Domain: herd})
	motion := b.Table(tickwork.TableSpec{Name: "Motion", Domain: herd})
	frozen := b.Table(tickwork.TableSpec{Name: "Frozen", Domain: herd})
	x := tickwork.AddColumn[float32](b, body, "X")
	y := tickwork.AddColumn[float32](b, body, "Y")
	hp := tickwork.AddColumn[int32](b, body, "HP")
	vx := tickwork.AddColumn[float32](b, motion, "VX")
	vy := tickwork.AddColumn[float32](b, motion, "VY")
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for i := range 3 {
		h, _ := body.Insert()
		hp.Set(h, 10)
		_ = motion.Attach(h)
		vx.Set(h, float32(i))
		vy.Set(h, 1)
		if i == 1 {
			_ = frozen.Attach(h)
		}
	}
	q := tickwork.HostJoin5(x, y, hp, vx, vy, tickwork.Without(frozen)) // a bad join panics in All with its error
	for r, h := range q.All() {
		px, py, php, pvx, pvy := r.Get()
		*px, *py = *px+*pvx, *py+*pvy
		*php--
		fmt.Println("entity", h.Index(), "at", *px, *py, "hp", *php)
	}
	// Output:
	// entity 0 at 0 1 hp 9
	// entity 2 at 2 1 hp 9
}
