package ephemeral_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/memory"
)

// allocated returns the bytes the heap handed out while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// requireBudgetError checks that err is a *memory.BudgetError (errors.Is
// memory.ErrBudget) for want.
func requireBudgetError(t *testing.T, err error, want memory.BudgetError) {
	t.Helper()
	var be *memory.BudgetError
	require.ErrorAs(t, err, &be)
	assert.ErrorIs(t, err, memory.ErrBudget)
	assert.Equal(t, want, *be)
}

// Definitions at the maxima are refused by the default budget with the
// typed error, before they allocate. On code without a budget these
// definitions allocated 8 to 16 GiB at once and ended in Go's fatal "out of
// memory".
func TestMemoryBudgetMaxima(t *testing.T) {
	t.Run("table at MaxCapacity", func(t *testing.T) {
		var err error
		var tb *ephemeral.Table
		n := allocated(func() {
			tb, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "Huge", Capacity: ephemeral.MaxCapacity})
		})
		assert.Nil(t, tb)
		// About 8.3 GiB: its private domain and its own pages.
		bytes := ephemeral.DomainBytes(ephemeral.MaxCapacity, 0) + ephemeral.TableBytes(ephemeral.MaxCapacity, 0)
		assert.Greater(t, bytes, memory.DefaultBudget)
		requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "table", Name: "Huge"},
			Bytes: bytes, Used: 0, Budget: memory.DefaultBudget, Owner: memory.OwnerPrivate})
		assert.Less(t, n, uint64(1<<20), "a refused table allocates nothing of its pages")
	})
	t.Run("16 GiB column", func(t *testing.T) {
		// A 16-byte column of MaxCapacity rows is 16 GiB; so is this column
		// of 65 536 rows of 256 KiB, on a table that costs 0.5 MiB.
		tb, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Wide", Capacity: 1 << 16})
		require.NoError(t, err)
		used := tb.Domain().Budget().Used()
		var c *ephemeral.Column[[1 << 18]byte]
		n := allocated(func() { c, err = ephemeral.AddColumn[[1 << 18]byte](tb, "Blob") })
		assert.Nil(t, c)
		assert.Equal(t, int64(16<<30), ephemeral.ColumnBytes[[16]byte](ephemeral.MaxCapacity, 0))
		requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "column", Name: "Wide", Column: "Blob"},
			Bytes: 16 << 30, Used: used, Budget: memory.DefaultBudget, Owner: memory.OwnerPrivate})
		assert.Less(t, n, uint64(1<<20), "a refused column allocates nothing")
		assert.Empty(t, tb.Columns())
		assert.Equal(t, used, tb.Domain().Budget().Used(), "a refused column charges nothing")
	})
	t.Run("domain at MaxCapacity in a small budget", func(t *testing.T) {
		b := memory.NewBudget(1 << 30)
		d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "Actors", Capacity: ephemeral.MaxCapacity, Budget: b})
		assert.Nil(t, d)
		requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "domain", Name: "Actors"},
			Bytes: ephemeral.DomainBytes(ephemeral.MaxCapacity, 0), Used: 0, Budget: 1 << 30})
	})
}

// A definition that fits exactly is accepted; one byte less and it is
// refused, naming it; the budget is summed over every definition charged to
// it.
func TestMemoryBudgetCumulative(t *testing.T) {
	const rows = 10000
	domain := ephemeral.DomainBytes(rows, 0)
	table := ephemeral.TableBytes(rows, 0)
	pos := ephemeral.ColumnBytes[[2]float64](rows, 0)
	hp := ephemeral.ColumnBytes[int32](rows, 0)
	require.Equal(t, int64(12288*16), pos, "10 000 rows round up to 3 chunks of 4096")
	total := domain + 2*table + pos + hp

	tests := []struct {
		name  string
		limit int64
		// the definition refused (empty: none) and the bytes used before it
		refused memory.Definition
		asked   int64
		used    int64
	}{
		{"exactly enough", total, memory.Definition{}, 0, 0},
		{"one byte short: the last column", total - 1, memory.Definition{Kind: "column", Name: "Unit", Column: "HP"}, hp, total - hp},
		{"short by the second table", domain + table + pos + table - 1, memory.Definition{Kind: "table", Name: "Unit"}, table, domain + table + pos},
		{"short by the domain", domain - 1, memory.Definition{Kind: "domain", Name: "Actors"}, domain, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := memory.NewBudget(tc.limit)
			err := func() error {
				d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "Actors", Capacity: rows, Budget: b})
				if err != nil {
					return err
				}
				body, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: d})
				if err != nil {
					return err
				}
				if _, err := ephemeral.AddColumn[[2]float64](body, "Pos"); err != nil {
					return err
				}
				unit, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Unit", Domain: d, Budget: b})
				if err != nil {
					return err
				}
				_, err = ephemeral.AddColumn[int32](unit, "HP")
				return err
			}()
			if tc.refused.Kind == "" {
				require.NoError(t, err)
				assert.Equal(t, int64(0), b.Left())
				return
			}
			requireBudgetError(t, err, memory.BudgetError{Definition: tc.refused, Bytes: tc.asked, Used: tc.used, Budget: tc.limit})
			assert.Equal(t, tc.used, b.Used())
		})
	}
}

func TestMemoryBudgetPrivateAndShared(t *testing.T) {
	// Standalone tables without a Budget get private ones of DefaultBudget.
	a, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "A", Capacity: 100})
	require.NoError(t, err)
	b, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "B", Capacity: 100})
	require.NoError(t, err)
	assert.NotSame(t, a.Domain().Budget(), b.Domain().Budget())
	assert.Equal(t, memory.DefaultBudget, a.Domain().Budget().Limit())
	assert.Equal(t, ephemeral.DomainBytes(100, 0)+ephemeral.TableBytes(100, 0), a.Domain().Budget().Used())

	// A member table is charged to its domain's budget and may not name another.
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "D", Capacity: 100})
	require.NoError(t, err)
	other := memory.NewBudget(1 << 20)
	tb, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "M", Domain: d, Budget: other})
	assert.Nil(t, tb)
	assert.ErrorIs(t, err, ephemeral.ErrDomainMismatch)
	assert.Equal(t, int64(0), other.Used())
	_, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "M", Domain: d, Budget: d.Budget()})
	require.NoError(t, err)
}

// Sizes saturate instead of wrapping: a product past 2^63 is never taken
// for a small one.
func TestColumnBytesSaturate(t *testing.T) {
	assert.Equal(t, int64(math.MaxInt64), ephemeral.ColumnBytes[[1 << 40]byte](ephemeral.MaxCapacity, 0))
	assert.Equal(t, int64(0), ephemeral.ColumnBytes[int32](0, 0), "a capacity NewTable refuses")
	assert.Equal(t, int64(0), ephemeral.TableBytes(ephemeral.MaxCapacity+1, 0))
	assert.Equal(t, int64(0), ephemeral.DomainBytes(100, 100), "chunk rows not a power of two")
}
