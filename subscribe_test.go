package tickwork_test

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// subUnit is the subscribed row of the rigs below: three int32 columns.
type subUnit struct {
	Team  int32
	Score int32
	HP    int32
}

func subAlive(u *subUnit) bool { return u.HP > 20 }

const subTopN = 5

// subRig is a world whose systems and host change table Unit at random
// (tracked writes, serial and from a parallel kernel, bulk writes, creates, deletes, attaches and detaches
// through a second table of the domain, deferred sets, host inserts,
// deletes and sets) and that subscribes to it with each kind.
type subRig struct {
	rng       *rand.Rand
	w         *tickwork.World
	base      *tickwork.Table // every entity has a row here
	unit      *tickwork.Table // the subscribed table
	team, sc  *tickwork.Column[int32]
	hp        *tickwork.Column[int32]
	filter    *tickwork.SubFilter[subUnit]
	count     *tickwork.SubCount[subUnit]
	groups    *tickwork.SubGroupSum[subUnit, int32, int64]
	top       *tickwork.SubTopN[subUnit, int32]
	modelRows map[int]tickwork.SubRow[subUnit]
	modelN    int
	modelG    map[int32]tickwork.Group[int32, int64]
	modelTop  []tickwork.Ranked[subUnit, int32]
}

// live lists the live rows of t.
func liveRowsOf(t *tickwork.Table) []int {
	var rows []int
	for r := range t.Chunks() * t.ChunkRows() {
		if _, ok := t.HandleAt(r); ok {
			rows = append(rows, r)
		}
	}
	return rows
}

func (g *subRig) pick(t *tickwork.Table, n int) []tickwork.Handle {
	rows := liveRowsOf(t)
	g.rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var out []tickwork.Handle
	for _, r := range rows[:min(n, len(rows))] {
		h, _ := t.HandleAt(r)
		out = append(out, h)
	}
	return out
}

func newSubRig(t *testing.T, seed uint64, workers int) *subRig {
	g := &subRig{rng: rand.New(rand.NewPCG(seed, 35)), modelRows: map[int]tickwork.SubRow[subUnit]{}, modelG: map[int32]tickwork.Group[int32, int64]{}}
	b := tickwork.NewBuilder(tickwork.WithFixedStep(1.0/60), tickwork.WithWorkers(workers))
	dom := b.Domain(tickwork.DomainSpec{Name: "D", Capacity: 1024, ChunkRows: 64})
	g.base = b.Table(tickwork.TableSpec{Name: "Base", Domain: dom})
	g.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: dom})
	g.team = tickwork.AddColumn[int32](b, g.unit, "Team")
	g.sc = tickwork.AddColumn[int32](b, g.unit, "Score")
	g.hp = tickwork.AddColumn[int32](b, g.unit, "HP")
	b.System("hitTracked", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		hp := tickwork.WriteTracked(s, g.hp)
		return func(*tickwork.Context) {
			for _, h := range g.pick(g.unit, g.rng.IntN(6)) {
				hp.Set(h, int32(g.rng.IntN(60)))
			}
		}
	})
	b.System("scoreBulk", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		sc := tickwork.Write(s, g.sc)
		return func(*tickwork.Context) {
			all := sc.All()
			for _, h := range g.pick(g.unit, g.rng.IntN(4)) {
				r, _ := g.unit.Lease().Row(h)
				all[r] = int32(g.rng.IntN(8)) // ties on purpose
			}
		}
	})
	b.System("churn", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		ru, rb := tickwork.Record(s, g.unit), tickwork.Record(s, g.base)
		s.After("scoreBulk")
		return func(*tickwork.Context) {
			for _, h := range g.pick(g.unit, g.rng.IntN(3)) {
				tickwork.Set(ru, g.team, h, int32(g.rng.IntN(4)))
			}
			for range g.rng.IntN(4) {
				h := ru.Create()
				tickwork.Set(ru, g.hp, h, int32(g.rng.IntN(60)))
				tickwork.Set(ru, g.team, h, int32(g.rng.IntN(4)))
				tickwork.Set(ru, g.sc, h, int32(g.rng.IntN(8)))
				rb.Attach(h)
			}
			for range g.rng.IntN(2) {
				rb.Create() // an entity of Base only, attached to Unit later
			}
			for _, h := range g.pick(g.unit, g.rng.IntN(3)) {
				ru.Delete(h)
			}
			for _, h := range g.pick(g.unit, g.rng.IntN(2)) {
				ru.Remove(h) // detached: it lives on in Base
			}
			for _, h := range g.pick(g.base, g.rng.IntN(6)) {
				if !g.unit.IsAlive(h) {
					ru.Attach(h) // an entity of Base only (or detached)
				}
			}
		}
	})
	b.System("stampParallel", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		hp := tickwork.WriteTracked(s, g.hp)
		frame := 0
		return func(ctx *tickwork.Context) {
			frame++
			f := frame
			tickwork.Parallel(ctx, g.unit.UsedChunks(), hp, func(hp *tickwork.TrackedColumn[int32], _, c int) {
				for k := range 3 { // three rows of the worker's own chunk
					r := c*g.unit.ChunkRows() + (f*7+k*19+c)%g.unit.ChunkRows()
					if _, ok := g.unit.HandleAt(r); ok {
						hp.SetRow(r, int32((f+r)%60))
					}
				}
			})
		}
	})
	g.filter = tickwork.SubscribeFilter(b, g.unit, tickwork.FilterSpec[subUnit]{Name: "alive", Where: subAlive})
	g.count = tickwork.SubscribeCount(b, g.unit, tickwork.FilterSpec[subUnit]{Name: "alive count", Where: subAlive})
	g.groups = tickwork.SubscribeGroupSum(b, g.unit, tickwork.GroupSumSpec[subUnit, int32, int64]{Name: "score by team", Where: subAlive,
		Key: func(u *subUnit) int32 { return u.Team }, Sum: func(u *subUnit) int64 { return int64(u.Score) }})
	g.top = tickwork.SubscribeTopN(b, g.unit, tickwork.TopSpec[subUnit, int32]{Name: "top score", N: subTopN, Where: subAlive,
		Key: func(u *subUnit) int32 { return u.Score }})
	for range 40 {
		h, err := g.unit.Insert()
		require.NoError(t, err)
		g.hp.Set(h, int32(g.rng.IntN(60)))
		g.sc.Set(h, int32(g.rng.IntN(8)))
	}
	var err error
	g.w, err = b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = g.w.Close() })
	return g
}

