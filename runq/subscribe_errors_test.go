package runq_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
)

// unbuiltRig is subRig's tables and catalog on a Builder not built yet,
// without systems or rows.
func unbuiltRig(t *testing.T) (*tickwork.Builder, *runq.Catalog, *subRig) {
	g := &subRig{}
	b := tickwork.NewBuilder()
	d := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: 512, ChunkRows: 64})
	g.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: d})
	g.health = tickwork.AddColumn[int32](b, g.unit, "Health")
	g.gold = tickwork.AddColumn[int64](b, g.unit, "Gold")
	g.x = tickwork.AddColumn[float32](b, g.unit, "X")
	g.speed = tickwork.AddColumn[float64](b, g.unit, "Speed")
	g.alive = tickwork.AddColumn[bool](b, g.unit, "Alive")
	g.target = tickwork.AddColumn[tickwork.Handle](b, g.unit, "Target")
	g.serial = tickwork.AddColumn[int64](b, g.unit, "Serial")
	g.hero = b.Table(tickwork.TableSpec{Name: "Hero", Domain: d})
	tickwork.AddColumn[int32](b, g.hero, "Rank")
	return b, catalogOf(t, g), g
}

const subAccepted = "; a subscription keeps a filter (where and select, no order by or limit), select count(), " +
	"a group by of one integer, bool or ref key with that key, count() and integer sums, or a top-N (one order key and a limit)"

