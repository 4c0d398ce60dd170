package subkit_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/internal/testkit/allockit"
	"github.com/tickwork/tickwork/schema/codegen/internal/subkit"
)

// The parameters every subscription of the kit is bound to.
const (
	boxX0, boxX1, boxY0, boxY1 = -20, 20, -10, 10
	weakMax                    = 10
	teamMin                    = 0
	weakN, slowN, fastN, refN  = 5, 7, 4, 5
)

// kit is a world of subkit.tw with every subscription, its queries and
// the host's model of each result, rebuilt from the deltas alone.
type kit struct {
	t     *testing.T
	w     *tickwork.World
	tb    *subkit.Tables
	q     *subkit.Queries
	rng   *rand.Rand
	hs    []tickwork.Handle // handles the host and the spawner made (some dead)
	trace strings.Builder   // every delta, for the comparison across worker counts
	moved int               // box rows Changed, over the run: Drift's writes

	box                          *subkit.Box
	weak                         *subkit.WeakCount
	allCount                     *subkit.AllCount
	team                         *subkit.TeamSum
	on                           *subkit.OnCount
	target                       *subkit.TargetSum
	weakTop                      *subkit.WeakTop
	rich                         *subkit.RichTop
	slow                         *subkit.SlowTop
	fast                         *subkit.FastTop
	refTop                       *subkit.TargetTop
	petTop                       *subkit.PetTop
	pets                         []tickwork.Handle
	petTopM                      []string
	boxM                         map[tickwork.Handle]subkit.InBoxRow
	teamM                        map[int32]subkit.TeamGoldRow
	onM                          map[uint8]subkit.ByOnRow
	targetM                      map[uint64]subkit.ByTargetRow
	weakM                        int
	allM                         int
	weakTopM, richM, slowM, fstM []string
	refTopM                      []string
}

// speeds are the float keys of the top-N by speed: ties, both zeros,
// NaN and the infinities among them.
var speeds = []float32{-1, 0, float32(math.Copysign(0, -1)), 0.5, 1, 2, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0.25, 1}

func newKit(t *testing.T, workers int, seed uint64) *kit {
	k := &kit{t: t, rng: rand.New(rand.NewPCG(seed, 7)), boxM: map[tickwork.Handle]subkit.InBoxRow{},
		teamM: map[int32]subkit.TeamGoldRow{}, onM: map[uint8]subkit.ByOnRow{}, targetM: map[uint64]subkit.ByTargetRow{}}
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithKernelPolicy(tickwork.KernelPolicy{Grain: 1}))
	tb, err := subkit.Declare(b, subkit.DefaultSizes())
	require.NoError(t, err)
	k.tb = tb
	b.Add(subkit.NewSystems(tb).All()...) // Drift, Heal, Cull: kernels that write and delete
	// A hand-written spawner: creates by commands, with deferred writes,
	// and a deferred write to a row the host made.
	b.System("spawn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		rec := tickwork.Record(d, tb.Unit.Table)
		src := rand.NewPCG(0, 0)
		r := rand.New(src)
		return func(ctx *tickwork.Context) {
			src.Seed(seed, ctx.Frame())
			for range r.IntN(3) {
				h := rec.Create()
				k.setRow(rec, h, r)
			}
			if len(k.hs) > 0 && r.IntN(2) == 0 {
				if h := k.hs[r.IntN(len(k.hs))]; tb.Unit.Table.IsAlive(h) {
					tickwork.Set(rec, tb.Unit.Gold, h, int64(r.IntN(1000)))
				}
			}
		}
	})
	k.box = subkit.SubscribeBox(b, tb, boxX0, boxX1, boxY0, boxY1)
	k.weak = subkit.SubscribeWeakCount(b, tb, weakMax)
	k.allCount = subkit.SubscribeAllCount(b, tb)
	k.team = subkit.SubscribeTeamSum(b, tb, teamMin)
	k.on = subkit.SubscribeOnCount(b, tb)
	k.target = subkit.SubscribeTargetSum(b, tb)
	k.weakTop = subkit.SubscribeWeakTop(b, tb, weakN)
	k.rich = subkit.SubscribeRichTop(b, tb)
	k.slow = subkit.SubscribeSlowTop(b, tb, slowN)
	k.fast = subkit.SubscribeFastTop(b, tb, fastN)
	k.refTop = subkit.SubscribeTargetTop(b, tb, refN)
	k.petTop = subkit.SubscribePetTop(b, tb, weakN)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	k.w, k.q = w, subkit.NewQueries(tb)
	return k
}

