package memory_test

import (
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/memory"
)

func TestChargeCumulative(t *testing.T) {
	b := memory.NewBudget(100)
	col := memory.Definition{Kind: "column", Name: "Body", Column: "X"}
	require.NoError(t, b.Charge(memory.Definition{Kind: "table", Name: "Body"}, 60))
	require.NoError(t, b.Charge(col, 40), "a charge of exactly what is left fits")
	assert.Equal(t, int64(100), b.Used())
	assert.Equal(t, int64(0), b.Left())

	err := b.Charge(memory.Definition{Kind: "event table", Name: "Hits"}, 1)
	var be *memory.BudgetError
	require.ErrorAs(t, err, &be)
	assert.ErrorIs(t, err, memory.ErrBudget)
	assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "event table", Name: "Hits"},
		Bytes: 1, Used: 100, Budget: 100}, *be)
	assert.Equal(t, int64(100), b.Used(), "a refused charge charges nothing")
}

func TestChargeRefusesPastLimit(t *testing.T) {
	tests := []struct {
		name         string
		limit, used  int64
		bytes        int64
		wantFit      bool
		wantUsedThen int64
	}{
		{"empty budget, exact", 1 << 30, 0, 1 << 30, true, 1 << 30},
		{"empty budget, one byte over", 1 << 30, 0, 1<<30 + 1, false, 0},
		{"half used, rest", 1 << 30, 1 << 29, 1 << 29, true, 1 << 30},
		{"half used, one byte over", 1 << 30, 1 << 29, 1<<29 + 1, false, 1 << 29},
		{"saturated size", math.MaxInt64, 1, math.MaxInt64, false, 1},
		{"zero bytes into a full budget", 10, 10, 0, true, 10},
		{"negative bytes count as 0", 10, 10, -5, true, 10},
		{"zero limit", 0, 0, 1, false, 0},
		{"negative limit is 0", -7, 0, 1, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := memory.NewBudget(tc.limit)
			require.NoError(t, b.Charge(memory.Definition{Kind: "table", Name: "pre"}, tc.used))
			err := b.Charge(memory.Definition{Kind: "table", Name: "T"}, tc.bytes)
			if tc.wantFit {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, memory.ErrBudget)
			}
			assert.Equal(t, tc.wantUsedThen, b.Used())
		})
	}
}

func TestNilBudget(t *testing.T) {
	var b *memory.Budget
	assert.Equal(t, int64(0), b.Limit())
	assert.Equal(t, int64(0), b.Left())
	assert.NoError(t, b.Charge(memory.Definition{Kind: "table", Name: "T"}, 0))
	err := b.Charge(memory.Definition{Kind: "table", Name: "T"}, 1)
	var be *memory.BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "table", Name: "T"}, Bytes: 1}, *be)
	assert.Equal(t, int64(0), b.Used())
	var z memory.Budget
	assert.ErrorIs(t, z.Charge(memory.Definition{Kind: "table", Name: "T"}, 1), memory.ErrBudget)
}