// host changes Unit between frames.
func (g *subRig) host() {
	for range g.rng.IntN(3) {
		if h, err := g.unit.Insert(); err == nil {
			g.hp.Set(h, int32(g.rng.IntN(60)))
		}
	}
	for _, h := range g.pick(g.unit, g.rng.IntN(2)) {
		g.unit.Delete(h)
	}
	for _, h := range g.pick(g.unit, g.rng.IntN(3)) {
		g.hp.Set(h, int32(g.rng.IntN(60)))
	}
}

// recompute scans Unit: the filter's rows by row, the count, the groups
// and the top ranks, as a subscription must hold them.
func (g *subRig) recompute() (rows map[int]tickwork.SubRow[subUnit], groups map[int32]tickwork.Group[int32, int64], top []tickwork.Ranked[subUnit, int32]) {
	rows, groups = map[int]tickwork.SubRow[subUnit]{}, map[int32]tickwork.Group[int32, int64]{}
	for _, r := range liveRowsOf(g.unit) {
		h, _ := g.unit.HandleAt(r)
		u := subUnit{Team: g.team.All()[r], Score: g.sc.All()[r], HP: g.hp.All()[r]}
		if !subAlive(&u) {
			continue
		}
		rows[r] = tickwork.SubRow[subUnit]{Handle: h, Row: r, Value: u}
		gr := groups[u.Team]
		gr.Key, gr.Sum, gr.Rows = u.Team, gr.Sum+int64(u.Score), gr.Rows+1
		groups[u.Team] = gr
		top = append(top, tickwork.Ranked[subUnit, int32]{Handle: h, Row: r, Key: u.Score, Value: u})
	}
	slices.SortFunc(top, func(a, b tickwork.Ranked[subUnit, int32]) int {
		return cmp.Or(cmp.Compare(b.Key, a.Key), cmp.Compare(a.Handle.Index(), b.Handle.Index()))
	})
	top = top[:min(subTopN, len(top))]
	for i := range top {
		top[i].Rank = i
	}
	return rows, groups, top
}

func ascending[E any](t *testing.T, what string, s []E, key func(E) int) bool {
	return assert.True(t, slices.IsSortedFunc(s, func(a, b E) int { return cmp.Compare(key(a), key(b)) }), "%s not ascending", what)
}

