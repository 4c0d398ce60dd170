package tickwork_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// changeModel is what one reader must see at its next run: the rows and
// chunks written since its last run, by whom it does not matter.
type changeModel struct {
	hp, added map[int]bool // rows
	x         map[int]bool // chunks
}

// changeRig is a world whose systems and host write Unit.X (bulk, through
// Write, in a parallel kernel), Unit.HP (row by row through WriteTracked
// in FixedUpdate before the FixedUpdate reader and in Update, deferred
// through a recorder, and by the host) and add and delete rows at
// random, and two readers (FixedUpdate and LateUpdate) that check what
// Changed and Added yield against the model, every run.
type changeRig struct {
	t      *testing.T
	rng    *rand.Rand
	w      *tickwork.World
	units  *tickwork.Table
	x, hp  *tickwork.Column[int32]
	models [2]changeModel
	runs   [2]int
	seen   [2]int // changes the reader was handed
	failed bool
}

func (g *changeRig) each(f func(m *changeModel)) {
	for i := range g.models {
		f(&g.models[i])
	}
}

func (g *changeRig) noteRow(row int, added bool) {
	c := row / g.units.ChunkRows()
	g.each(func(m *changeModel) {
		m.hp[row], m.x[c] = true, true
		if added {
			m.added[row] = true
		}
	})
}

// liveRows picks up to n live rows at random.
func (g *changeRig) liveRows(n int) []int {
	var rows []int
	for r := 0; r < g.units.Chunks()*g.units.ChunkRows(); r++ {
		if _, ok := g.units.HandleAt(r); ok {
			rows = append(rows, r)
		}
	}
	g.rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	return rows[:min(n, len(rows))]
}

func (g *changeRig) want(set map[int]bool, live bool) []int {
	var out []int
	for k := range set {
		if _, ok := g.units.HandleAt(k); ok || !live {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func (g *changeRig) check(i int, cx, chp, ad *tickwork.Changes) {
	m := &g.models[i]
	got := slices.Collect(cx.Chunks())
	gotHP := slices.Collect(chp.Rows())
	gotAdded := slices.Collect(ad.Rows())
	g.runs[i]++
	g.seen[i] += len(got) + len(gotHP) + len(gotAdded)
	if !g.failed {
		ok := assert.Equal(g.t, g.want(m.x, false), nilIfEmpty(got), "reader %d run %d: X chunks", i, g.runs[i])
		ok = assert.Equal(g.t, g.want(m.hp, true), nilIfEmpty(gotHP), "reader %d run %d: HP rows", i, g.runs[i]) && ok
		ok = assert.Equal(g.t, g.want(m.added, true), nilIfEmpty(gotAdded), "reader %d run %d: added rows", i, g.runs[i]) && ok
		g.failed = !ok
	}
	clear(m.hp)
	clear(m.x)
	clear(m.added)
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}

func newChangeRig(t *testing.T, seed uint64, workers int) *changeRig {
	g := &changeRig{t: t, rng: rand.New(rand.NewPCG(seed, 7))}
	for i := range g.models {
		g.models[i] = changeModel{hp: map[int]bool{}, added: map[int]bool{}, x: map[int]bool{}}
	}
	b := tickwork.NewBuilder(tickwork.WithFixedStep(1.0/60), tickwork.WithWorkers(workers))
	g.units = b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 1024, ChunkRows: 64})
	g.x = tickwork.AddColumn[int32](b, g.units, "X")
	g.hp = tickwork.AddColumn[int32](b, g.units, "HP")
	reader := func(i int) tickwork.DeclareFunc {
		return func(s *tickwork.Decl) tickwork.RunFunc {
			cx, chp, ad := tickwork.Changed(s, g.x), tickwork.Changed(s, g.hp), tickwork.Added(s, g.units)
			return func(*tickwork.Context) { g.check(i, cx, chp, ad) }
		}
	}
	b.System("readFixed", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		s.Before("writeX")
		return reader(0)(s)
	})
	b.System("fixHP", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		s.Before("readFixed") // readFixed sees its writes in the same tick
		hp := tickwork.WriteTracked(s, g.hp)
		return func(*tickwork.Context) {
			for _, r := range g.liveRows(g.rng.IntN(3)) {
				h, _ := g.units.HandleAt(r)
				*hp.Ptr(h) += 1
				g.each(func(m *changeModel) { m.hp[r] = true })
			}
		}
	})
	b.System("writeX", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		wx := tickwork.Write(s, g.x)
		return func(ctx *tickwork.Context) {
			for c := range g.units.UsedChunks() {
				if g.units.ChunkLen(c) > 0 {
					g.each(func(m *changeModel) { m.x[c] = true })
				}
			}
			tickwork.Parallel(ctx, g.units.UsedChunks(), wx, func(wx *tickwork.WriteColumn[int32], _, c int) {
				xs := wx.All()[c*64 : (c+1)*64]
				for lo, hi := range g.units.Runs(c) {
					for r := lo; r < hi; r++ {
						xs[r]++
					}
				}
			})
		}
	})
	b.System("writeHP", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		hp := tickwork.WriteTracked(s, g.hp)
		return func(*tickwork.Context) {
			for _, r := range g.liveRows(g.rng.IntN(4)) {
				h, _ := g.units.HandleAt(r)
				hp.Set(h, int32(g.rng.IntN(100)))
				g.each(func(m *changeModel) { m.hp[r] = true })
			}
		}
	})
	b.System("deferHP", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		rec := tickwork.Record(s, g.units)
		return func(*tickwork.Context) {
			for _, r := range g.liveRows(g.rng.IntN(3)) {
				h, _ := g.units.HandleAt(r)
				tickwork.Set(rec, g.hp, h, 7)
				g.each(func(m *changeModel) { m.hp[r] = true })
			}
		}
	})
	b.System("readLate", tickwork.LateUpdate, reader(1))
	for range 40 {
		h, err := g.units.Insert()
		require.NoError(t, err)
		g.noteRow(int(h.Index()), true)
	}
	var err error
	g.w, err = b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = g.w.Close() })
	return g
}

