package tickwork_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/index"
)

// propHit is the event of the property world's event tables.
type propHit struct {
	Target int32
	Amount float32
}

// propKey is the composite key of the property world's AddHashIndexOf.
type propKey struct {
	A   int32
	Pos bool
}

// propWorld is a random world with every kind of index: a table Unit with
// int32, float32 and Handle columns in a domain with a second table Other,
// and two event tables.
type propWorld struct {
	w                 *tickwork.World
	dom               *tickwork.Domain
	unit, other       *tickwork.Table
	a, oa             *tickwork.Column[int32]
	f, x, y, of       *tickwork.Column[float32]
	ref               *tickwork.Column[tickwork.Handle]
	id                *tickwork.Column[int64]
	byA, byOA         *tickwork.HashIndex[int32]
	byRefH            *tickwork.HashIndex[tickwork.Handle]
	byKey             *tickwork.HashIndex[propKey]
	byID              *tickwork.UniqueIndex[int64]
	byF               *tickwork.SortedIndex[float32]
	byAsorted         *tickwork.SortedIndex[int32]
	grid              *tickwork.GridIndex
	next, now         *tickwork.Events[propHit]
	hitsNext, hitsNow *tickwork.EventIndex[propHit, int32]
	nextID            int64             // fresh unique IDs (set-up, systems' bodies and the host)
	inFrame           error             // the first mismatch a checking system saw
	noChecks          bool              // the checking systems do nothing (the allocation test)
	touched           []tickwork.Handle // the handles a run of "commands" recorded for, so each is touched once
}

// touch reports whether h is new to this run of "commands", and records it.
func (p *propWorld) touch(h tickwork.Handle) bool {
	for _, o := range p.touched {
		if o == h {
			return false
		}
	}
	p.touched = append(p.touched, h)
	return true
}

// pick is a deterministic per-(frame, row, salt) choice in 0..n-1, for
// kernels that must not share a generator.
func pick(frame uint64, row, salt, n int) int {
	z := frame*0x9E3779B97F4A7C15 + uint64(row)*0xBF58476D1CE4E5B9 + uint64(salt)*0x94D049BB133111EB
	z ^= z >> 31
	z *= 0xD6E8FEB86227ACE5
	z ^= z >> 29
	return int(z % uint64(n))
}

const propCap = 700

type propKernel struct {
	a         tickwork.WriteColumn[int32]
	f         tickwork.WriteColumn[float32]
	ref       tickwork.WriteColumn[tickwork.Handle]
	unit      *tickwork.Table
	frame     uint64
	chunkRows int
}

func (k *propKernel) run(_, chunk int) {
	all, fs, refs := k.a.All(), k.f.All(), k.ref.All()
	base := chunk * k.chunkRows
	for r := base; r < base+k.chunkRows; r++ {
		switch pick(k.frame, r, 1, 6) {
		case 0:
			all[r] = int32(pick(k.frame, r, 2, 9))
		case 1:
			fs[r] = float32(pick(k.frame, r, 3, 40)) - 20
		case 2:
			if pick(k.frame, r, 4, 3) == 0 {
				fs[r] = float32(math.NaN())
			} else {
				fs[r] = float32(math.Copysign(0, float64(pick(k.frame, r, 5, 2))-0.5))
			}
		case 3:
			if h, ok := k.unit.HandleAt(pick(k.frame, r, 6, propCap)); ok {
				refs[r] = h
			} else {
				refs[r] = 0
			}
		}
	}
}

type gridKernel struct {
	x, y      tickwork.WriteColumn[float32]
	marks     tickwork.IndexMarks
	mark      bool
	frame     uint64
	chunkRows int
	unit      *tickwork.Table
}