// apply applies each subscription's Read to the model and compares the
// model with a recompute; false at the first difference.
func (g *subRig) apply(t *testing.T) bool {
	ok := true
	d := g.filter.Read()
	byRow := func(r tickwork.SubRow[subUnit]) int { return r.Row }
	ok = ascending(t, "Entered", d.Entered, byRow) && ascending(t, "Left", d.Left, byRow) && ascending(t, "Changed", d.Changed, byRow) && ok
	for _, l := range d.Left {
		ok = assert.Equal(t, g.modelRows[l.Row], l, "a Left row is the one handed out") && ok
		delete(g.modelRows, l.Row)
	}
	for _, c := range d.Changed {
		old, in := g.modelRows[c.Row]
		ok = assert.True(t, in && old.Handle == c.Handle && old.Value != c.Value, "a Changed row was in, with other values") && ok
		g.modelRows[c.Row] = c
	}
	for _, e := range d.Entered {
		_, in := g.modelRows[e.Row]
		ok = assert.False(t, in, "an Entered row was not in") && ok
		g.modelRows[e.Row] = e
	}
	c := g.count.Read()
	ok = assert.Equal(t, g.modelN, c.Before, "count before") && ok
	g.modelN = c.After
	for _, gd := range g.groups.Read() {
		old := g.modelG[gd.Key]
		ok = assert.Equal(t, old.Sum, gd.Before, "group %d before", gd.Key) && assert.Equal(t, old.Rows, gd.RowsBefore, "group %d rows before", gd.Key) && ok
		if gd.RowsAfter == 0 {
			delete(g.modelG, gd.Key)
		} else {
			g.modelG[gd.Key] = tickwork.Group[int32, int64]{Key: gd.Key, Sum: gd.After, Rows: gd.RowsAfter}
		}
	}
	td := g.top.Read()
	byRank := func(r tickwork.Ranked[subUnit, int32]) int { return r.Rank }
	ok = ascending(t, "top Entered", td.Entered, byRank) && ascending(t, "top Left", td.Left, byRank) && ok
	next := slices.Clone(g.modelTop)
	for _, l := range td.Left {
		ok = assert.Less(t, l.Rank, len(g.modelTop)) && assert.Equal(t, g.modelTop[l.Rank], l, "a Left rank is the one handed out") && ok
	}
	n := len(g.modelTop) + len(td.Entered) - len(td.Left)
	next = append(next, make([]tickwork.Ranked[subUnit, int32], max(0, n-len(next)))...)[:max(0, n)]
	for _, e := range td.Entered {
		if ok = assert.Less(t, e.Rank, n) && ok; ok {
			next[e.Rank] = e
		}
	}
	g.modelTop = next

	rows, groups, top := g.recompute()
	ok = assert.Equal(t, rows, g.modelRows, "filter: previous result plus delta") && ok
	ok = assert.Equal(t, len(rows), g.modelN, "count") && assert.Equal(t, len(rows), g.filter.Len(), "filter Len") && ok
	ok = assert.Equal(t, groups, g.modelG, "grouped sum: previous result plus delta") && ok
	ok = assert.Equal(t, top, nilIfNoRanks(g.modelTop), "top-N: previous result plus delta") && ok
	ok = assert.Equal(t, top, nilIfNoRanks(g.top.Top()), "top-N: Top") && ok
	got := map[int]tickwork.SubRow[subUnit]{}
	for r := range g.filter.Rows() {
		got[r.Row] = r
	}
	ok = assert.Equal(t, rows, got, "filter Rows") && ok
	for gr := range g.groups.Groups() {
		ok = assert.Equal(t, groups[gr.Key], gr, "Groups") && ok
	}
	return ok
}