// setRow records random values for a row the spawner creates.
func (k *kit) setRow(rec *tickwork.Recorder, h tickwork.Handle, r *rand.Rand) {
	u := k.tb.Unit
	tickwork.Set(rec, u.Pos.X, h, float32(r.IntN(80)-40))
	tickwork.Set(rec, u.Pos.Y, h, float32(r.IntN(40)-20))
	tickwork.Set(rec, u.Team, h, int32(r.IntN(8)-2))
	tickwork.Set(rec, u.Hp, h, int32(r.IntN(60)-10))
	tickwork.Set(rec, u.Gold, h, int64(r.IntN(1000)))
	tickwork.Set(rec, u.Speed, h, speeds[r.IntN(len(speeds))])
	tickwork.Set(rec, u.On, h, r.IntN(3) > 0)
}

// host changes the table between frames: inserts, deletes and writes of
// every column, by the host's Column.Set.
func (k *kit) host() {
	u, r := k.tb.Unit, k.rng
	for range r.IntN(6) {
		h, err := u.Table.Insert()
		if err != nil {
			break // full
		}
		k.hs = append(k.hs, h)
		k.write(h)
	}
	for range r.IntN(6) {
		if len(k.hs) > 0 {
			u.Table.Delete(k.hs[r.IntN(len(k.hs))])
		}
	}
	for range r.IntN(12) {
		if len(k.hs) > 0 {
			k.writeOne(k.hs[r.IntN(len(k.hs))])
		}
	}
	k.hs = slices.DeleteFunc(k.hs, func(h tickwork.Handle) bool { return !u.Table.IsAlive(h) && r.IntN(4) == 0 })
	// Pets: entities of domain Folk, some with a collar (another table of
	// the domain, so that pet rows and collar rows share slots).
	p := k.tb.Pet
	for range r.IntN(3) {
		if h, err := p.Table.Insert(); err == nil {
			p.Age.Set(h, int32(r.IntN(6)))
			if r.IntN(2) == 0 {
				_ = k.tb.Collar.Table.Attach(h)
			}
			k.pets = append(k.pets, h)
		}
	}
	for range r.IntN(3) {
		if len(k.pets) > 0 {
			h := k.pets[r.IntN(len(k.pets))]
			switch r.IntN(3) {
			case 0:
				p.Table.Delete(h)
			default:
				p.Age.Set(h, int32(r.IntN(6)))
			}
		}
	}
	k.pets = slices.DeleteFunc(k.pets, func(h tickwork.Handle) bool { return !p.Table.IsAlive(h) })
}

func (k *kit) write(h tickwork.Handle) {
	for c := range 9 {
		k.writeCol(h, c)
	}
}

func (k *kit) writeOne(h tickwork.Handle) { k.writeCol(h, k.rng.IntN(9)) }

func (k *kit) writeCol(h tickwork.Handle, c int) {
	u, r := k.tb.Unit, k.rng
	switch c {
	case 0:
		u.Pos.X.Set(h, float32(r.IntN(80)-40))
	case 1:
		u.Pos.Y.Set(h, float32(r.IntN(40)-20))
	case 2:
		u.Team.Set(h, int32(r.IntN(8)-2))
	case 3:
		u.Hp.Set(h, int32(r.IntN(60)-10))
	case 4:
		u.Gold.Set(h, int64(r.IntN(1000)))
	case 5:
		u.Speed.Set(h, speeds[r.IntN(len(speeds))])
	case 6:
		u.On.Set(h, r.IntN(3) > 0)
	case 7:
		var target tickwork.Handle // none, a live row, a dead one
		if len(k.hs) > 0 && r.IntN(4) > 0 {
			target = k.hs[r.IntN(len(k.hs))]
		}
		u.Target.Set(h, target)
	case 8:
		u.Lvl.Set(h, int32(r.IntN(5)))
	}
}

