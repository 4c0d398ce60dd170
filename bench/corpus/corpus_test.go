package corpus

import (
	"database/sql"
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/runq"
)

// small is the agreement test's data, built once per test binary.
var small = sync.OnceValues(func() (*Data, error) { return New(Small()) })

// prepared returns the case's two statements, prepared on db.
func prepared(t testing.TB, db *DB, c Case) (scan, index *sql.Stmt) {
	t.Helper()
	in := c.Info()
	scan, err := db.Scan.Prepare(in.SQL)
	require.NoError(t, err, "%s: prepare SQL", in.Name)
	q := in.SQL
	if in.IndexSQL != "" {
		q = in.IndexSQL
	}
	index, err = db.Index.Prepare(q)
	require.NoError(t, err, "%s: prepare index SQL", in.Name)
	t.Cleanup(func() { scan.Close(); index.Close() })
	return scan, index
}

// TestCorpusAgrees: at the small size, every case's hand loop, generated
// query (its parallel lane, and an index-served case's scan), SQLite's
// scan and SQLite with the indexes return the same rows in the same
// order, floats bit for bit except where Info.Tolerance says (and then
// within 1e-9 relative), and no case's result is empty (a case that
// returns nothing would agree vacuously).
func TestCorpusAgrees(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	cases := Cases()
	db, err := OpenDB(d, cases)
	require.NoError(t, err)
	defer db.Close()
	for _, c := range cases {
		t.Run(c.Info().Name, func(t *testing.T) {
			scan, index := prepared(t, db, c)
			require.NoError(t, c.Agree(d, scan, index))
			require.Positive(t, c.Hand(d)(), "an empty result agrees vacuously: pick parameters that select rows")
		})
	}
}

// TestCasesWellFormed: names are unique, every case has a family, a set,
// SQL and the query text, and at least 30 cases cover the families of
// issue 22.
func TestCasesWellFormed(t *testing.T) {
	seen := map[string]bool{}
	families := map[string]bool{}
	for _, c := range Cases() {
		in := c.Info()
		require.False(t, seen[in.Name], "duplicate case %s", in.Name)
		seen[in.Name] = true
		families[in.Family] = true
		require.NotEmpty(t, in.Family, in.Name)
		require.Contains(t, []string{"arena", "shop"}, in.Set, in.Name)
		require.NotEmpty(t, in.SQL, in.Name)
		require.Contains(t, in.TW, "query ", in.Name)
	}
	require.GreaterOrEqual(t, len(seen), 30)
	for _, f := range []string{"filter", "point lookup", "point lookup unique key", "aggregate", "group-by ref", "group-by float",
		"group-by two keys", "top-n", "top-n two keys", "distinct", "distinct two columns", "join entity has/not has", "join ref",
		"left join ref", "semi-join", "anti-join", "union", "intersect", "except", "window row_number", "window running sum",
		"keyset pagination", "event group-by ref"} {
		require.True(t, families[f], "no case of family %q", f)
	}
}

// TestHandAllocatesNothing: once its buffer has grown, every hand loop
// allocates nothing per call.
func TestHandAllocatesNothing(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	for _, c := range Cases() {
		run := c.Hand(d)
		run()
		require.Zero(t, testing.AllocsPerRun(20, func() { run() }), "%s allocates", c.Info().Name)
	}
}

// TestGeneratedAllocatesNothing: once its buffers have grown, every
// generated query (its parallel lane and its scan too) allocates nothing per call, and every case of a family
// the generator has runs its generated side.
func TestGeneratedAllocatesNothing(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	wired := 0
	for _, c := range Cases() {
		run := c.Generated(d)
		if run == nil {
			continue
		}
		wired++
		run()
		require.Zero(t, testing.AllocsPerRun(20, func() { run() }), "%s allocates", c.Info().Name)
		if par := c.Parallel(d); par != nil {
			par()
			require.Zero(t, testing.AllocsPerRun(20, func() { par() }), "%s's parallel lane allocates", c.Info().Name)
		}
		if scan := c.Scan(d); scan != nil {
			scan()
			require.Zero(t, testing.AllocsPerRun(20, func() { scan() }), "%s's scan allocates", c.Info().Name)
		}
	}
	require.GreaterOrEqual(t, wired, 27, "cases with a generated side")
}

