package events

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/memory"
)

// event24 is a 24-byte event.
type event24 struct{ A, B, C int64 }

func requireBudgetError(t *testing.T, err error, want memory.BudgetError) {
	t.Helper()
	var be *memory.BudgetError
	require.ErrorAs(t, err, &be)
	assert.ErrorIs(t, err, memory.ErrBudget)
	assert.Equal(t, want, *be)
}

// Event tables at MaxCapacity with 24-byte events ask for 48 GiB
// (NextFrame) or 24 GiB (ThisFrame): the default budget refuses them before
// anything is allocated. On code without a budget, New ended in Go's fatal
// "out of memory".
func TestMemoryBudgetMaxima(t *testing.T) {
	for _, tc := range []struct {
		life  Lifetime
		bytes int64
	}{{NextFrame, 48 << 30}, {ThisFrame, 24 << 30}} {
		t.Run(tc.life.String(), func(t *testing.T) {
			spec := Spec{Name: "Hits", Capacity: MaxCapacity, Lifetime: tc.life}
			require.Equal(t, tc.bytes, Bytes[event24](spec))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			tab, err := New[event24](spec)
			runtime.ReadMemStats(&after)
			assert.Nil(t, tab)
			requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "event table", Name: "Hits"},
				Bytes: tc.bytes, Used: 0, Budget: memory.DefaultBudget, Owner: memory.OwnerPrivate})
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "a refused table allocates nothing")
		})
	}
}

// The buffers and then each Parallel's staging are charged to the table's
// budget: what fits exactly is accepted, a byte more is refused, naming
// the table.
func TestMemoryBudgetBuffersAndStaging(t *testing.T) {
	const capacity = 1000
	buffers := int64(2 * capacity * 24)
	staging := int64(capacity * 24) // per worker
	require.Equal(t, buffers, Bytes[event24](Spec{Name: "h", Capacity: capacity}))
	require.Equal(t, 3*staging, StagingBytes[event24](capacity, 3))

	t.Run("buffers one byte short", func(t *testing.T) {
		b := memory.NewBudget(buffers - 1)
		tab, err := New[event24](Spec{Name: "Hits", Capacity: capacity, Budget: b})
		assert.Nil(t, tab)
		requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "event table", Name: "Hits"},
			Bytes: buffers, Used: 0, Budget: buffers - 1})
	})
	t.Run("staging", func(t *testing.T) {
		b := memory.NewBudget(buffers + 3*staging)
		tab, err := New[event24](Spec{Name: "Hits", Capacity: capacity, Budget: b})
		require.NoError(t, err)
		p, err := tab.Parallel(2)
		require.NoError(t, err)
		assert.Len(t, p.workers, 2)
		assert.Equal(t, staging, b.Left())

		p, err = tab.Parallel(2) // another kernel's staging: past the budget
		assert.Nil(t, p)
		requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "event staging", Name: "Hits", Workers: 2},
			Bytes: 2 * staging, Used: buffers + 2*staging, Budget: buffers + 3*staging})

		p, err = tab.Parallel(1) // exactly what is left
		require.NoError(t, err)
		require.NoError(t, p.Worker(0).Emit(event24{A: 1}))
		assert.Equal(t, 0, p.Merge())
		assert.Equal(t, int64(0), b.Left())
	})
	t.Run("shared across tables", func(t *testing.T) {
		b := memory.NewBudget(buffers + capacity*24)
		_, err := New[event24](Spec{Name: "A", Capacity: capacity, Budget: b})
		require.NoError(t, err)
		_, err = New[event24](Spec{Name: "B", Capacity: capacity, Lifetime: ThisFrame, Budget: b})
		require.NoError(t, err)
		_, err = New[byte](Spec{Name: "C", Capacity: 1, Lifetime: ThisFrame, Budget: b})
		requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "event table", Name: "C"},
			Bytes: 1, Used: buffers + capacity*24, Budget: buffers + capacity*24})
	})
	t.Run("private budget", func(t *testing.T) {
		// Without a Budget, a table has its own of DefaultBudget, which its
		// staging is charged to as well: 64 MiB of buffer fit, 256 workers
		// of 64 MiB staging (16 GiB) do not.
		spec := Spec{Name: "Big", Capacity: 1 << 16, Lifetime: ThisFrame}
		tab, err := New[[1024]byte](spec)
		require.NoError(t, err)
		p, err := tab.Parallel(256)
		assert.Nil(t, p)
		requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "event staging", Name: "Big", Workers: 256},
			Bytes: 16 << 30, Used: 64 << 20, Budget: memory.DefaultBudget, Owner: memory.OwnerPrivate})
	})
}

func TestBytesSaturate(t *testing.T) {
	assert.Equal(t, int64(math.MaxInt64), Bytes[[1 << 40]byte](Spec{Name: "x", Capacity: MaxCapacity}))
	assert.Equal(t, int64(math.MaxInt64), StagingBytes[[1 << 30]byte](MaxCapacity, 256))
	assert.Equal(t, int64(0), Bytes[int](Spec{Name: "x", Capacity: 0}), "a spec New refuses")
	assert.Equal(t, int64(0), StagingBytes[int](10, 0))
}