// check reads every subscription's delta, applies it to the model and
// compares the model with the query's Run, recomputed.
func (k *kit) check(frame int) {
	t := k.t
	at := fmt.Sprintf("frame %d", frame)
	fmt.Fprintf(&k.trace, "%d|", frame)
	// box: Entered, Left, Changed, each in ascending row order
	d := k.box.Read()
	for _, l := range [][]tickwork.SubRow[subkit.BoxRow]{d.Left, d.Entered, d.Changed} {
		require.True(t, slices.IsSortedFunc(l, func(a, b tickwork.SubRow[subkit.BoxRow]) int { return a.Row - b.Row }), at)
	}
	for _, e := range d.Left {
		_, ok := k.boxM[e.Handle]
		require.True(t, ok, "%s: box Left %v was not in", at, e.Handle)
		delete(k.boxM, e.Handle)
	}
	for _, e := range d.Entered {
		_, ok := k.boxM[e.Handle]
		require.False(t, ok, "%s: box Entered %v was in", at, e.Handle)
		k.boxM[e.Handle] = k.box.Result(e)
	}
	for _, e := range d.Changed {
		_, ok := k.boxM[e.Handle]
		require.True(t, ok, "%s: box Changed %v was not in", at, e.Handle)
		k.boxM[e.Handle] = k.box.Result(e)
	}
	fmt.Fprint(&k.trace, d.Entered, d.Left, d.Changed)
	k.moved += len(d.Changed)
	run := k.q.InBox.Run(nil, boxX0, boxX1, boxY0, boxY1)
	var model []subkit.InBoxRow
	for e := range k.box.Rows() {
		model = append(model, k.box.Result(e))
		require.Equal(t, k.boxM[e.Handle], k.box.Result(e), at)
	}
	require.Len(t, k.boxM, len(run), at)
	require.Equal(t, run, model, "%s: box", at)

	// counts: before is the model's, after the query's
	c := k.weak.Read()
	require.Equal(t, k.weakM, c.Before, at)
	k.weakM = c.After
	require.Equal(t, k.q.Weak.Run(weakMax), k.weak.Result(), at)
	require.Equal(t, int64(k.weakM), k.q.Weak.Run(weakMax).N, at)
	c = k.allCount.Read()
	require.Equal(t, k.allM, c.Before, at)
	k.allM = c.After
	require.Equal(t, k.q.All.Run(), k.allCount.Result(), at)
	fmt.Fprint(&k.trace, c)

	checkGroups(t, at, k.team.Read(), k.teamM, k.team.Result, k.q.TeamGold.Run(nil, teamMin),
		func(r subkit.TeamGoldRow) (int64, int64) { return r.N, r.Gold }, &k.trace)
	checkGroups(t, at, k.on.Read(), k.onM, k.on.Result, k.q.ByOn.Run(nil),
		func(r subkit.ByOnRow) (int64, int64) { return r.N, 0 }, &k.trace)
	checkGroups(t, at, k.target.Read(), k.targetM, k.target.Result, k.q.ByTarget.Run(nil),
		func(r subkit.ByTargetRow) (int64, int64) { return r.N, r.Hp }, &k.trace)

	k.weakTopM = checkTop(t, at+" weakest", k.weakTop.Read(), k.weakTopM, k.weakTop.Result, k.q.Weakest.Run(nil, weakN), &k.trace)
	k.richM = checkTop(t, at+" richest", k.rich.Read(), k.richM, k.rich.Result, k.q.Richest.Run(nil), &k.trace)
	k.slowM = checkTop(t, at+" slowest", k.slow.Read(), k.slowM, k.slow.Result, k.q.Slowest.Run(nil, slowN), &k.trace)
	k.fstM = checkTop(t, at+" fastest", k.fast.Read(), k.fstM, k.fast.Result, k.q.Fastest.Run(nil, fastN), &k.trace)
	k.petTopM = checkTop(t, at+" old pets", k.petTop.Read(), k.petTopM, k.petTop.Result, k.q.OldPets.Run(nil, weakN), &k.trace)
	k.refTopM = checkTop(t, at+" by target", k.refTop.Read(), k.refTopM, k.refTop.Result, k.q.ByTargetTop.Run(nil, refN), &k.trace)
}

