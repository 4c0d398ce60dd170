package tickwork_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// BenchmarkRunIf is the cost of run conditions in a frame: 16 Update
// systems, each adding 1 to a column of its own over a table of rows rows
// (0: an empty body, so that the frame is the scheduler's own work), with
// a run condition on a resource that holds (tickwork), without one
// (plain), and whose condition fails (skipped). docs/benchmarks.md, Run
// conditions, has the figures.
func BenchmarkRunIf(b *testing.B) {
	for _, rows := range []int{0, 4096} {
		for _, mode := range []string{"tickwork", "plain", "skipped"} {
			b.Run(fmt.Sprintf("rows=%d/%s", rows, mode), func(b *testing.B) {
				w := runIfBenchWorld(b, mode, rows)
				b.ReportAllocs()
				for b.Loop() {
					if err := w.Frame(runIfStep); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func runIfBenchWorld(b *testing.B, mode string, rows int) *tickwork.World {
	const systems = 16
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	gate := tickwork.AddResource(bl, "gate", mode != "skipped")
	tab := bl.Table(tickwork.TableSpec{Name: "Unit", Capacity: max(rows, 1)})
	for i := range systems {
		col := tickwork.AddColumn[int32](bl, tab, fmt.Sprint("C", i))
		bl.System(fmt.Sprint("s", i), tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			if mode != "plain" {
				d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
					g := tickwork.ReadResource(c, gate)
					return func(*tickwork.Context) bool { return *g }
				})
			}
			q := tickwork.NewQuery1(tickwork.Write(d, col))
			if rows == 0 {
				return func(*tickwork.Context) {}
			}
			return func(*tickwork.Context) {
				for r := range q.All() {
					*r.Get()++
				}
			}
		})
	}
	w, err := bl.Build()
	require.NoError(b, err)
	b.Cleanup(func() { _ = w.Close() })
	for range rows {
		_, err := tab.Insert()
		require.NoError(b, err)
	}
	return w
}