// host changes the world between frames: inserts, deletes, sets.
func (g *changeRig) host() {
	for range g.rng.IntN(6) {
		h, err := g.units.Insert()
		if err == nil {
			g.noteRow(int(h.Index()), true)
		}
	}
	for _, r := range g.liveRows(g.rng.IntN(4)) {
		h, _ := g.units.HandleAt(r)
		g.units.Delete(h)
	}
	for _, r := range g.liveRows(g.rng.IntN(3)) {
		h, _ := g.units.HandleAt(r)
		g.hp.Set(h, 1)
		g.each(func(m *changeModel) { m.hp[r] = true })
	}
}

// TestChangedSeenOnce checks that each reader of Changed and Added sees
// every change exactly once, and nothing else, over random writes by
// systems (bulk, row by row, deferred) and the host, with 0, 1 or 3 fixed
// ticks a frame and readers in FixedUpdate and LateUpdate, at 1, 2 and
// 4 workers.
func TestChangedSeenOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		for seed := range uint64(4) {
			t.Run("", func(t *testing.T) {
				g := newChangeRig(t, seed, workers)
				for f := 0; f < 300 && !g.failed; f++ {
					g.host()
					dt := []float64{0, 1.0 / 60, 3.0 / 60}[g.rng.IntN(3)]
					require.NoError(t, g.w.Frame(dt))
				}
				assert.Greater(t, g.runs[0], 100, "FixedUpdate reader runs")
				assert.Equal(t, 300, g.runs[1], "LateUpdate reader runs")
				assert.Greater(t, g.seen[0], 300, "changes the FixedUpdate reader saw")
				assert.Greater(t, g.seen[1], 300, "changes the LateUpdate reader saw")
			})
		}
	}
}

