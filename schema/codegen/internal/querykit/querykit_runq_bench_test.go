package querykit_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/runq"
)

// BenchmarkRuntimeQueries runs five declared queries in the same world two
// ways: compiled (the generated Run) and runq (the same text prepared once
// at run time, arguments changed between calls), over a world of about
// 500 persons (docs/benchmarks.md, Run-time queries). Besides ns/op each
// reports cpu-ns/op (its thread's CPU time per call, on Linux) and the
// runq lane the rows it visited.
func BenchmarkRuntimeQueries(b *testing.B) {
	wd := newWorld(b, 1, 9)
	for range 12 {
		wd.mutate(b)
		require.NoError(b, wd.w.Frame(dt))
	}
	cat := bindCatalog(b, wd.t)
	var handles []runq.Value
	for row := range wd.t.Person.Table.Cap() {
		if h, ok := wd.t.Person.Table.HandleAt(row); ok {
			handles = append(handles, runq.Ref(h))
		}
	}
	// args writes call i's arguments into a (the runq lane's reused slice)
	cases := []struct {
		name string
		args func(a []runq.Value, i int)
	}{
		{"PersonByHandle", func(a []runq.Value, i int) { a[0] = handles[i%len(handles)] }},
		{"Adults", func(a []runq.Value, i int) { a[0] = runq.I32(int32(i % 40)) }},
		{"Stats", func([]runq.Value, int) {}},
		{"ByAge", func([]runq.Value, int) {}},
		{"Oldest", func(a []runq.Value, i int) { a[0] = runq.I32(10) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.Run("compiled", func(b *testing.B) {
				var bufs buffers // one reused result buffer per query
				p := params{n: 10}
				b.ReportAllocs()
				clock, i := startCPU(), 0
				for ; b.Loop(); i++ {
					switch c.name {
					case "PersonByHandle":
						bufs.byHandle = wd.q.PersonByHandle.Run(bufs.byHandle, handles[i%len(handles)].Handle())
					case "Adults":
						bufs.adults = wd.q.Adults.Run(bufs.adults, int32(i%40))
					case "Stats":
						bufs.stats = wd.q.Stats.Run()
					case "ByAge":
						bufs.byAge = wd.q.ByAge.Run(bufs.byAge)
					case "Oldest":
						bufs.oldest = wd.q.Oldest.Run(bufs.oldest, p.n)
					}
				}
				clock.stop(b, i)
			})
			b.Run("runq", func(b *testing.B) {
				q, err := runq.Prepare(cat, declaredText(b, c.name))
				require.NoError(b, err)
				var buf []runq.Value
				args := make([]runq.Value, len(q.Params()))
				for i := range 64 { // warm: the buffer and the scratch grow to their largest
					c.args(args, i)
					buf, _ = q.Run(buf, args)
				}
				b.ReportAllocs()
				clock, i := startCPU(), 0
				for ; b.Loop(); i++ {
					switch c.name { // the arguments of c.args, set inline as the compiled lane's
					case "PersonByHandle":
						args[0] = handles[i%len(handles)]
					case "Adults":
						args[0] = runq.I32(int32(i % 40))
					case "Oldest":
						args[0] = runq.I32(10)
					}
					buf, _ = q.Run(buf, args)
				}
				clock.stop(b, i)
				b.ReportMetric(float64(q.Visited()), "rows")
			})
		})
	}
}
