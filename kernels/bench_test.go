package kernels_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
)

// BenchmarkHandOff measures what a parallel Run costs against the scalar
// walk of the same chunks, by chunks per worker and work per chunk: the
// measurement DefaultGrain comes from (docs/benchmarks.md, "Kernels").
// Each chunk adds 1 to rows float32 values (about rows/4 ns on one core);
// tickwork runs the chunks on a pool of 2 workers, every worker taking part
// (AllWorkers), scalar with kernels.Scalar. Run back to back, so the helpers
// are spinning when a Run starts; the parked case costs a futex wake-up more.
func BenchmarkHandOff(b *testing.B) {
	p, err := kernels.NewPool(2)
	require.NoError(b, err)
	defer p.Close()
	p.SetPolicy(kernels.AllWorkers)
	for _, rows := range []int{1024, 4096, 16384} {
		for _, perWorker := range []int{1, 2, 4} {
			chunks := 2 * perWorker
			data := make([]float32, chunks*rows)
			fn := func(_, c int) {
				s := data[c*rows : (c+1)*rows]
				for i := range s {
					s[i]++
				}
			}
			name := fmt.Sprintf("rows=%d/chunks-per-worker=%d", rows, perWorker)
			b.Run(name+"/tickwork", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p.Run(chunks, fn)
				}
			})
			b.Run(name+"/scalar", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					kernels.Scalar(chunks, fn)
				}
			})
		}
	}
}