// checkGroups applies a grouped sum's delta to model (after checking each
// group's before against it) and compares the model, in key order, with
// the query's groups; count and sum give a query row's count and sum.
func checkGroups[R any, K int32 | uint8 | uint64](t *testing.T, at string, d []tickwork.GroupDelta[K, int64], model map[K]R,
	result func(tickwork.Group[K, int64]) R, run []R, count func(R) (int64, int64), trace *strings.Builder) {
	require.True(t, slices.IsSortedFunc(d, func(a, b tickwork.GroupDelta[K, int64]) int { return compareKeys(a.Key, b.Key) }), at)
	for _, g := range d {
		old, ok := model[g.Key]
		n, s := int64(0), int64(0)
		if ok {
			n, s = count(old)
		}
		require.Equal(t, [2]int64{n, s}, [2]int64{int64(g.RowsBefore), g.Before}, "%s: group %v before", at, g.Key)
		delete(model, g.Key)
		if g.RowsAfter > 0 {
			model[g.Key] = result(tickwork.Group[K, int64]{Key: g.Key, Sum: g.After, Rows: g.RowsAfter})
		}
	}
	for _, g := range d { // the query's values: a ref key holds its domain's tag
		fmt.Fprint(trace, g.RowsBefore, g.Before, result(tickwork.Group[K, int64]{Key: g.Key, Sum: g.After, Rows: g.RowsAfter}))
	}
	keys := make([]K, 0, len(model))
	for key := range model {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	var got []R
	for _, key := range keys {
		got = append(got, model[key])
	}
	require.Equal(t, fmt.Sprint(run), fmt.Sprint(got), "%s: groups", at)
}

func compareKeys[K int32 | uint8 | uint64](a, b K) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// checkTop applies a top-N's delta to model (rank i's row as text, so
// that NaN equals NaN; -0 is written 0, since a kept result compares
// values with ==: docs/architecture.md, Subscriptions), checking each
// Left entry against it, and compares it with the query's rows.
func checkTop[S comparable, K int32 | int64 | uint32 | uint64, R any](t *testing.T, at string, d *tickwork.TopDelta[S, K], model []string,
	result func(tickwork.Ranked[S, K]) R, run []R, trace *strings.Builder) []string {
	entered := map[int]bool{}
	for _, l := range [][]tickwork.Ranked[S, K]{d.Left, d.Entered} {
		require.True(t, slices.IsSortedFunc(l, func(a, b tickwork.Ranked[S, K]) int { return a.Rank - b.Rank }), at)
	}
	for _, e := range d.Entered {
		entered[e.Rank] = true
	}
	cut := math.MaxInt // the first rank that went
	for _, e := range d.Left {
		require.Less(t, e.Rank, len(model), at)
		require.Equal(t, model[e.Rank], text(result(e)), "%s: rank %d's Left entry", at, e.Rank)
		if !entered[e.Rank] {
			cut = min(cut, e.Rank)
		}
	}
	for _, e := range d.Entered {
		for len(model) <= e.Rank {
			model = append(model, "")
		}
		model[e.Rank] = text(result(e))
	}
	if cut < len(model) {
		model = model[:cut]
	}
	fmt.Fprint(trace, d.Entered, d.Left)
	want := make([]string, 0, len(run))
	for _, r := range run {
		want = append(want, text(r))
	}
	require.Equal(t, want, append(make([]string, 0, len(model)), model...), "%s: ranks", at)
	return model
}

// negZero is a -0 in a row's text.
var negZero = regexp.MustCompile(`([ {])-0([ }])`)

// text is a row's text with -0 written 0.
func text(r any) string {
	return negZero.ReplaceAllString(negZero.ReplaceAllString(fmt.Sprint(r), "${1}0${2}"), "${1}0${2}")
}

// stepKit runs frames of random changes, checking every subscription
// after each, and returns the trace of the deltas.
func stepKit(t *testing.T, workers int, seed uint64, frames int) string {
	k := newKit(t, workers, seed)
	dts := []float64{0, 1.0 / 60, 3.0 / 60} // 0, 1 and 3 fixed ticks
	for f := range frames {
		k.host()
		require.NoError(t, k.w.Frame(dts[k.rng.IntN(len(dts))]))
		k.check(f)
		if f%37 == 5 { // a second Read without a frame between hands out nothing
			require.Empty(t, k.box.Read().Entered)
			require.Empty(t, k.team.Read())
			require.Empty(t, k.rich.Read().Entered)
		}
	}
	require.Positive(t, k.tb.Unit.Table.Len())
	require.Positive(t, k.moved, "no box row changed inside the box")
	return domainTag.ReplaceAllString(k.trace.String(), "") // each world's domain has its own tag
}

// domainTag is the tag of a handle's text ("3:1@2").
var domainTag = regexp.MustCompile(`@[0-9]+`)

// After every frame of random worlds (creates by the host and by a
// system's commands, deletes by the host and by a declared system, writes
// by declared kernels, commands and the host), the previous result plus
// the delta of each generated subscription equals its query's Run,
// recomputed: the same rows in the same order for the box and the
// top-Ns (asc and desc, int, float and ref keys, ties), the same groups
// for the grouped sums, the same counts; at 1 and 2 workers, with the
// same deltas at both.
func TestGeneratedSubscriptionsMatchRun(t *testing.T) {
	for seed := range uint64(3) {
		one := stepKit(t, 1, seed, 240)
		two := stepKit(t, 2, seed, 240)
		if one != two {
			i := 0
			for i < min(len(one), len(two)) && one[i] == two[i] {
				i++
			}
			t.Fatalf("seed %d: the deltas differ at 1 and 2 workers from byte %d: %.200q vs %.200q", seed, i, one[i:], two[i:])
		}
	}
}

// A generated subscription's frames and Reads allocate nothing once its
// lists have grown (at 2 workers; allockit: the runtime's background
// allocations land in one window, a real one in every window).
func TestGeneratedSubscriptionsAllocateNothing(t *testing.T) {
	k := newKit(t, 2, 11)
	for f := range 60 {
		k.host()
		require.NoError(t, k.w.Frame(1.0/60))
		k.check(f)
	}
	u := k.tb.Unit
	var hs []tickwork.Handle
	for row := range u.Table.Cap() {
		if h, ok := u.Table.HandleAt(row); ok {
			hs = append(hs, h)
		}
	}
	i := 0
	allocs := allockit.PerOp(allockit.DefaultTries, 200, func() {
		h := hs[i%len(hs)]
		i++
		u.Hp.Set(h, int32(i%40))
		u.Speed.Set(h, float32(i%7))
		u.Pos.X.Set(h, float32(i%30-15))
		if err := k.w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
		k.box.Read()
		k.weak.Read()
		k.allCount.Read()
		k.team.Read()
		k.on.Read()
		k.target.Read()
		k.weakTop.Read()
		k.rich.Read()
		k.slow.Read()
		k.fast.Read()
		k.refTop.Read()
		k.petTop.Read()
	})
	require.Zero(t, allocs)
}