func nilIfNoRanks(s []tickwork.Ranked[subUnit, int32]) []tickwork.Ranked[subUnit, int32] {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestSubscriptionDeltasRebuildTheResult checks, over random worlds
// (tracked writes, serial and from a parallel kernel, bulk writes, creates, deletes, attaches and detaches by
// playback, host inserts, deletes and sets, 0, 1 or 3 fixed ticks a
// frame) at 1 and 2 workers, that after every frame each kind's delta
// applied to its previous result equals the result recomputed by a scan,
// and that the deltas are in their stated order.
func TestSubscriptionDeltasRebuildTheResult(t *testing.T) {
	for _, workers := range []int{1, 2} {
		for seed := range uint64(3) {
			t.Run("", func(t *testing.T) {
				g := newSubRig(t, seed, workers)
				changed := 0
				for f := 0; f < 250; f++ {
					if f%3 != 2 { // some frames without host changes
						g.host()
					}
					dt := []float64{0, 1.0 / 60, 3.0 / 60}[g.rng.IntN(3)]
					require.NoError(t, g.w.Frame(dt))
					if f == 120 {
						// a frame read twice: the second delta is empty
						require.True(t, g.apply(t), "frame %d", f)
						d := g.filter.Read()
						require.Empty(t, d.Entered)
						require.Empty(t, d.Left)
						require.Empty(t, d.Changed)
					}
					if f%7 == 3 {
						continue // not read this frame: the next Read covers both
					}
					if f%5 == 1 {
						g.host() // the host's tracked changes after the frame are the Read's too
					}
					changed += len(g.modelRows)
					require.True(t, g.apply(t), "frame %d, seed %d, workers %d", f, seed, workers)
				}
				assert.Greater(t, changed, 1000, "rows kept in the results")
				assert.NotEmpty(t, g.modelG)
				assert.Len(t, g.modelTop, subTopN)
			})
		}
	}
}

// TestSubscriptionAfterRestore checks that a restore of a snapshot, which
// replaces rows without structural events, is followed by the
// subscriptions at the next frame.
func TestSubscriptionAfterRestore(t *testing.T) {
	g := newSubRig(t, 9, 1)
	require.NoError(t, g.w.Frame(1.0/60))
	require.True(t, g.apply(t))
	snap, err := g.w.Snapshot(nil)
	require.NoError(t, err)
	for range 20 {
		g.host()
		require.NoError(t, g.w.Frame(1.0/60))
	}
	require.True(t, g.apply(t))
	require.NoError(t, g.w.Restore(snap))
	require.True(t, g.apply(t), "a Read right after the restore, before any frame")
	require.NoError(t, g.w.Frame(0))
	require.True(t, g.apply(t))
}

// TestSubscriptionReadInAFramePanics checks that a Read from a system's
// body, while the world's frame runs, panics saying Read is the host's.
func TestSubscriptionReadInAFramePanics(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	tickwork.AddColumn[int32](b, units, "HP")
	type hp struct{ HP int32 }
	n := tickwork.SubscribeCount(b, units, tickwork.FilterSpec[hp]{Name: "all"})
	b.System("peek", tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc {
		return func(*tickwork.Context) { n.Read() }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	got := framePanic(w)
	require.NotNil(t, got, "a Read in a frame panics")
	assert.Contains(t, fmt.Sprint(got), `tickwork: a subscription's Read on table "Unit" while the world's frame runs `+
		`(from a system's body, or from another goroutine during World.Frame): Read is the host's, between frames`)
}

// TestSubscriptionAllocatesNothing checks that frames that change rows
// of a subscribed table, and the Reads of every kind after them,
// allocate nothing in steady state.
func TestSubscriptionAllocatesNothing(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithFixedStep(1.0 / 60))
	unit := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 4096, ChunkRows: 256})
	team := tickwork.AddColumn[int32](b, unit, "Team")
	hp := tickwork.AddColumn[int32](b, unit, "HP")
	sc := tickwork.AddColumn[int32](b, unit, "Score")
	var handles []tickwork.Handle
	i := 0
	b.System("hit", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		w := tickwork.WriteTracked(s, hp)
		return func(*tickwork.Context) {
			for k := range 20 {
				i++
				w.Set(handles[(i*31+k)%len(handles)], int32(i%60))
			}
		}
	})
	b.System("score", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		w := tickwork.Write(s, sc)
		rec := tickwork.Record(s, unit)
		return func(*tickwork.Context) {
			w.All()[i%len(handles)] = int32(i % 9)
			h := handles[(i*7)%len(handles)]
			rec.Delete(h)
			tickwork.Set(rec, hp, rec.Create(), 30)
		}
	})
	f := tickwork.SubscribeFilter(b, unit, tickwork.FilterSpec[subUnit]{Name: "f", Where: subAlive})
	n := tickwork.SubscribeCount(b, unit, tickwork.FilterSpec[subUnit]{Name: "n", Where: subAlive})
	gs := tickwork.SubscribeGroupSum(b, unit, tickwork.GroupSumSpec[subUnit, int32, int64]{Name: "g",
		Key: func(u *subUnit) int32 { return u.Team }, Sum: func(u *subUnit) int64 { return int64(u.Score) }})
	top := tickwork.SubscribeTopN(b, unit, tickwork.TopSpec[subUnit, int32]{Name: "t", N: 10, Key: func(u *subUnit) int32 { return u.Score }})
	for k := range 2000 {
		h, err := unit.Insert()
		require.NoError(t, err)
		team.Set(h, int32(k%4))
		hp.Set(h, int32(k%60))
		handles = append(handles, h)
	}
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	seen := 0
	frame := func() {
		_ = w.Frame(1.0 / 60)
		for k, h := range handles { // follow the churn: the created rows reuse the deleted slots
			if !unit.IsAlive(h) {
				handles[k], _ = unit.HandleAt(int(h.Index()))
			}
		}
		d := f.Read()
		seen += len(d.Entered) + len(d.Left) + len(d.Changed) + n.Read().After + len(gs.Read()) + len(top.Read().Entered)
	}
	for range 50 {
		frame()
	}
	assert.Zero(t, testing.AllocsPerRun(200, frame))
	assert.Positive(t, seen)
}

