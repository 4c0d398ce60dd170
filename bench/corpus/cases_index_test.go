package corpus

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/bench/shop"
	"github.com/tickwork/tickwork/schema"
)

// queryName is the declared query of a case's TW.
var queryName = regexp.MustCompile(`^query (\w+)\(`)

// TestIndexCasesWellFormed: every index-served family of issue 23 has a
// case, and every such case names its index, makes SQLite's matching
// index, and runs its generated query and its scan.
func TestIndexCasesWellFormed(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	families := map[string]bool{}
	for _, c := range indexCases() {
		in := c.Info()
		families[in.Family] = true
		require.NotEmpty(t, in.Index, in.Name)
		require.NotEmpty(t, in.Indexes, "%s: SQLite's matching index", in.Name)
		require.NotNil(t, c.Generated(d), "%s: the indexed query", in.Name)
		require.NotNil(t, c.Scan(d), "%s: the query using scan", in.Name)
	}
	for _, f := range []string{"index point lookup unique", "index equality", "index range", "index top-n", "index group-by key",
		"index group-by key table", "index equality event", "index box", "index radius"} {
		require.True(t, families[f], "no index-served case of family %q", f)
	}
	for _, c := range append(arenaCases(), shopCases()...) {
		require.Empty(t, c.Info().Index, "%s: an issue 22 case keeps a scan", c.Info().Name)
		require.Nil(t, c.Scan(d), c.Info().Name)
	}
}

// TestIndexCasesPlans: in arena/arena.tw and bench/shop/shop.tw, the
// planner serves each index-served case's query from the case's index,
// and no other query of the corpus's from any index (the issue 22 cases,
// and the scan twins, are `using scan` where an index would serve them:
// their figures stay a scan's).
func TestIndexCasesPlans(t *testing.T) {
	served := map[string]string{} // query -> index
	for _, c := range indexCases() {
		m := queryName.FindStringSubmatch(c.Info().TW)
		require.NotNil(t, m, c.Info().Name)
		served[m[1]] = c.Info().Index
	}
	found := 0
	for _, f := range []string{"../../arena/arena.tw", "../shop/shop.tw"} {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		s, err := schema.Load(f, src)
		require.NoError(t, err)
		for _, q := range s.Queries {
			want, ok := served[q.Name]
			if !ok {
				assert.Nil(t, q.Index, "%s: query %s is served by an index: give it `using scan`", f, q.Name)
				continue
			}
			found++
			if assert.NotNil(t, q.Index, "%s: query %s scans; the case wants index %s", f, q.Name, want) {
				assert.Equal(t, want, q.Index.Index.Name, "%s: query %s", f, q.Name)
			}
		}
	}
	require.Equal(t, len(served), found, "every index-served case's query is declared")
}

// TestIndexCasesRuntimePlans: the generated queries the index-served
// cases run say at run time (Plan) that they walk the case's index, and
// their scans that they scan (or read the event list).
func TestIndexCasesRuntimePlans(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	s, a := d.Shop, d.A
	plans := map[string][2]string{ // case -> generated's plan, scan's plan
		"ix_player_by_account":    {shop.NewPlayerByAccountIx(s).Plan(), shop.NewPlayerByAccount(s).Plan()},
		"ix_orders_of_buyer":      {shop.NewOrdersOfBuyer(s).Plan(), shop.NewOrdersOfBuyerScan(s).Plan()},
		"ix_players_in_levels":    {shop.NewPlayersInLevels(s).Plan(), shop.NewPlayersInLevelsScan(s).Plan()},
		"ix_top_scores":           {shop.NewTopScoresIx(s).Plan(), shop.NewTopScores(s).Plan()},
		"ix_item_sales":           {shop.NewItemSales(s).Plan(), shop.NewItemSalesScan(s).Plan()},
		"ix_hit_totals_by_target": {arena.NewHitTotalsByTarget(a).Plan(), arena.NewHitTotalsByTargetScan(a).Plan()},
		"ix_weakest_units":        {arena.NewWeakestUnits(a).Plan(), arena.NewWeakestUnitsScan(a).Plan()},
		"ix_orders_by_item":       {shop.NewOrdersByItemIx(s).Plan(), shop.NewOrdersByItem(s).Plan()},
		"ix_sales_of_buyer":       {shop.NewSalesOfBuyer(s).Plan(), shop.NewSalesOfBuyerScan(s).Plan()},
		"ix_stores_in_box":        {shop.NewStoresInBox(s).Plan(), shop.NewStoresInBoxScan(s).Plan()},
		"ix_stores_near":          {shop.NewStoresNear(s).Plan(), shop.NewStoresNearScan(s).Plan()},
	}
	for _, c := range indexCases() {
		in := c.Info()
		p, ok := plans[in.Name]
		require.True(t, ok, "%s: add its queries' plans here", in.Name)
		assert.True(t, strings.HasPrefix(p[0], "index "+in.Index+" "), "%s: generated plan %q", in.Name, p[0])
		assert.Regexp(t, `(^|: )(scan|read) `, p[1], "%s: scan plan", in.Name)
		assert.NotContains(t, p[1], "index "+in.Index, "%s: scan plan", in.Name)
	}
}