// Concurrent charges never take the budget past its limit: of 64 charges
// of 10 bytes into 100, exactly 10 fit.
func TestChargeConcurrent(t *testing.T) {
	b := memory.NewBudget(100)
	var wg sync.WaitGroup
	var mu sync.Mutex
	fits := 0
	for range 64 {
		wg.Go(func() {
			if b.Charge(memory.Definition{Kind: "table", Name: "T"}, 10) == nil {
				mu.Lock()
				fits++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 10, fits)
	assert.Equal(t, int64(100), b.Used())
}

func TestSizeSaturates(t *testing.T) {
	tests := []struct {
		name    string
		n, elem int64
		want    int64
	}{
		{"small", 1 << 30, 16, 1 << 34},
		{"exactly MaxInt64", math.MaxInt64, 1, math.MaxInt64},
		{"wraps 64 bits", 1 << 40, 1 << 40, math.MaxInt64},
		{"over MaxInt64, under 2^64", 1 << 62, 2, math.MaxInt64},
		{"wraps to a small value if unchecked", 1<<62 + 1, 4, math.MaxInt64}, // 2^64+4 wraps to 4
		{"negative n", -1, 4, 0},
		{"zero element", 1 << 30, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, memory.Size(tc.n, tc.elem))
		})
	}
	assert.Equal(t, int64(math.MaxInt64), memory.Sum(math.MaxInt64-1, 1, 1), "Sum saturates")
	assert.Equal(t, int64(30), memory.Sum(10, -5, 20), "negative parts count as 0")
}

// The message names the definition and the numbers, and its advice fits
// the definition (per-worker ones say the worker count multiplies them)
// and the budget's owner (a world's budget is raised with
// runtime.WithMemoryBudget, not through a spec).
func TestBudgetErrorMessage(t *testing.T) {
	const numbers = ` asks for 17179869184 bytes (16.0 GiB), but the memory budget of 8589934592 bytes (8.0 GiB) ` +
		`has 8586788864 bytes (8.0 GiB) left (3145728 bytes (3.0 MiB) used); `
	column := memory.Definition{Kind: "column", Name: "Big", Column: "V"}
	staging := memory.Definition{Kind: "event staging", Name: "Hits", Workers: 8}
	buffers := memory.Definition{Kind: "command buffer", Name: "fire", Workers: 256}
	tests := []struct {
		name  string
		def   memory.Definition
		owner memory.Owner
		want  string
	}{
		{"column, host budget", column, memory.OwnerHost, `memory: table "Big" column "V"` + numbers +
			`lower the capacity, or raise the limit of the Budget given to the spec (memory.NewBudget)`},
		{"column, private budget", column, memory.OwnerPrivate, `memory: table "Big" column "V"` + numbers +
			`lower the capacity, or give the spec a larger Budget (memory.NewBudget; the default is memory.DefaultBudget)`},
		{"column, world budget", column, memory.OwnerWorld, `memory: table "Big" column "V"` + numbers +
			`lower the capacity, or raise the world's budget (WithMemoryBudget)`},
		{"staging, world budget", staging, memory.OwnerWorld, `memory: event staging "Hits" for 8 workers` + numbers +
			`lower the capacity or use fewer workers (WithWorkers), or raise the world's budget (WithMemoryBudget)`},
		{"staging, private budget", staging, memory.OwnerPrivate, `memory: event staging "Hits" for 8 workers` + numbers +
			`lower the capacity or use fewer workers, or give the spec a larger Budget (memory.NewBudget; the default is memory.DefaultBudget)`},
		{"worker command buffers, world budget", buffers, memory.OwnerWorld, `memory: command buffer "fire" for 256 workers` + numbers +
			`lower the records per command buffer (WithCommandRecords) or use fewer workers (WithWorkers), or raise the world's budget (WithMemoryBudget)`},
		{"one worker's command buffers", memory.Definition{Kind: "command buffer", Name: "fire", Workers: 1}, memory.OwnerHost, `memory: command buffer "fire" for 1 worker` + numbers +
			`lower the records per command buffer, or raise the limit of the Budget given to the spec (memory.NewBudget)`},
		{"unnamed serial command buffer, host budget", memory.Definition{Kind: "command buffer"}, memory.OwnerHost, `memory: command buffer` + numbers +
			`lower the records per command buffer, or raise the limit of the Budget given to the spec (memory.NewBudget)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := error(&memory.BudgetError{Definition: tc.def, Bytes: 16 << 30, Used: 3 << 20, Budget: 8 << 30, Owner: tc.owner})
			assert.Equal(t, tc.want, err.Error())
			assert.True(t, errors.Is(err, memory.ErrBudget))
		})
	}
	assert.False(t, errors.Is(errors.New("other"), memory.ErrBudget))
}

// A refusal carries its budget's owner.
func TestBudgetOwner(t *testing.T) {
	for _, o := range []memory.Owner{memory.OwnerHost, memory.OwnerPrivate, memory.OwnerWorld} {
		b := memory.NewOwnedBudget(10, o)
		assert.Equal(t, o, b.Owner())
		var be *memory.BudgetError
		require.ErrorAs(t, b.Charge(memory.Definition{Kind: "table", Name: "T"}, 11), &be)
		assert.Equal(t, o, be.Owner, o.String())
	}
	assert.Equal(t, memory.OwnerHost, memory.NewBudget(1).Owner())
	assert.Equal(t, memory.OwnerHost, (*memory.Budget)(nil).Owner())
	assert.Equal(t, "world", memory.OwnerWorld.String())
	assert.Equal(t, "Owner(9)", memory.Owner(9).String())
}