// TestChangedFrameAllocatesNothing checks that a frame with change
// readers, bulk and tracked writers and a deferred write allocates
// nothing in steady state.
func TestChangedFrameAllocatesNothing(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithFixedStep(1.0 / 60))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 4096, ChunkRows: 256})
	x := tickwork.AddColumn[float32](b, units, "X")
	hp := tickwork.AddColumn[int32](b, units, "HP")
	b.System("move", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewQuery1(tickwork.Write(s, x))
		return func(*tickwork.Context) {
			for r := range q.All() {
				*r.Get() += 1
			}
		}
	})
	var handles []tickwork.Handle
	b.System("hit", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		w := tickwork.WriteTracked(s, hp)
		rec := tickwork.Record(s, units)
		i := 0
		return func(*tickwork.Context) {
			i = (i + 1) % len(handles)
			w.Set(handles[i], int32(i))
			tickwork.Set(rec, hp, handles[(i+7)%len(handles)], 3)
		}
	})
	sum := 0
	b.System("watch", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		cx, chp, ad := tickwork.Changed(s, x), tickwork.Changed(s, hp), tickwork.Added(s, units)
		return func(*tickwork.Context) {
			for c := range cx.Chunks() {
				sum += c
			}
			for r := range chp.Rows() {
				sum += r
			}
			for r := range ad.Rows() {
				sum += r
			}
		}
	})
	for range 3000 {
		h, err := units.Insert()
		require.NoError(t, err)
		handles = append(handles, h)
	}
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	for range 10 {
		require.NoError(t, w.Frame(1.0/60))
	}
	assert.Zero(t, testing.AllocsPerRun(200, func() { _ = w.Frame(1.0 / 60) }))
	assert.NotZero(t, sum)
}

// TestChangedAfterRestore checks the restore rule: after Restore every
// live row counts as changed and added at each reader's next run, once.
func TestChangedAfterRestore(t *testing.T) {
	b := tickwork.NewBuilder()
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 256, ChunkRows: 64})
	hp := tickwork.AddColumn[int32](b, units, "HP")
	var hit tickwork.Handle
	b.System("hit", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		w := tickwork.WriteTracked(s, hp)
		return func(*tickwork.Context) { w.Set(hit, 1) }
	})
	var changed, added []int
	b.System("watch", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		ch, ad := tickwork.Changed(s, hp), tickwork.Added(s, units)
		return func(*tickwork.Context) {
			changed, added = slices.Collect(ch.Rows()), slices.Collect(ad.Rows())
		}
	})
	for i := range 100 {
		h, err := units.Insert()
		require.NoError(t, err)
		if i == 70 {
			hit = h
		}
	}
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, w.Frame(0.01))
	assert.Len(t, changed, 100, "first run: every row")
	require.NoError(t, w.Frame(0.01))
	assert.Equal(t, []int{70}, changed, "the row hit set")
	assert.Empty(t, added)
	snap, err := w.Snapshot(nil)
	require.NoError(t, err)
	require.NoError(t, w.Frame(0.01))
	require.NoError(t, w.Restore(snap))
	require.NoError(t, w.Frame(0.01))
	assert.Len(t, changed, 100, "after Restore: every row changed")
	assert.Len(t, added, 100, "after Restore: every row added")
	require.NoError(t, w.Frame(0.01))
	assert.Equal(t, []int{70}, changed, "then only what changed")
	assert.Empty(t, added)
}

// TestChangedNilFailsBuild checks that a change accessor of a failed
// column or table fails the declaration, naming the system.
func TestChangedNilFailsBuild(t *testing.T) {
	for name, declare := range map[string]func(s *tickwork.Decl){
		"Changed":      func(s *tickwork.Decl) { tickwork.Changed[int32](s, nil) },
		"Added":        func(s *tickwork.Decl) { tickwork.Added(s, nil) },
		"WriteTracked": func(s *tickwork.Decl) { tickwork.WriteTracked[int32](s, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			b := tickwork.NewBuilder()
			b.System("watch", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
				declare(s)
				return func(*tickwork.Context) {}
			})
			_, err := b.Build()
			require.ErrorIs(t, err, tickwork.ErrBadDeclaration)
			assert.Contains(t, err.Error(), `"watch"`)
			assert.Contains(t, err.Error(), name+": nil")
		})
	}
}