// TestSubscribeRefusals checks every refusal of Subscribe: its exact
// message (position, what, why, what is accepted) and its sentinel;
// Prepare's errors come through unchanged.
func TestSubscribeRefusals(t *testing.T) {
	cases := []struct {
		text string
		args []runq.Value
		want error
		msg  string
	}{
		{"query J() { from Unit u join Hero h on u select u.Health }", nil, runq.ErrUnsupported,
			"query:1:30: a join cannot be subscribed to: a subscription watches only its from table's rows" + subAccepted},
		{"query X() { from Unit u where exists(from Unit v where v.Target == u) select u }", nil, runq.ErrUnsupported,
			"query:1:31: an exists subquery cannot be subscribed to: a subscription watches only its from table's rows" + subAccepted},
		{"query W() { from Unit u select u, row_number() over (order by u.Health) as N }", nil, runq.ErrUnsupported,
			"query:1:35: a window function cannot be subscribed to: its values depend on other rows" + subAccepted},
		{"query A() { from Unit u select u, u.Health order by u.Health after (3) limit 4 }", nil, runq.ErrUnsupported,
			"query:1:69: keyset pagination (after) cannot be subscribed to: a page is recomputed, not kept" + subAccepted},
		{"query D() { from Unit u select distinct u.Health }", nil, runq.ErrUnsupported,
			"query:1:7: distinct cannot be subscribed to: a distinct row stands for several rows" + subAccepted},
		{"query H() { from Unit u where has(u, Hero) select u }", nil, runq.ErrUnsupported,
			"query:1:31: has(_, Hero) cannot be subscribed to: a subscription watches only its from table's rows" + subAccepted},
		{"query N() { from Unit u select u, u.Health, u.Gold, u.X, u.Speed, u.Alive, u.Target, u.Serial, index(u) as I }", nil, runq.ErrUnsupported,
			"query:1:96: a select of 9 items cannot be subscribed to: a subscribed row keeps at most 8 (MaxSubscribed)" + subAccepted},
		{"query G2() { from Unit u group by u.Health, u.Alive select count() }", nil, runq.ErrUnsupported,
			"query:1:45: a group by of two keys cannot be subscribed to: a subscribed group by has one key" + subAccepted},
		{"query GF() { from Unit u group by u.X select u.X, count() }", nil, runq.ErrUnsupported,
			"query:1:35: a float group key cannot be subscribed to: a group reports its first row's key (+0 for a zero, the first NaN's bits), " +
				"which a group kept by deltas cannot know; group by an integer, e.g. floor(x)" + subAccepted},
		{"query GO() { from Unit u group by u.Alive select u.Alive, count() order by count() desc }", nil, runq.ErrUnsupported,
			"query:1:7: a group by with an order by or a limit cannot be subscribed to: its groups are kept in key order, every one" + subAccepted},
		{"query GM() { from Unit u group by u.Alive select u.Alive, max(u.Health) }", nil, runq.ErrUnsupported,
			"query:1:59: max() cannot be subscribed to: min and max need every row of a group when its extreme leaves, and avg is a float" + subAccepted},
		{"query GV() { from Unit u group by u.Alive select u.Alive, avg(u.Health) }", nil, runq.ErrUnsupported,
			"query:1:59: avg() cannot be subscribed to: min and max need every row of a group when its extreme leaves, and avg is a float" + subAccepted},
		{"query GS() { from Unit u group by u.Alive select u.Alive, sum(u.X) }", nil, runq.ErrUnsupported,
			"query:1:59: a float sum cannot be subscribed to: a float sum depends on the order its rows are added, so one kept by deltas drifts from the recomputed one" + subAccepted},
		{"query AG() { from Unit u select count(), sum(u.Health) }", nil, runq.ErrUnsupported,
			"query:1:42: an aggregate without group by other than count() cannot be subscribed to: only a count is kept by deltas without groups" + subAccepted},
		{"query O2() { from Unit u select u order by u.Health, u.X limit 3 }", nil, runq.ErrUnsupported,
			"query:1:54: a second order key cannot be subscribed to: a top-N ranks by one key (ties by index)" + subAccepted},
		{"query S() { from Unit u select u order by u.Health }", nil, runq.ErrUnsupported,
			"query:1:43: an order by without a limit cannot be subscribed to: a sorted result is kept only as a top-N" + subAccepted},
		{"query L() { from Unit u select u limit 3 }", nil, runq.ErrUnsupported,
			"query:1:40: a limit without an order by cannot be subscribed to: its first n rows in index order change with every row before them" + subAccepted},
		{"query S2() { (from Unit u where u.Alive select u) union (from Unit v where v.Health > 3 select v) }", nil, runq.ErrUnsupported,
			"query:1:7: a set operation cannot be subscribed to: its result is not kept per row of one table" + subAccepted},
		{"query Z(n: int32) { from Unit u select u order by u.Health limit n }", []runq.Value{runq.I32(0)}, runq.ErrArgs,
			"runq: the limit of top-N Z is 0; a subscribed top-N needs a limit of at least 1"},
		{"query Z(n: int32) { from Unit u select u order by u.Health limit n }", nil, runq.ErrArgs,
			"runq: 0 arguments for 1 parameter"},
		{"query Z(n: int32) { from Unit u select u order by u.Health limit n }", []runq.Value{runq.I64(3)}, runq.ErrArgs,
			"runq: argument 0 (n) is an int64, want int32"},
		{"query GI() { from Unit u group by u.Alive select u.Alive, u.Health + 1 as H }", nil, runq.ErrQuery,
			"query:1:59: select item u.Health + 1 of query GI is neither a group key nor an aggregate; add it to group by, or aggregate it (min(u.Health + 1), max(u.Health + 1), ...)"},
		{"query Bad( { from Unit u select u }", nil, schema.ErrSyntax, `query:1:12: unexpected "{"; expected ")"`},
		{"query Q() { from Hit e select e.Damage }", nil, runq.ErrUnsupported,
			"query:1:22: a query over an event table is not run by the interpreter yet; declare the query in the .tw file"},
	}
	b, cat, _ := unbuiltRig(t)
	for _, c := range cases {
		s, err := runq.Subscribe(b, cat, c.text, c.args)
		assert.Nil(t, s, c.text)
		if assert.Error(t, err, c.text) {
			assert.EqualError(t, err, c.msg, c.text)
			assert.ErrorIs(t, err, c.want, c.text)
			var e *runq.Error
			assert.True(t, errors.As(err, &e), c.text)
		}
	}
	require.NoError(t, b.Err(), "a refusal records nothing on the Builder")
	_, err := b.Build()
	require.NoError(t, err)
}

// TestSubscribeRootErrors: what the root refuses (a subscription after
// Build, a catalog bound to another Builder's tables) comes back as its
// *tickwork.SubscriptionError.
func TestSubscribeRootErrors(t *testing.T) {
	const text = "query F() { from Unit u where u.Alive select u, u.Health }"
	b, cat, _ := unbuiltRig(t)
	other := tickwork.NewBuilder()
	_, err := runq.Subscribe(other, cat, text, nil)
	require.ErrorIs(t, err, tickwork.ErrSubscription)
	require.EqualError(t, err, `tickwork: subscription "runq F" of table "Unit": a table of another Builder: subscribe on the Builder whose Table made it`)
	var se *tickwork.SubscriptionError
	require.ErrorAs(t, err, &se)
	require.ErrorIs(t, other.Err(), tickwork.ErrSubscription, "the Builder records it")

	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	_, err = runq.Subscribe(b, cat, text, nil)
	require.ErrorIs(t, err, tickwork.ErrSubscription)
	require.ErrorIs(t, err, tickwork.ErrBuilt)
}