// TestSubscriptionErrors checks the typed errors of bad declarations.
func TestSubscriptionErrors(t *testing.T) {
	type bad struct{ Nope float64 }
	cases := map[string]func(b *tickwork.Builder, t *tickwork.Table){
		"row struct": func(b *tickwork.Builder, u *tickwork.Table) {
			tickwork.SubscribeFilter(b, u, tickwork.FilterSpec[bad]{Name: "x"})
		},
		"nil table": func(b *tickwork.Builder, _ *tickwork.Table) {
			tickwork.SubscribeCount(b, nil, tickwork.FilterSpec[subUnit]{Name: "x"})
		},
		"no key": func(b *tickwork.Builder, u *tickwork.Table) {
			tickwork.SubscribeTopN(b, u, tickwork.TopSpec[subUnit, int32]{Name: "x", N: 3})
		},
		"no sum": func(b *tickwork.Builder, u *tickwork.Table) {
			tickwork.SubscribeGroupSum(b, u, tickwork.GroupSumSpec[subUnit, int32, int64]{Name: "x", Key: func(u *subUnit) int32 { return u.Team }})
		},
		"float key": func(b *tickwork.Builder, u *tickwork.Table) {
			tickwork.SubscribeGroupSum(b, u, tickwork.GroupSumSpec[subUnit, float64, int64]{Name: "x",
				Key: func(u *subUnit) float64 { return float64(u.Team) }, Sum: func(u *subUnit) int64 { return int64(u.Score) }})
		},
		"foreign table": func(b *tickwork.Builder, _ *tickwork.Table) {
			other := tickwork.NewBuilder().Table(tickwork.TableSpec{Name: "Other", Capacity: 8})
			tickwork.SubscribeFilter(b, other, tickwork.FilterSpec[struct{}]{Name: "x"})
		},
	}
	for name, declare := range cases {
		t.Run(name, func(t *testing.T) {
			b := tickwork.NewBuilder()
			u := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
			tickwork.AddColumn[int32](b, u, "Team")
			declare(b, u)
			_, err := b.Build()
			require.ErrorIs(t, err, tickwork.ErrSubscription)
			var se *tickwork.SubscriptionError
			require.True(t, errors.As(err, &se))
			assert.Equal(t, "x", se.Subscription)
			if name == "row struct" {
				assert.ErrorIs(t, err, tickwork.ErrRowCopy)
				assert.Contains(t, err.Error(), "Nope")
			}
		})
	}
}

// TestSubscriptionDeltasSameAtAnyWorkerCount checks that the deltas of
// every kind, frame by frame, are the same at 1, 2 and 4 workers.
func TestSubscriptionDeltasSameAtAnyWorkerCount(t *testing.T) {
	record := func(workers int) []any {
		g := newSubRig(t, 5, workers)
		var out []any
		for range 120 {
			g.host()
			require.NoError(t, g.w.Frame([]float64{0, 1.0 / 60, 3.0 / 60}[g.rng.IntN(3)]))
			// a handle's tag names its world: compare index and generation
			id := func(h tickwork.Handle) [2]uint32 { return [2]uint32{h.Index(), h.Generation()} }
			d := g.filter.Read()
			for _, l := range [][]tickwork.SubRow[subUnit]{d.Entered, d.Left, d.Changed} {
				for _, r := range l {
					out = append(out, id(r.Handle), r.Row, r.Value)
				}
				out = append(out, "|")
			}
			out = append(out, g.count.Read(), slices.Clone(g.groups.Read()))
			td := g.top.Read()
			for _, l := range [][]tickwork.Ranked[subUnit, int32]{td.Entered, td.Left} {
				for _, r := range l {
					out = append(out, r.Rank, id(r.Handle), r.Row, r.Key, r.Value)
				}
				out = append(out, "|")
			}
		}
		return out
	}
	one := record(1)
	for _, workers := range []int{2, 4} {
		require.Equal(t, one, record(workers), "workers %d", workers)
	}
}
