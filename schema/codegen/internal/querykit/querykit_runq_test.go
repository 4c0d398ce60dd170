package querykit_test

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
	kit "github.com/tickwork/tickwork/schema/codegen/internal/querykit"
)

// bindCatalog is the run-time catalog of querykit.tw bound to tabs, as
// the generated code provides it (tickwork-gen -catalog).
func bindCatalog(t testing.TB, tabs *kit.Tables) *runq.Catalog {
	t.Helper()
	cat, err := runq.NewCatalogOf(kit.SchemaFile, kit.SchemaText, tabs.BindCatalog)
	require.NoError(t, err)
	return cat
}

// declaredText is the text of query name as querykit.tw declares it,
// renamed RtNAME (a run-time query may not reuse a schema name).
func declaredText(t testing.TB, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?ms)^query ` + name + `\(.*?^}`).FindString(kit.SchemaText)
	require.NotEmpty(t, m, "query %s in querykit.tw", name)
	return strings.Replace(m, "query "+name+"(", "query Rt"+name+"(", 1)
}

// flatten is rows (a generated row slice, or one row) as runq values,
// field by field (reflection: test-only).
func flatten(rows any) []runq.Value {
	rv := reflect.ValueOf(rows)
	if rv.Kind() != reflect.Slice {
		s := reflect.MakeSlice(reflect.SliceOf(rv.Type()), 1, 1)
		s.Index(0).Set(rv)
		rv = s
	}
	var out []runq.Value
	for i := range rv.Len() {
		row := rv.Index(i)
		for f := range row.NumField() {
			switch x := row.Field(f).Interface().(type) {
			case int32:
				out = append(out, runq.I32(x))
			case int64:
				out = append(out, runq.I64(x))
			case float32:
				out = append(out, runq.F32(x))
			case float64:
				out = append(out, runq.F64(x))
			case bool:
				out = append(out, runq.Bool(x))
			case tickwork.Handle:
				out = append(out, runq.Ref(x))
			default:
				panic(fmt.Sprintf("flatten: field of type %T", x))
			}
		}
	}
	return out
}

// rtParams are one frame's arguments of the run-time queries.
type rtParams struct {
	params
	code  int64
	w     float32 // a keyset page's key values
	ix, a int32
}

// rtCase is a declared query the interpreter runs: its compiled run and
// its arguments, by parameter name.
type rtCase struct {
	name string
	gen  func(q *kit.Queries, p rtParams) any
}

var rtCases = []rtCase{
	{"Adults", func(q *kit.Queries, p rtParams) any { return q.Adults.Run(nil, p.min) }},
	{"FirstAdults", func(q *kit.Queries, p rtParams) any { return q.FirstAdults.Run(nil, p.min, p.n) }},
	{"PersonByHandle", func(q *kit.Queries, p rtParams) any { return q.PersonByHandle.Run(nil, p.h) }},
	{"Stats", func(q *kit.Queries, p rtParams) any { return q.Stats.Run() }},
	{"Extremes", func(q *kit.Queries, p rtParams) any { return q.Extremes.Run() }},
	{"ByAge", func(q *kit.Queries, p rtParams) any { return q.ByAge.Run(nil) }},
	{"ByW", func(q *kit.Queries, p rtParams) any { return q.ByW.Run(nil) }},
	{"ByFriend", func(q *kit.Queries, p rtParams) any { return q.ByFriend.Run(nil) }},
	{"ByAgeOn", func(q *kit.Queries, p rtParams) any { return q.ByAgeOn.Run(nil, p.n) }},
	{"Oldest", func(q *kit.Queries, p rtParams) any { return q.Oldest.Run(nil, p.n) }},
	{"SortedW", func(q *kit.Queries, p rtParams) any { return q.SortedW.Run(nil) }},
	{"Ages", func(q *kit.Queries, p rtParams) any { return q.Ages.Run(nil) }},
	{"AgeW", func(q *kit.Queries, p rtParams) any { return q.AgeW.Run(nil) }},
	{"BadgeByCode", func(q *kit.Queries, p rtParams) any { return q.BadgeByCode.Run(nil, p.code) }},
	{"OrderBuyers", func(q *kit.Queries, p rtParams) any { return q.OrderBuyers.Run(nil) }},
	{"OrdersLost", func(q *kit.Queries, p rtParams) any { return q.OrdersLost.Run(nil) }},
	{"Placed", func(q *kit.Queries, p rtParams) any { return q.Placed.Run(nil) }},
	{"Tagged", func(q *kit.Queries, p rtParams) any { return q.Tagged.Run(nil) }},
	{"BadgeHolder", func(q *kit.Queries, p rtParams) any { return q.BadgeHolder.Run(nil, p.code) }},
	{"PageW", func(q *kit.Queries, p rtParams) any { return q.PageW.Run(nil, p.w, p.ix, p.n) }},
	{"OrdersAfter", func(q *kit.Queries, p rtParams) any { return q.OrdersAfter.Run(nil, p.a, p.ix) }},
	{"AmountsAfter", func(q *kit.Queries, p rtParams) any { return q.AmountsAfter.Run(nil, p.a, p.n) }},
	{"AgeRanks", func(q *kit.Queries, p rtParams) any { return q.AgeRanks.Run(nil, p.min) }},
	{"RunningV", func(q *kit.Queries, p rtParams) any { return q.RunningV.Run(nil) }},
	{"FirstRanks", func(q *kit.Queries, p rtParams) any { return q.FirstRanks.Run(nil, p.n) }},
	{"OrderRuns", func(q *kit.Queries, p rtParams) any { return q.OrderRuns.Run(nil, p.n) }},
	{"Buyers", func(q *kit.Queries, p rtParams) any { return q.Buyers.Run(nil, p.min) }},
	{"Unbought", func(q *kit.Queries, p rtParams) any { return q.Unbought.Run(nil, p.w) }},
	{"Befriended", func(q *kit.Queries, p rtParams) any { return q.Befriended.Run(nil, p.min) }},
	{"BuyerByHandle", func(q *kit.Queries, p rtParams) any { return q.BuyerByHandle.Run(nil, p.h) }},
	{"OnOrTagged", func(q *kit.Queries, p rtParams) any { return q.OnOrTagged.Run(nil, p.min) }},
	{"OnAndTagged", func(q *kit.Queries, p rtParams) any { return q.OnAndTagged.Run(nil, p.min) }},
	{"OnNotTagged", func(q *kit.Queries, p rtParams) any { return q.OnNotTagged.Run(nil, p.min) }},
	{"KeysOrAmounts", func(q *kit.Queries, p rtParams) any { return q.KeysOrAmounts.Run(nil, p.min) }},
	{"CommonKeys", func(q *kit.Queries, p rtParams) any { return q.CommonKeys.Run(nil) }},
	{"Lonely", func(q *kit.Queries, p rtParams) any { return q.Lonely.Run(nil, p.min) }},
}

// rtArgs are the arguments of prepared query q from p, by parameter name.
func rtArgs(q *runq.Query, p rtParams) []runq.Value {
	var args []runq.Value
	for _, pr := range q.Params() {
		switch pr.Name {
		case "min":
			args = append(args, runq.I32(p.min))
		case "n":
			args = append(args, runq.I32(p.n))
		case "h":
			args = append(args, runq.Ref(p.h))
		case "c":
			args = append(args, runq.I64(p.code))
		case "w", "price":
			args = append(args, runq.F32(p.w))
		case "ix":
			args = append(args, runq.I32(p.ix))
		case "a":
			args = append(args, runq.I32(p.a))
		default:
			panic("rtArgs: parameter " + pr.Name)
		}
	}
	return args
}

// TestRuntimeQueriesMatchCompiled: each declared query the interpreter
// runs, prepared at run time from its own text, returns the generated
// query's rows bit for bit and in the same order, over random worlds
// (creates, deletes, tags, stale refs, duplicate unique keys, NaN, ±0,
// ±Inf) stepped at 1 and 2 workers, after every frame, with new arguments
// each frame and the prepared query and its buffer reused.
func TestRuntimeQueriesMatchCompiled(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("seed%d/workers%d", seed, workers), func(t *testing.T) {
				wd := newWorld(t, workers, seed)
				cat := bindCatalog(t, wd.t)
				prepared := make([]*runq.Query, len(rtCases))
				for i, c := range rtCases {
					q, err := runq.Prepare(cat, declaredText(t, c.name))
					require.NoError(t, err, c.name)
					prepared[i] = q
				}
				var buf []runq.Value
				for f := range 12 {
					wd.mutate(t)
					wd.mutateBadges(t)
					require.NoError(t, wd.w.Frame(dt))
					p := rtParams{params: wd.frameParams(), code: int64(wd.rng.IntN(130)), w: wd.float(),
						ix: int32(wd.rng.IntN(700)) - 50, a: int32(wd.rng.IntN(12))}
					for i, c := range rtCases {
						want := flatten(c.gen(wd.q, p))
						var err error
						buf, err = prepared[i].Run(buf, rtArgs(prepared[i], p))
						require.NoError(t, err)
						require.Equal(t, len(want), len(buf), "frame %d, %s (%+v): values", f, c.name, p)
						for j := range want {
							if !rtSame(want[j], buf[j]) {
								t.Fatalf("frame %d, %s (%+v): value %d (row %d) is %v (%v), compiled %v (%v)", f, c.name, p, j,
									j/len(prepared[i].Columns()), buf[j], buf[j].Kind(), want[j], want[j].Kind())
							}
						}
					}
				}
			})
		}
	}
}

// rtSame reports whether a and b are the same value bit for bit, any two
// NaNs of one kind counting as the same: the payload of NaN + NaN is the
// operand the machine's add keeps, which the Go compiler's operand order
// decides (it differs between the -race build and the plain one), so
// neither lane promises a NaN's bits from a sum.
func rtSame(a, b runq.Value) bool {
	if a == b {
		return true
	}
	switch a.Kind() {
	case schema.Float32:
		return a.Kind() == b.Kind() && a.Float32() != a.Float32() && b.Float32() != b.Float32()
	case schema.Float64:
		return a.Kind() == b.Kind() && a.Float64() != a.Float64() && b.Float64() != b.Float64()
	}
	return false
}