func (k *gridKernel) run(_, chunk int) {
	xs, ys := k.x.All(), k.y.All()
	mask := k.unit.Enabled(chunk)
	base := chunk * k.chunkRows
	for lo, hi := tickwork.NextRun(mask, 0); lo < hi; lo, hi = tickwork.NextRun(mask, hi) {
		for r := base + lo; r < base+hi; r++ {
			switch pick(k.frame, r, 7, 5) {
			case 0: // a small step: sometimes a cell crossing
				xs[r] += float32(pick(k.frame, r, 8, 7)) - 3
				ys[r] -= float32(pick(k.frame, r, 9, 5)) - 2
			case 1:
				if pick(k.frame, r, 10, 10) == 0 {
					xs[r] = float32(math.Inf(1))
				} else {
					xs[r] = float32(pick(k.frame, r, 11, 200)) - 100
				}
			default:
				continue
			}
			if k.mark {
				k.marks.Mark(r)
			}
		}
	}
}

func newPropWorld(t *testing.T, workers int) *propWorld { return newPropWorldChecked(t, workers, true) }

// newPropWorldChecked is newPropWorld, with its checking systems doing
// nothing unless checks.
func newPropWorldChecked(t *testing.T, workers int, checks bool) *propWorld {
	p := &propWorld{noChecks: !checks, touched: make([]tickwork.Handle, 0, 64)}
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithPacing(tickwork.OneTickPerFrame))
	p.dom = b.Domain(tickwork.DomainSpec{Name: "D", Capacity: propCap, ChunkRows: 64})
	p.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: p.dom})
	p.other = b.Table(tickwork.TableSpec{Name: "Other", Domain: p.dom})
	p.a = tickwork.AddColumn[int32](b, p.unit, "A")
	p.f = tickwork.AddColumn[float32](b, p.unit, "F")
	p.x = tickwork.AddColumn[float32](b, p.unit, "X")
	p.y = tickwork.AddColumn[float32](b, p.unit, "Y")
	p.ref = tickwork.AddColumn[tickwork.Handle](b, p.unit, "Ref")
	p.id = tickwork.AddColumn[int64](b, p.unit, "ID")
	p.oa = tickwork.AddColumn[int32](b, p.other, "A") // Move copies A both ways
	p.of = tickwork.AddColumn[float32](b, p.other, "F")
	p.next = tickwork.AddEvents[propHit](b, tickwork.EventSpec{Name: "HitNext", Capacity: 256, Lifetime: tickwork.NextFrame})
	p.now = tickwork.AddEvents[propHit](b, tickwork.EventSpec{Name: "HitNow", Capacity: 256, Lifetime: tickwork.ThisFrame})

	p.byA = tickwork.AddHashIndex(b, "UnitsByA", p.a)
	p.byRefH = tickwork.AddHashIndex(b, "UnitsByRef", p.ref)
	aAll, fAll := p.a.All(), p.f.All()
	p.byKey = tickwork.AddHashIndexOf(b, "UnitsByAPos", p.unit, func(row int) propKey {
		return propKey{aAll[row], fAll[row] > 0}
	}, p.a, p.f)
	p.byID = tickwork.AddUniqueIndex(b, "UnitsByID", p.id)
	p.byF = tickwork.AddSortedIndex(b, "UnitsByF", p.f)
	p.byAsorted = tickwork.AddSortedIndex(b, "UnitsByASorted", p.a)
	p.grid = tickwork.AddGridIndex(b, "UnitsByPos", p.x, p.y, 8)
	p.byOA = tickwork.AddHashIndex(b, "OthersByA", p.oa)
	p.hitsNext = tickwork.AddEventIndex(b, "HitsNextByTarget", p.next, func(h *propHit) int32 { return h.Target })
	p.hitsNow = tickwork.AddEventIndex(b, "HitsNowByTarget", p.now, func(h *propHit) int32 { return h.Target })

	cr := 64
	pol := tickwork.KernelPolicy{Grain: 1, Max: workers, Fixed: true}
	// Update: writers of key columns, in parallel kernels.
	b.System("writeAF", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		k := propKernel{a: tickwork.Write(d, p.a), f: tickwork.Write(d, p.f), ref: tickwork.Write(d, p.ref), unit: p.unit, chunkRows: cr}
		return func(ctx *tickwork.Context) {
			k.frame = ctx.Frame()
			tickwork.ParallelPolicy(ctx, pol, p.unit.UsedChunks(), k, (*propKernel).run)
		}
	})
	b.System("moveMarked", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		k := gridKernel{x: tickwork.Write(d, p.x), y: tickwork.Write(d, p.y), marks: tickwork.MaintainIndex(d, p.grid), mark: true, chunkRows: cr, unit: p.unit}
		return func(ctx *tickwork.Context) {
			k.frame = ctx.Frame()
			tickwork.ParallelPolicy(ctx, pol, p.unit.UsedChunks(), k, (*gridKernel).run)
		}
	})
	b.System("checkStart", tickwork.FrameStart, func(d *tickwork.Decl) tickwork.RunFunc {
		for _, ix := range p.indexes() {
			tickwork.ReadIndex(d, ix)
		}
		return func(ctx *tickwork.Context) {
			if err := p.check(); err != nil && p.inFrame == nil {
				p.inFrame = fmt.Errorf("frame %d, FrameStart: %w", ctx.Frame(), err)
			}
		}
	})
	b.System("moveDiffed", tickwork.FrameStart, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("checkStart")
		k := gridKernel{x: tickwork.Write(d, p.x), y: tickwork.Write(d, p.y), chunkRows: cr, unit: p.unit}
		return func(ctx *tickwork.Context) {
			k.frame = ctx.Frame() + 1000
			tickwork.ParallelPolicy(ctx, pol, p.unit.UsedChunks(), k, (*gridKernel).run)
		}
	})
	b.System("freshIDs", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		id := tickwork.Write(d, p.id)
		marks := tickwork.MaintainIndex(d, p.byID)
		return func(ctx *tickwork.Context) {
			ids := id.All()
			for c := range p.unit.UsedChunks() {
				for lo, hi := tickwork.NextRun(p.unit.Enabled(c), 0); lo < hi; lo, hi = tickwork.NextRun(p.unit.Enabled(c), hi) {
					for r := c*cr + lo; r < c*cr+hi; r++ {
						if pick(ctx.Frame(), r, 12, 8) == 0 {
							p.nextID++
							ids[r] = p.nextID
							marks.Mark(r)
						}
					}
				}
			}
		}
	})
	b.System("emit", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		en, ew := tickwork.Emit(d, p.next), tickwork.Emit(d, p.now)
		return func(ctx *tickwork.Context) {
			n := pick(ctx.Frame(), 0, 13, 30)
			for i := range n {
				en.Emit(propHit{Target: int32(pick(ctx.Frame(), i, 14, 12)), Amount: float32(i)})
				ew.Emit(propHit{Target: int32(pick(ctx.Frame(), i, 15, 12)), Amount: float32(i)})
			}
		}
	})
	// A reader of every index checks it in the frame after the writers of
	// its phase, and in LateUpdate before the commands of every kind.
	b.System("checkUpdate", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("writeAF", "moveMarked", "freshIDs", "emit")
		for _, ix := range p.indexes() {
			tickwork.ReadIndex(d, ix)
		}
		c := tickwork.Consume(d, p.now)
		return func(ctx *tickwork.Context) {
			_ = c.Read()
			if err := p.check(); err != nil && p.inFrame == nil {
				p.inFrame = fmt.Errorf("frame %d, Update: %w", ctx.Frame(), err)
			}
		}
	})
	// LateUpdate: a reader of every index checks it in the frame, then
	// the commands of every kind.
	b.System("checkLate", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		for _, ix := range p.indexes() {
			tickwork.ReadIndex(d, ix)
		}
		c := tickwork.Consume(d, p.now)
		return func(ctx *tickwork.Context) {
			_ = c.Read()
			if err := p.check(); err != nil && p.inFrame == nil {
				p.inFrame = fmt.Errorf("frame %d, LateUpdate: %w", ctx.Frame(), err)
			}
		}
	})
	b.System("commands", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("checkLate")
		ru, ro := tickwork.Record(d, p.unit), tickwork.Record(d, p.other)
		return func(ctx *tickwork.Context) {
			fr := ctx.Frame()
			p.touched = p.touched[:0]
			for i := range pick(fr, 0, 20, 12) {
				h := ru.Create()
				p.nextID++
				tickwork.Set(ru, p.id, h, p.nextID)
				tickwork.Set(ru, p.a, h, int32(pick(fr, i, 21, 9)))
				tickwork.Set(ru, p.x, h, float32(pick(fr, i, 22, 64))-32)
				tickwork.Set(ru, p.y, h, float32(pick(fr, i, 23, 64))-32)
				if pick(fr, i, 24, 3) == 0 {
					ro.Attach(h) // a row in both tables
					tickwork.Set(ro, p.oa, h, int32(pick(fr, i, 25, 5)))
				}
			}
			for i := range pick(fr, 1, 26, 10) {
				if h, ok := p.unit.HandleAt(pick(fr, i, 27, propCap)); ok && p.touch(h) {
					switch pick(fr, i, 28, 6) {
					case 0:
						ru.Delete(h) // the slot may be reused by a create below
						h2 := ru.Create()
						p.nextID++
						tickwork.Set(ru, p.id, h2, p.nextID)
						tickwork.Set(ru, p.a, h2, int32(pick(fr, i, 29, 9)))
					case 1:
						ru.Remove(h)
					case 2:
						if !p.other.IsAlive(h) {
							tickwork.Move(h, ru, ro)
						}
					case 3:
						tickwork.Set(ru, p.a, h, int32(pick(fr, i, 30, 9)))
						tickwork.Set(ru, p.f, h, float32(pick(fr, i, 31, 9)))
					case 4:
						tickwork.Set(ru, p.x, h, float32(pick(fr, i, 32, 500))-250)
					default:
						ru.Delete(h)
					}
				}
				if h, ok := p.other.HandleAt(pick(fr, i, 33, propCap)); ok && p.touch(h) {
					switch pick(fr, i, 34, 3) {
					case 0:
						if !p.unit.IsAlive(h) {
							tickwork.Move(h, ro, ru)
							p.nextID++
							tickwork.Set(ru, p.id, h, p.nextID)
						}
					case 1:
						if !p.unit.IsAlive(h) {
							ru.Attach(h)
							p.nextID++
							tickwork.Set(ru, p.id, h, p.nextID)
						}
					default:
						tickwork.Set(ro, p.oa, h, int32(pick(fr, i, 35, 5)))
					}
				}
			}
		}
	})
	b.System("checkEnd", tickwork.FrameEnd, func(d *tickwork.Decl) tickwork.RunFunc {
		for _, ix := range p.indexes() {
			tickwork.ReadIndex(d, ix)
		}
		return func(ctx *tickwork.Context) {
			if err := p.check(); err != nil && p.inFrame == nil {
				p.inFrame = fmt.Errorf("frame %d, FrameEnd: %w", ctx.Frame(), err)
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	p.w = w
	return p
}

func (p *propWorld) indexes() []tickwork.Index {
	return []tickwork.Index{p.byA, p.byRefH, p.byKey, p.byID, p.byF, p.byAsorted, p.grid, p.byOA, p.hitsNext, p.hitsNow}
}

// live lists t's live rows in ascending order.
func live(t *tickwork.Table) []int32 {
	var rows []int32
	for c := range t.UsedChunks() {
		for lo, hi := range t.Runs(c) {
			for r := lo; r < hi; r++ {
				rows = append(rows, int32(c*t.ChunkRows()+r))
			}
		}
	}
	return rows
}

// sameHash compares a hash index with one rebuilt from scratch: the key of
// every row, and the walk of every key held.
func sameHash[K comparable](name string, got *index.Hash[K], rows []int32, key func(int32) K, n int) error {
	want, _ := index.NewHash[K](n)
	for _, r := range rows {
		want.Insert(r, key(r))
	}
	if got.Len() != want.Len() {
		return fmt.Errorf("%s: %d rows filed, want %d", name, got.Len(), want.Len())
	}
	for r := range int32(n) {
		gk, gok := got.Key(r)
		wk, wok := want.Key(r)
		if gok != wok || gok && !(gk == wk || gk != gk && wk != wk) {
			return fmt.Errorf("%s: row %d: key %v (filed %v), want %v (filed %v)", name, r, gk, gok, wk, wok)
		}
	}
	for _, r := range rows {
		k := key(r)
		g, w := got.First(k), want.First(k)
		for g == w && g != index.NoRow {
			g, w = got.Next(g), want.Next(w)
		}
		if g != w {
			return fmt.Errorf("%s: walk of key %v differs (row %d, want %d)", name, k, g, w)
		}
	}
	return nil
}

func sameSorted[K index.Ordered](name string, got *index.Sorted[K], rows []int32, col []K, n int) error {
	want, _ := index.NewSorted[K](n)
	for _, r := range rows {
		want.Insert(r, col[r])
	}
	if got.Len() != want.Len() {
		return fmt.Errorf("%s: %d rows filed, want %d", name, got.Len(), want.Len())
	}
	for r := range int32(n) {
		gk, gok := got.Key(r)
		wk, wok := want.Key(r)
		if gok != wok || gok && index.Compare(gk, wk) != 0 {
			return fmt.Errorf("%s: row %d: key %v (filed %v), want %v (filed %v)", name, r, gk, gok, wk, wok)
		}
	}
	g, w := got.First(), want.First()
	for g == w && g != index.NoRow {
		g, w = got.Next(g), want.Next(w)
	}
	if g != w {
		return fmt.Errorf("%s: ascending walk differs (row %d, want %d)", name, g, w)
	}
	g, w = got.LastRun(), want.LastRun()
	for g == w && g != index.NoRow {
		g, w = got.PrevRun(g), want.PrevRun(w)
	}
	if g != w {
		return fmt.Errorf("%s: descending walk differs (row %d, want %d)", name, g, w)
	}
	return nil
}

func (p *propWorld) check() error {
	if p.noChecks {
		return nil
	}
	n := p.unit.Chunks() * p.unit.ChunkRows()
	rows := live(p.unit)
	a, f, x, y, ref, id := p.a.All(), p.f.All(), p.x.All(), p.y.All(), p.ref.All(), p.id.All()
	if err := sameHash("UnitsByA", p.byA.Hash(), rows, func(r int32) int32 { return a[r] }, n); err != nil {
		return err
	}
	if err := sameHash("UnitsByRef", p.byRefH.Hash(), rows, func(r int32) tickwork.Handle { return ref[r] }, n); err != nil {
		return err
	}
	if err := sameHash("UnitsByAPos", p.byKey.Hash(), rows, func(r int32) propKey { return propKey{a[r], f[r] > 0} }, n); err != nil {
		return err
	}
	if err := sameSorted("UnitsByF", p.byF.Sorted(), rows, f, n); err != nil {
		return err
	}
	if err := sameSorted("UnitsByASorted", p.byAsorted.Sorted(), rows, a, n); err != nil {
		return err
	}
	u := p.byID.Unique()
	for r := range int32(n) {
		gk, gok := u.Key(r)
		_, alive := p.unit.HandleAt(int(r))
		if gok != alive || gok && gk != id[r] {
			return fmt.Errorf("UnitsByID: row %d: key %v (filed %v), want %v (live %v)", r, gk, gok, id[r], alive)
		}
		if alive && u.Find(id[r]) != r {
			return fmt.Errorf("UnitsByID: Find(%d) = %d, want %d", id[r], u.Find(id[r]), r)
		}
	}
	g := p.grid.Grid()
	want, _ := index.NewGrid(n, 8)
	for _, r := range rows {
		want.Insert(r, x[r], y[r])
	}
	for r := range int32(n) {
		gc, gok := g.Key(r)
		wc, wok := want.Key(r)
		if gok != wok || gc != wc {
			return fmt.Errorf("UnitsByPos: row %d: cell %v (filed %v), want %v (filed %v)", r, gc, gok, wc, wok)
		}
	}
	gb, wb := g.AppendBox(nil, -40, -40, 40, 40), want.AppendBox(nil, -40, -40, 40, 40)
	if fmt.Sprint(gb) != fmt.Sprint(wb) {
		return fmt.Errorf("UnitsByPos: box candidates %v, want %v", gb, wb)
	}
	oa := p.oa.All()
	if err := sameHash("OthersByA", p.byOA.Hash(), live(p.other), func(r int32) int32 { return oa[r] }, n); err != nil {
		return err
	}
	for _, ev := range []struct {
		name string
		ix   *tickwork.EventIndex[propHit, int32]
		t    *tickwork.Events[propHit]
	}{{"HitsNextByTarget", p.hitsNext, p.next}, {"HitsNowByTarget", p.hitsNow, p.now}} {
		v := ev.t.Read()
		var rows []int32
		for i := range v {
			rows = append(rows, int32(i))
		}
		if err := sameHash(ev.name, ev.ix.Hash(), rows, func(r int32) int32 { return v[r].Target }, ev.t.Cap()); err != nil {
			return err
		}
	}
	return nil
}

// The property test of the indexes: random worlds, random frames of
// writers (with and without MaintainIndex), commands of every kind, host
// writes (typed and raw), snapshots restored and rollbacks, at 1, 2 and 4
// workers: after every frame, and inside frames in the systems that read
// them, every index equals one rebuilt from scratch (docs/architecture.md,
// Indexes).
func TestIndexesProperty(t *testing.T) {
	seeds, frames := uint64(3), 60
	if raceEnabled || testing.Short() {
		seeds, frames = 1, 12 // the race detector makes the reference checks slow
	}
	for _, workers := range []int{1, 2, 4} {
		for seed := range seeds {
			t.Run(fmt.Sprintf("workers=%d/seed=%d", workers, seed), func(t *testing.T) {
				p := newPropWorld(t, workers)
				rng := rand.New(rand.NewPCG(seed, uint64(workers)))
				// Set-up by the host: inserts and typed writes.
				for range 150 {
					h, err := p.unit.Insert()
					require.NoError(t, err)
					p.nextID++
					p.id.Set(h, p.nextID)
					p.a.Set(h, int32(rng.IntN(9)))
					p.x.Set(h, float32(rng.IntN(100)-50))
				}
				require.NoError(t, p.check(), "after set-up")
				rb, err := tickwork.NewRollback(p.w, 4)
				require.NoError(t, err)
				var snap []byte
				for frame := range frames {
					require.NoError(t, p.w.Frame(1.0/60), "frame %d", frame)
					require.NoError(t, p.inFrame)
					require.NoError(t, p.check(), "after frame %d", frame)
					require.NoError(t, rb.Save())
					switch rng.IntN(8) {
					case 0: // typed host writes, structural ones included
						for range 10 {
							if h, ok := p.unit.HandleAt(rng.IntN(propCap)); ok {
								p.a.Set(h, int32(rng.IntN(9)))
								p.f.Set(h, float32(rng.IntN(9)))
								if rng.IntN(3) == 0 {
									p.unit.Delete(h)
								}
							}
						}
						h, err := p.unit.Insert()
						if err == nil {
							p.nextID++
							p.id.Set(h, p.nextID)
						}
						if rng.IntN(2) == 0 {
							require.NoError(t, p.check(), "after host writes, frame %d", frame)
						}
					case 1: // raw host writes, then Reindex
						ys := p.y.All()
						for i := range ys {
							ys[i] += float32(rng.IntN(20) - 10)
						}
						require.NoError(t, p.w.Reindex())
					case 2:
						snap, err = p.w.Snapshot(snap[:0])
						require.NoError(t, err)
					case 3:
						if snap != nil {
							require.NoError(t, p.w.Restore(snap))
							p.nextID += 1 << 20 // IDs issued after the snapshot are gone; stay above every one
						}
					case 4:
						if old, ok := rb.Oldest(); ok {
							require.NoError(t, rb.Load(old))
							p.nextID += 1 << 20
						}
					}
					if rng.IntN(2) == 0 { // else the next frame's start syncs what the host changed
						if err := p.check(); err != nil {
							t.Fatalf("after the host's step of frame %d: %v", frame, err)
						}
					}
				}
			})
		}
	}
}