// TestChangedChargesBudget checks that change tracking charges its
// versions to the memory budget: 16 bytes a chunk for a tracked column,
// 8 a row more with row tracking, and that past the budget Build fails
// with the budget's error.
func TestChangedChargesBudget(t *testing.T) {
	build := func(limit int64, track bool) (int64, error) {
		b := tickwork.NewBuilder(tickwork.WithMemoryBudget(limit))
		units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 1024, ChunkRows: 64})
		hp := tickwork.AddColumn[int32](b, units, "HP")
		b.System("watch", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
			if track {
				tickwork.Changed(s, hp)
				tickwork.WriteTracked(s, hp)
			}
			return func(*tickwork.Context) {}
		})
		w, err := b.Build()
		if err != nil {
			return 0, err
		}
		defer w.Close()
		return b.Budget().Used(), nil
	}
	off, err := build(1<<30, false)
	require.NoError(t, err)
	on, err := build(1<<30, true)
	require.NoError(t, err)
	assert.Equal(t, int64(16*16+8*1024), on-off, "16 chunks, 1024 rows")
	_, err = build(off+100, true)
	require.ErrorIs(t, err, tickwork.ErrMemoryBudget)
}

// TestChangedAcrossSkippedRuns checks change detection with run
// conditions: a reader skipped by its condition sees, at its next run,
// every change made while it was skipped, once; a writer skipped by its
// condition bumps nothing.
func TestChangedAcrossSkippedRuns(t *testing.T) {
	type gate struct{ Read, Write bool }
	b := tickwork.NewBuilder()
	g := tickwork.AddResource(b, "gate", gate{})
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 256, ChunkRows: 64})
	x := tickwork.AddColumn[int32](b, units, "X")
	hp := tickwork.AddColumn[int32](b, units, "HP")
	var setRows []int // the rows the tracked writer sets this frame
	b.System("setHP", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		w := tickwork.WriteTracked(s, hp)
		return func(*tickwork.Context) {
			for _, r := range setRows {
				w.SetRow(r, int32(r))
			}
		}
	})
	b.System("bulkX", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		s.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			v := tickwork.ReadResource(c, g)
			return func(*tickwork.Context) bool { return v.Write }
		})
		w := tickwork.Write(s, x)
		return func(*tickwork.Context) { w.All()[0]++ }
	})
	var gotHP [][]int
	b.System("readHP", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		s.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			v := tickwork.ReadResource(c, g)
			return func(*tickwork.Context) bool { return v.Read }
		})
		ch := tickwork.Changed(s, hp)
		return func(*tickwork.Context) { gotHP = append(gotHP, slices.Collect(ch.Rows())) }
	})
	var gotX [][]int
	b.System("readX", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		ch := tickwork.Changed(s, x)
		return func(*tickwork.Context) { gotX = append(gotX, slices.Collect(ch.Chunks())) }
	})
	for range 130 { // chunks 0, 1 and 2
		_, err := units.Insert()
		require.NoError(t, err)
	}
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	frame := func(read, write bool, rows ...int) {
		g.Get().Read, g.Get().Write = read, write
		setRows = rows
		require.NoError(t, w.Frame(1.0/60))
	}
	frame(true, false) // the first run sees every row, as added
	require.Len(t, gotHP, 1)
	assert.Len(t, gotHP[0], 130)
	assert.Equal(t, []int{0, 1, 2}, gotX[0])
	frame(false, false, 3, 70)
	frame(false, false, 5)
	frame(true, false, 9) // skipped twice: sees the changes of three frames, once
	require.Len(t, gotHP, 2)
	assert.Equal(t, []int{3, 5, 9, 70}, gotHP[1])
	frame(true, false)
	assert.Empty(t, gotHP[2], "seen once")
	// bulkX skipped in frames 1..4 bumped nothing; it runs in frame 5.
	assert.Equal(t, [][]int{{0, 1, 2}, nil, nil, nil, nil}, gotX)
	frame(false, true)
	assert.Equal(t, []int{0, 1, 2}, gotX[5], "a writer that runs bumps every chunk with a live row")
}
