package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// recordingWorld declares a table and one system that deletes from it
// through WorkerRecorders (so it has a serial buffer and, from its first
// run, one buffer per worker).
func recordingWorld(t *testing.T, opts ...runtime.Option) (*runtime.Builder, int64) {
	t.Helper()
	b := runtime.NewBuilder(opts...)
	tab, err := b.Table(ephemeral.TableSpec{Name: "Body", Capacity: 64})
	require.NoError(t, err)
	require.NoError(t, b.Add(systems.System{Name: "kill", Phase: systems.Update,
		Manifest: systems.Manifest{Deletes: []*ephemeral.Table{tab}},
		Run: func(ctx *systems.Context) error {
			_, err := ctx.WorkerRecorders(tab)
			return err
		}}))
	return b, b.Budget().Used()
}

// Command buffers' initial reservations are charged to the world's budget:
// each system's serial buffer at Build, its per-worker set at its first
// WorkerRecorders call, commands.BufferBytes(WithCommandRecords) each.
func TestCommandBuffersCharged(t *testing.T) {
	const workers, records = 3, 5000
	b, decls := recordingWorld(t, runtime.WithWorkers(workers), runtime.WithCommandRecords(records))
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	one := commands.BufferBytes(records)
	assert.Equal(t, decls+one, w.Budget().Used(), "the serial buffer, at Build")
	require.NoError(t, w.Frame(0))
	assert.Equal(t, decls+one+workers*one, w.Budget().Used(), "the per-worker set, at the first WorkerRecorders")
	require.NoError(t, w.Frame(0))
	assert.Equal(t, decls+(1+workers)*one, w.Budget().Used(), "once")
}

// The options that ended in Go's fatal out of memory are refused with a
// typed budget error naming the system: WithCommandRecords(MaxCommandRecords)
// in a 64 MiB world fails Build (its serial buffer alone is 384 MiB); 64
// workers of 2^20 records (1.5 GiB) in a 1 GiB world fail the first frame
// at WorkerRecorders, with a *scheduler.SystemError wrapping the
// *memory.BudgetError that advises fewer workers, and charge nothing.
func TestCommandBuffersPastBudget(t *testing.T) {
	t.Run("serial buffer at Build", func(t *testing.T) {
		b, decls := recordingWorld(t, runtime.WithWorkers(256), runtime.WithCommandRecords(runtime.MaxCommandRecords),
			runtime.WithMemoryBudget(64<<20))
		w, err := b.Build()
		require.Nil(t, w)
		var be *memory.BudgetError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "command buffer", Name: "kill"},
			Bytes: commands.BufferBytes(runtime.MaxCommandRecords), Used: decls, Budget: 64 << 20, Owner: memory.OwnerWorld}, *be)
		assert.ErrorIs(t, err, runtime.ErrMemoryBudget)
		assert.Contains(t, err.Error(), "lower the records per command buffer (runtime.WithCommandRecords), or raise the world's budget")
	})
	t.Run("per-worker buffers at the first WorkerRecorders", func(t *testing.T) {
		const workers, records = 64, 1 << 20
		b, decls := recordingWorld(t, runtime.WithWorkers(workers), runtime.WithCommandRecords(records),
			runtime.WithMemoryBudget(1<<30))
		w, err := b.Build()
		require.NoError(t, err)
		defer w.Close()
		used := w.Budget().Used()
		require.Equal(t, decls+commands.BufferBytes(records), used)
		for range 2 { // refused, and refused again: nothing charged
			err = w.Frame(0)
			var se *scheduler.SystemError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "kill", se.System)
			var be *memory.BudgetError
			require.ErrorAs(t, err, &be)
			assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "command buffer", Name: "kill", Workers: workers},
				Bytes: workers * commands.BufferBytes(records), Used: used, Budget: 1 << 30, Owner: memory.OwnerWorld}, *be)
			assert.Contains(t, err.Error(), "or use fewer workers (runtime.WithWorkers)")
			assert.Equal(t, used, w.Budget().Used())
		}
	})
}