// TestSubscribeRefusesAUniqueLookup: a where on a declared unique column
// that no index serves stops at its first match, which a kept result
// cannot follow; it is refused at the where.
func TestSubscribeRefusesAUniqueLookup(t *testing.T) {
	b := tickwork.NewBuilder()
	badge := b.Table(tickwork.TableSpec{Name: "Badge", Capacity: 64})
	code := tickwork.AddColumn[int64](b, badge, "Code")
	cat, err := runq.NewCatalog("badge.tw", "table Badge(capacity: 64) {\n\tCode: int64 unique\n}\n")
	require.NoError(t, err)
	require.NoError(t, cat.BindTable("Badge", badge))
	require.NoError(t, runq.BindColumn(cat, "Badge", "Code", code))
	_, err = runq.Subscribe(b, cat, "query ByCode(c: int64) { from Badge x where x.Code == c select x }", []runq.Value{runq.I64(3)})
	require.ErrorIs(t, err, runq.ErrUnsupported)
	require.EqualError(t, err, "query:1:45: a unique key lookup cannot be subscribed to: it keeps the first match only"+subAccepted)
}

// TestSubscribeAfterTheBuilderFailed: on a Builder that had already
// failed, Subscribe reports the query's own problems first (a bad text,
// a limit below 1), then ErrBuilder wrapping the Builder's earlier error,
// never that earlier error as if it were its own; a subscription the
// root refuses on a sound Builder gets the root's error for itself.
func TestSubscribeAfterTheBuilderFailed(t *testing.T) {
	const text = "query F() { from Unit u where u.Alive select u, u.Health }"
	b, cat, _ := unbuiltRig(t)
	require.Nil(t, tickwork.SubscribeCount(b, nil, tickwork.FilterSpec[int]{Name: "Broken"}))
	prior := b.Err()
	require.ErrorIs(t, prior, tickwork.ErrSubscription)

	_, err := runq.Subscribe(b, cat, "query Z(n: int32) { from Unit u select u order by u.Health limit n }", []runq.Value{runq.I32(-5)})
	require.ErrorIs(t, err, runq.ErrArgs)
	require.EqualError(t, err, "runq: the limit of top-N Z is -5; a subscribed top-N needs a limit of at least 1")
	_, err = runq.Subscribe(b, cat, "query Bad( { from Unit u select u }", nil)
	require.ErrorIs(t, err, schema.ErrSyntax)

	s, err := runq.Subscribe(b, cat, text, nil)
	require.Nil(t, s)
	require.ErrorIs(t, err, runq.ErrBuilder)
	require.ErrorIs(t, err, tickwork.ErrSubscription, "it wraps the earlier error")
	require.EqualError(t, err, "runq: subscription F is not declared: the Builder had already failed ("+prior.Error()+"); fix that error first (Builder.Err)")
	var e *runq.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, runq.ErrBuilder, e.Kind)
	require.Equal(t, prior, b.Err(), "nothing more is recorded")

	other := tickwork.NewBuilder()
	_, err = runq.Subscribe(other, cat, text, nil) // the root refuses: its own error
	require.EqualError(t, err, `tickwork: subscription "runq F" of table "Unit": a table of another Builder: subscribe on the Builder whose Table made it`)
	require.NotErrorIs(t, err, runq.ErrBuilder)
	_, err = runq.Subscribe(other, cat, "query G() { from Unit u select count() }", nil)
	require.ErrorIs(t, err, runq.ErrBuilder)
	require.Contains(t, err.Error(), "runq: subscription G is not declared: the Builder had already failed (")
}

// TestSubscribeRefusesANilCatalog: a nil catalog is ErrCatalog, not a
// panic.
func TestSubscribeRefusesANilCatalog(t *testing.T) {
	b, _, _ := unbuiltRig(t)
	s, err := runq.Subscribe(b, nil, "query F() { from Unit u select u }", nil)
	require.Nil(t, s)
	require.ErrorIs(t, err, runq.ErrCatalog)
	require.EqualError(t, err, "runq: the catalog is nil; make one with NewCatalogOf (or NewCatalog and BindColumn) and pass it")
	require.NoError(t, b.Err())
}
