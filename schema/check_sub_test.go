package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// subPrelude declares what the subscriptions of the tests name; their
// own text starts on line 5.
const subPrelude = "domain D(capacity: 16)\ntable Unit(domain: D) { Hp: int32  X: float32  Team: int32  On: bool  Friend: ref Unit  K: int64 unique }\n" +
	"table Tag(domain: D) { M: int32 }\nevent table Hit(capacity: 8, lifetime: next_frame) { Who: ref Unit  Dmg: int32 }\n"

// Each query shape a subscription keeps gives its kind, the columns its
// row struct holds (in table order), the key and its direction.
func TestSubscriptionDeclaration(t *testing.T) {
	s, err := schema.Load("sub.tw", []byte(subPrelude+
		"query Box(x0: float32) { from Unit u where u.X >= x0 and u.On select u, u.Hp * 2 as H }\n"+
		"query N() { from Unit u where u.Hp > 0 select count() }\n"+
		"query G(min: int32) { from Unit u where u.Hp >= min group by u.Team select u.Team, count(), sum(u.Hp) as S }\n"+
		"query Top(n: int32) { from Unit u select u, u.X order by u.X limit n }\n"+
		"query TopD() { from Unit u select u.Hp as H order by H desc limit 3 }\n"+
		"subscription SBox of Box\nsubscription SN of N\nsubscription SG of G\nsubscription STop of Top\nsubscription STopD of TopD"))
	require.NoError(t, err)
	require.Len(t, s.Subscriptions, 5)
	want := []struct {
		kind schema.SubKind
		cols []string
		key  string
		desc bool
	}{
		{schema.SubFilter, []string{"Unit.Hp", "Unit.X", "Unit.On"}, "", false},
		{schema.SubCount, []string{"Unit.Hp"}, "", false},
		{schema.SubGroup, []string{"Unit.Hp", "Unit.Team"}, "Unit.Team", false},
		{schema.SubTop, []string{"Unit.X"}, "Unit.X", false},
		{schema.SubTop, []string{"Unit.Hp"}, "Unit.Hp", true},
	}
	for i, sub := range s.Subscriptions {
		w := want[i]
		assert.Equal(t, w.kind, sub.Kind, sub.Name)
		assert.Equal(t, w.cols, colNames(sub.Columns), sub.Name)
		assert.Equal(t, w.desc, sub.Desc, sub.Name)
		if w.key == "" {
			assert.Nil(t, sub.Key, sub.Name)
			continue
		}
		ref, ok := sub.Key.(*schema.ColRef)
		require.True(t, ok, sub.Name)
		assert.Equal(t, w.key, ref.Column.Table.Name+"."+ref.Column.Name, sub.Name)
	}
	assert.Equal(t, "sub.tw:10:14", s.Subscriptions[0].Pos.String())
	assert.Equal(t, "Hp", s.Subscriptions[2].Sum.X.(*schema.ColRef).Column.Name)
}

