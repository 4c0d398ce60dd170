package indexkit_test

import (
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
	kit "github.com/tickwork/tickwork/schema/codegen/internal/indexkit"
)

// rtCatalog is indexkit.tw's run-time catalog bound to tabs by hand (the
// package is generated without -catalog).
func rtCatalog(t testing.TB, tabs *kit.Tables) (*runq.Catalog, string) {
	t.Helper()
	src, err := os.ReadFile("indexkit.tw")
	require.NoError(t, err)
	cat, err := runq.NewCatalog("indexkit.tw", string(src))
	require.NoError(t, err)
	it := tabs.Item
	for _, err := range []error{cat.BindTable("Item", it.Table),
		runq.BindColumn(cat, "Item", "Id", it.Id), runq.BindColumn(cat, "Item", "Grp", it.Grp),
		runq.BindColumn(cat, "Item", "Kind", it.Kind), runq.BindColumn(cat, "Item", "Flag", it.Flag),
		runq.BindColumn(cat, "Item", "Score", it.Score), runq.BindColumn(cat, "Item", "W", it.W),
		runq.BindColumn(cat, "Item", "X", it.X), runq.BindColumn(cat, "Item", "Y", it.Y),
		runq.BindColumn(cat, "Item", "Owner", it.Owner),
		cat.BindTable("Tag", tabs.Tag.Table), runq.BindColumn(cat, "Tag", "On", tabs.Tag.On)} {
		require.NoError(t, err)
	}
	return cat, string(src)
}

// rtFlatten is generated rows (a slice, or one row) as runq values.
func rtFlatten(rows any) []runq.Value {
	rv := reflect.ValueOf(rows)
	if rv.Kind() != reflect.Slice {
		s := reflect.MakeSlice(reflect.SliceOf(rv.Type()), 1, 1)
		s.Index(0).Set(rv)
		rv = s
	}
	var out []runq.Value
	for i := range rv.Len() {
		for f := range rv.Index(i).NumField() {
			switch x := rv.Index(i).Field(f).Interface().(type) {
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
			}
		}
	}
	return out
}

// rtIndexed are the index-served queries the interpreter runs (as their
// scans), each with its compiled Run over the same arguments.
var rtIndexed = map[string]func(q *kit.Queries, a []runq.Value) any{
	"FindId":       func(q *kit.Queries, a []runq.Value) any { return q.FindId.Run(nil, a[0].Int64()) },
	"EqGrpKind":    func(q *kit.Queries, a []runq.Value) any { return q.EqGrpKind.Run(nil, a[0].Int32()) },
	"EqOwner":      func(q *kit.Queries, a []runq.Value) any { return q.EqOwner.Run(nil, a[0].Handle()) },
	"TopW":         func(q *kit.Queries, a []runq.Value) any { return q.TopW.Run(nil, a[0].Int32()) },
	"TopWDesc":     func(q *kit.Queries, a []runq.Value) any { return q.TopWDesc.Run(nil, a[0].Int32()) },
	"AllScoreDesc": func(q *kit.Queries, a []runq.Value) any { return q.AllScoreDesc.Run(nil) },
	"OrderedRange": func(q *kit.Queries, a []runq.Value) any {
		return q.OrderedRange.Run(nil, a[0].Int32(), a[1].Int32(), a[2].Int32())
	},
	"RangeScore": func(q *kit.Queries, a []runq.Value) any { return q.RangeScore.Run(nil, a[0].Int32(), a[1].Int32()) },
	"RangeW":     func(q *kit.Queries, a []runq.Value) any { return q.RangeW.Run(nil, a[0].Float32()) },
	"RangeSum":   func(q *kit.Queries, a []runq.Value) any { return q.RangeSum.Run(a[0].Float32()) },
	"Box": func(q *kit.Queries, a []runq.Value) any {
		return q.Box.Run(nil, a[0].Float32(), a[1].Float32(), a[2].Float32(), a[3].Float32())
	},
	"Disc": func(q *kit.Queries, a []runq.Value) any {
		return q.Disc.Run(nil, a[0].Float32(), a[1].Float32(), a[2].Float32())
	},
	"RangeGroups": func(q *kit.Queries, a []runq.Value) any { return q.RangeGroups.Run(nil, a[0].Float32()) },
	"PageW": func(q *kit.Queries, a []runq.Value) any {
		return q.PageW.Run(nil, a[0].Float32(), a[1].Int32(), a[2].Int32())
	},
	"DiscScan": func(q *kit.Queries, a []runq.Value) any {
		return q.DiscScan.Run(nil, a[0].Float32(), a[1].Float32(), a[2].Float32())
	},
	"BoxScan": func(q *kit.Queries, a []runq.Value) any {
		return q.BoxScan.Run(nil, a[0].Float32(), a[1].Float32(), a[2].Float32(), a[3].Float32())
	},
}

// rtSeeds is the worlds TestRuntimeIndexedQueriesMatchCompiled plays.
var rtSeeds = 6

// TestRuntimeIndexedQueriesMatchCompiled: each index-served query,
// prepared at run time from its declared text (the interpreter scans where
// the compiled query walks its index), returns the compiled rows bit for
// bit and in order over random worlds with random arguments.
func TestRuntimeIndexedQueriesMatchCompiled(t *testing.T) {
	total := 0
	for seed := range uint64(rtSeeds) {
		wd := newWorld(t, seed)
		cat, src := rtCatalog(t, wd.t)
		prepared := map[string]*runq.Query{}
		for name := range rtIndexed {
			text := regexp.MustCompile(`(?m)^query ` + name + `\(.*$`).FindString(src)
			q, err := runq.Prepare(cat, strings.Replace(text, "query "+name+"(", "query Rt"+name+"(", 1))
			require.NoError(t, err, name)
			prepared[name] = q
		}
		for round := range 10 {
			wd.mutate(t)
			for _, name := range slices.Sorted(maps.Keys(rtIndexed)) {
				gen, q := rtIndexed[name], prepared[name]
				var args []runq.Value
				for _, p := range q.Params() {
					switch p.Type.Kind {
					case schema.Int32:
						args = append(args, runq.I32(int32(wd.rng.IntN(50))-15))
					case schema.Int64:
						args = append(args, runq.I64(int64(wd.rng.IntN(1200))))
					case schema.Float32:
						args = append(args, runq.F32(wd.float()))
					case schema.Ref:
						args = append(args, runq.Ref(wd.anyItem()))
					}
				}
				want := rtFlatten(gen(wd.q, args))
				total += len(want)
				got, err := q.Run(nil, args)
				require.NoError(t, err)
				require.Equal(t, len(want), len(got), "seed %d round %d %s %v", seed, round, name, args)
				for i := range want {
					if !rtSame(want[i], got[i]) {
						t.Fatalf("seed %d round %d %s %v: value %d is %v, compiled %v", seed, round, name, args, i, got[i], want[i])
					}
				}
			}
		}
	}
	require.Greater(t, total, 5000, "values compared")
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
