package tickwork_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// serialMisuse is a kernel that uses its system's serial accessors (made
// by tickwork.Record and tickwork.Emit), which belong to the body.
type serialMisuse struct {
	rec  *tickwork.Recorder
	pos  *tickwork.Column[float32]
	hits *tickwork.Emitter[int32]
	use  string
}

func (k *serialMisuse) run(w, chunk int) {
	switch k.use {
	case "Create":
		k.rec.Create()
	case "Delete":
		k.rec.Delete(0)
	case "Set":
		tickwork.Set(k.rec, k.pos, 0, 1)
	case "Emit":
		k.hits.Emit(int32(chunk))
	}
}

// TestSerialAccessorInParallel: a kernel of tickwork.Parallel that records
// or emits through its system's serial Recorder or Emitter panics, on one
// worker or several at once, with a message naming the parallel form,
// before it touches the buffer or the table: under -race no data race is
// reported, the panic is what the test sees.
func TestSerialAccessorInParallel(t *testing.T) {
	const fixRec = `tickwork: the serial Recorder (tickwork.Record) of table "Car" used inside a tickwork.Parallel kernel of system "drive": it belongs to the system's body; from a kernel, record through the worker's recorder rec.Worker(worker, chunk) (tickwork.Recorder.Worker; spawners: Spawner.Worker)`
	const fixEmit = `tickwork: the serial Emitter (tickwork.Emit) of event table "Honk" used inside a tickwork.Parallel kernel of system "drive": it belongs to the system's body; from a kernel, emit through a tickwork.ParallelEmitter (tickwork.EmitParallel) and its Worker(worker, chunk)`
	for _, use := range []string{"Create", "Delete", "Set", "Emit"} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprint(use, "/", workers, " workers"), func(t *testing.T) {
				b := tickwork.NewBuilder(tickwork.WithWorkers(workers))
				cars := b.Table(tickwork.TableSpec{Name: "Car", Capacity: 64, ChunkRows: 64})
				pos := tickwork.AddColumn[float32](b, cars, "Pos")
				honks := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Honk", Capacity: 64})
				b.System("drive", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
					k := serialMisuse{rec: tickwork.Record(d, cars), pos: pos, hits: tickwork.Emit(d, honks), use: use}
					return func(ctx *tickwork.Context) {
						tickwork.ParallelPolicy(ctx, tickwork.KernelPolicy{Grain: 1, Max: workers, Fixed: true}, 8, k, (*serialMisuse).run)
					}
				})
				w, err := b.Build()
				require.NoError(t, err)
				t.Cleanup(func() { _ = w.Close() })
				got := func() (v any) {
					defer func() { v = recover() }()
					_ = w.Frame(1.0 / 60)
					return nil
				}()
				pe, ok := got.(error)
				require.True(t, ok, "Frame panicked with %v, want an error", got)
				var kp *tickwork.KernelPanicError
				require.True(t, errors.As(pe, &kp), "want a kernel's panic inside: %v", pe)
				want := fixRec
				if use == "Emit" {
					want = fixEmit
				}
				assert.Equal(t, want, fmt.Sprint(kp.Value))
			})
		}
	}
}