// Each query a subscription cannot keep is refused at the subscription,
// with the shape it has, what to do and the shapes that are kept.
func TestSubscriptionErrors(t *testing.T) {
	cases := []struct {
		name string
		kind error
		src  string
		want string
	}{
		{"unknown query", schema.ErrUnknown, "query Box() { from Unit u select u }\nsubscription S of Bx",
			`bad.tw:6:19: unknown query "Bx" of subscription S; did you mean "Box"?`},
		{"not a query", schema.ErrType, "subscription S of Unit",
			"bad.tw:5:19: Unit of subscription S is a table, not a query: a subscription keeps the result of a declared query"},
		{"set operation", schema.ErrValue, "query Q() { (from Unit u where u.On select u) union (from Unit u where u.Hp > 0 select u) }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: a set operation (union) is not kept; subscribe each side as its own query (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"event table", schema.ErrValue, "query Q() { from Hit h select h.Dmg }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: a query of event table Hit is not kept: events are not rows that stay; consume them in a system, or subscribe a query of a table (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"join", schema.ErrValue, "query Q() { from Unit u join Unit f on u.Friend select u, f.Hp }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: a join (f) is not kept; subscribe a query of one table, with the joined value copied into a column of it (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"window", schema.ErrValue, "query Q() { from Unit u select u, row_number() over (order by u.Hp) as N }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: a window function is not kept; drop it, or run the query (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"exists", schema.ErrValue, "query Q() { from Unit u where exists(from Unit f where f.Friend == u) select u }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: exists(...) is not kept; keep the test's result in a column of the table, or run the query (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"after", schema.ErrValue, "query Q(a: int32, ix: int32) { from Unit u select u order by u.Hp, index(u) after (a, ix) limit 3 }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: keyset pagination (after) is not kept; drop it: a top-N keeps the first ranks (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"distinct", schema.ErrValue, "query Q() { from Unit u select distinct u.Team }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: select distinct is not kept; drop distinct, or group by the selected key with count() (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"two order keys", schema.ErrValue, "query Q() { from Unit u select u order by u.Hp, u.X limit 3 }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: order by 2 keys is not kept; order by one key (combine the keys in one integer expression) (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"two group keys", schema.ErrValue, "query Q() { from Unit u group by u.Team, u.On select u.Team, u.On, count() }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: group by 2 keys is not kept; group by one key (combine the keys in one integer expression, e.g. a * 4 + b) (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"probe", schema.ErrValue, "query Q(h: ref Unit) { from Unit u where u == h select u.Hp }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: a lookup by handle (u == h) is not kept; test a column instead: the subscription re-examines a row by its columns (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"unique lookup", schema.ErrValue, "query Q(k: int64) { from Unit u where u.K == k select u }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: a lookup by unique column K (the first match only) is not kept; test the column with a column that is not unique, or run the query (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"has", schema.ErrValue, "query Q() { from Unit u where has(u, Tag) select u }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: has(u, Tag) reads another table, which is not kept; keep the fact in a column of Unit (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"float group key", schema.ErrType, "query Q() { from Unit u group by u.X select u.X, count() }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: group key u.X is float32: a float key is not kept (NaN equals no key, -0 equals +0); group by an integer, e.g. floor(x) (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"grouped order", schema.ErrValue, "query Q() { from Unit u group by u.Team select u.Team, count() as N order by N desc limit 2 }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: order by and limit of groups are not kept; drop them: the subscription hands out the changed groups in ascending key order (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"group min", schema.ErrValue, "query Q() { from Unit u group by u.Team select u.Team, min(u.Hp) }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: min(u.Hp) of a group is not kept by deltas; keep count() and one integer sum(...), or run the query (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"float sum", schema.ErrType, "query Q() { from Unit u group by u.Team select u.Team, sum(u.X) }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: sum(u.X) is a float: a float sum kept by deltas depends on the order rows change in, not the query's order; sum an integer (e.g. a fixed-point column), or run the query (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"second sum", schema.ErrValue, "query Q() { from Unit u group by u.Team select u.Team, sum(u.Hp), sum(u.K) }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: a second sum, sum(u.K), is not kept: a subscription keeps one sum per group; declare another query and subscription for it (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"ungrouped sum", schema.ErrValue, "query Q() { from Unit u select count(), sum(u.Hp) }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: sum(u.Hp) without group by is not kept; select count() only, or group by a key (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"order without limit", schema.ErrValue, "query Q() { from Unit u select u order by u.Hp }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: order by without limit is not kept; add limit N for a top-N, or drop order by and sort the filter's rows (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"limit 0", schema.ErrValue, "query Q() { from Unit u select u.Hp order by u.Hp limit 0 }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: limit 0 keeps no rank; limit a top-N to at least 1, or drop the subscription (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"limit without order", schema.ErrValue, "query Q() { from Unit u select u limit 4 }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: limit without order by (the first rows in index order) is not kept; order by a key for a top-N, or drop limit (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"handle in where", schema.ErrValue, "query Q() { from Unit u where index(u) > 2 select u }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: index(u) reads the row's handle; test or rank a column instead: the subscription re-examines a row by its columns (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"handle as order key", schema.ErrValue, "query Q() { from Unit u select u order by u desc limit 2 }\nsubscription S of Q",
			"bad.tw:6:14: subscription S of query Q: u reads the row's handle; test or rank a column instead: the subscription re-examines a row by its columns (a subscription keeps a filter or box: where and select of the row; a count: select count(); a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"},
		{"name taken", schema.ErrDuplicate, "query Q() { from Unit u select u }\nsubscription Q of Q",
			`bad.tw:6:14: subscription "Q" is already declared as a query at bad.tw:5:7; rename one of them`},
		{"query with errors", schema.ErrUnknown, "query Q() { from Unit u where u.Hq > 0 select u }\nsubscription S of Q",
			`bad.tw:5:33: unknown column "Hq" in u.Hq (u is a row of table Unit); did you mean "Hp"?`},
		{"syntax", schema.ErrSyntax, "subscription S Q",
			`bad.tw:5:16: unexpected name Q; expected "of"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := schema.Load("bad.tw", []byte(subPrelude+c.src))
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
			assert.ErrorIs(t, err, c.kind)
		})
	}
}

// Format prints a subscription in canonical form, which parses back to
// itself.
func TestSubscriptionFormat(t *testing.T) {
	f, err := schema.Parse("sub.tw", []byte("subscription   S\n of Q"))
	require.NoError(t, err)
	want := "subscription S of Q\n"
	assert.Equal(t, want, string(schema.Format(f)))
	g, err := schema.Parse("sub.tw", schema.Format(f))
	require.NoError(t, err)
	assert.Equal(t, want, string(schema.Format(g)))
}
