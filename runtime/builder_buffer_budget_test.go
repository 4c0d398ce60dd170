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

// recordingWorld declares a table and one system that records deletes
// into it (systems.Record: a serial buffer and one buffer per worker, made
// at Build). It returns the builder and the bytes its declarations charged.
func recordingWorld(t *testing.T, opts ...runtime.Option) (*runtime.Builder, int64) {
	t.Helper()
	b := runtime.NewBuilder(opts...)
	tab := b.Table(ephemeral.TableSpec{Name: "Body", Capacity: 64})
	b.System("kill", systems.Update, func(s *systems.Decl) systems.RunFunc {
		systems.Record(s, tab)
		return func(*systems.Context) {}
	})
	require.NoError(t, b.Err())
	return b, b.Budget().Used()
}

// Command buffers' initial reservations are charged to the world's budget
// at Build: each recording system's serial buffer and its per-worker set,
// commands.BufferBytes(WithCommandRecords) each; frames charge nothing more.
func TestCommandBuffersCharged(t *testing.T) {
	const workers, records = 3, 5000
	b, decls := recordingWorld(t, runtime.WithWorkers(workers), runtime.WithCommandRecords(records))
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	one := commands.BufferBytes(records)
	assert.Equal(t, decls+(1+workers)*one, w.Budget().Used(), "the serial buffer and the per-worker set, at Build")
	require.NoError(t, w.Frame(0))
	require.NoError(t, w.Frame(0))
	assert.Equal(t, decls+(1+workers)*one, w.Budget().Used(), "once")
}

// The options that ended in Go's fatal out of memory are refused at Build
// with a typed budget error naming the system:
// WithCommandRecords(MaxCommandRecords) in a 64 MiB world (its serial
// buffer alone is 384 MiB), and 64 workers of 2^20 records (1.5 GiB) in a
// 1 GiB world, whose per-worker set is refused as a whole with advice to
// use fewer workers.
func TestCommandBuffersPastBudget(t *testing.T) {
	t.Run("serial buffer", func(t *testing.T) {
		b, decls := recordingWorld(t, runtime.WithWorkers(256), runtime.WithCommandRecords(scheduler.MaxCommandRecords),
			runtime.WithMemoryBudget(64<<20))
		w, err := b.Build()
		require.Nil(t, w)
		var be *memory.BudgetError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "command buffer", Name: "kill"},
			Bytes: commands.BufferBytes(scheduler.MaxCommandRecords), Used: decls, Budget: 64 << 20, Owner: memory.OwnerWorld}, *be)
		assert.ErrorIs(t, err, runtime.ErrMemoryBudget)
		assert.Contains(t, err.Error(), "lower the records per command buffer (WithCommandRecords), or raise the world's budget")
	})
	t.Run("per-worker buffers", func(t *testing.T) {
		const workers, records = 64, 1 << 20
		b, decls := recordingWorld(t, runtime.WithWorkers(workers), runtime.WithCommandRecords(records),
			runtime.WithMemoryBudget(1<<30))
		w, err := b.Build()
		require.Nil(t, w)
		var be *memory.BudgetError
		require.ErrorAs(t, err, &be)
		used := decls + commands.BufferBytes(records) // the serial buffer fitted
		assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "command buffer", Name: "kill", Workers: workers},
			Bytes: workers * commands.BufferBytes(records), Used: used, Budget: 1 << 30, Owner: memory.OwnerWorld}, *be)
		assert.Contains(t, err.Error(), "or use fewer workers (WithWorkers)")
		assert.Equal(t, used, b.Budget().Used(), "the refused set charged nothing")
	})
}