// TestAgreeFails: a hand loop that drops its last row, or one that swaps
// two rows, is caught by Agree (the comparison can fail).
func TestAgreeFails(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	cases := Cases()
	db, err := OpenDB(d, cases)
	require.NoError(t, err)
	defer db.Close()
	var k *Kase[HXY, *HXY]
	for _, c := range cases {
		if c.Info().Name == "projectile_targets" {
			k = c.(*Kase[HXY, *HXY])
		}
	}
	require.NotNil(t, k)
	scan, index := prepared(t, db, k)
	for name, spoil := range map[string]func([]HXY) []HXY{
		"drop": func(r []HXY) []HXY { return r[:len(r)-1] },
		"swap": func(r []HXY) []HXY { r[0], r[1] = r[1], r[0]; return r },
	} {
		bad := *k
		bad.NewHand = func(d *Data) func([]HXY) []HXY {
			f := k.NewHand(d)
			return func(dst []HXY) []HXY { return spoil(f(dst)) }
		}
		require.Error(t, bad.Agree(d, scan, index), name)
	}
}

func ExampleCases() {
	d, err := New(Small())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	for _, c := range Cases()[:2] {
		fmt.Println(c.Info().Name, c.Info().Family, c.Hand(d)())
	}
	// Output:
	// count_units aggregate 1
	// weakest_units top-n 10
}

// TestRunqAgrees: at the small size, every case's query text prepared at
// run time (package runq, against the data set's catalog) returns the
// generated lane's rows (the hand loop's where the case has no generated
// query) bit for bit, in the same order; the cases the interpreter
// refuses are logged with Prepare's reason, and at most runqRefused are.
func TestRunqAgrees(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	refused := 0
	for _, c := range Cases() {
		t.Run(c.Info().Name, func(t *testing.T) {
			got, want, err := runqAndWant(c, d)
			if errors.Is(err, runq.ErrUnsupported) {
				refused++
				t.Skipf("runq refuses %s: %v", c.Info().Name, err)
			}
			require.NoError(t, err)
			require.Positive(t, len(want), "an empty result agrees vacuously")
			require.Equal(t, want, got)
		})
	}
	require.LessOrEqual(t, refused, runqRefused, "cases runq refuses")
}

// runqRefused is how many corpus cases runq may refuse (ErrUnsupported):
// the three over an event table (hit_totals_by_target,
// ix_hit_totals_by_target, ix_sales_of_buyer).
const runqRefused = 3

// runqAndWant returns c's runq rows and the generated lane's (else the
// hand loop's), each row printed with %v and its floats' bits.
func runqAndWant(c Case, d *Data) (got, want []string, err error) {
	type rower interface {
		runqRows(d *Data) (got, want []string, err error)
	}
	return c.(rower).runqRows(d)
}

func (k *Kase[R, P]) runqRows(d *Data) (got, want []string, err error) {
	f, err := k.newRunq(d)
	if err != nil {
		return nil, nil, err
	}
	mk := k.NewGen
	if mk == nil {
		mk = k.NewHand
	}
	return printRows(f(nil)), printRows(mk(d)(nil)), nil
}

// printRows prints each row with %v (floats by their shortest exact
// form, -0 apart from +0).
func printRows[R any](rs []R) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = fmt.Sprintf("%v", r)
	}
	return out
}

// bytesPerRun is the heap bytes allocated per call of run, over n calls.
func bytesPerRun(n int, run func() int) float64 {
	var a, b goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&a)
	for range n {
		run()
	}
	goruntime.ReadMemStats(&b)
	return float64(b.TotalAlloc-a.TotalAlloc) / float64(n)
}

// TestRunqAllocates: once its buffers have grown, every case's runq lane
// allocates nothing on a point lookup and at most 64 B a call on the
// others.
func TestRunqAllocates(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	for _, c := range Cases() {
		run, err := c.Runq(d)
		if errors.Is(err, runq.ErrUnsupported) {
			continue
		}
		require.NoError(t, err, c.Info().Name)
		run()
		run()
		if strings.HasPrefix(c.Info().Family, "point lookup") {
			require.Zero(t, testing.AllocsPerRun(50, func() { run() }), "%s allocates", c.Info().Name)
		} else {
			require.LessOrEqual(t, bytesPerRun(200, run), 64.0, "%s allocates", c.Info().Name)
		}
	}
}
