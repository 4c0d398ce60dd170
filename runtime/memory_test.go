package runtime_test

import (
	"math"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// event24 is a 24-byte event.
type event24 struct{ A, B, C int64 }

// requireBudgetError checks err against want, refused by a world's budget
// (want.Owner is set to memory.OwnerWorld).
func requireBudgetError(t *testing.T, err error, want memory.BudgetError) {
	t.Helper()
	want.Owner = memory.OwnerWorld
	var be *memory.BudgetError
	require.ErrorAs(t, err, &be)
	assert.ErrorIs(t, err, runtime.ErrMemoryBudget)
	assert.Equal(t, want, *be)
}

// allocated returns the bytes the heap handed out while fn ran.
func allocated(fn func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	fn()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Declarations at the maxima are refused by the default budget before they
// allocate, and Build returns the first refusal. On code without a budget
// each of them ended the process in Go's fatal "out of memory" (or
// allocated 8 GiB and more).
func TestMemoryBudgetMaxima(t *testing.T) {
	def := runtime.DefaultMemoryBudget
	require.Equal(t, int64(8<<30), def)
	tests := []struct {
		name    string
		declare func(b *runtime.Builder) error
		want    memory.BudgetError
	}{
		{"table at MaxCapacity", func(b *runtime.Builder) error {
			_, err := b.Table(ephemeral.TableSpec{Name: "Huge", Capacity: ephemeral.MaxCapacity})
			return err
		}, memory.BudgetError{Definition: memory.Definition{Kind: "table", Name: "Huge"},
			Bytes: ephemeral.DomainBytes(ephemeral.MaxCapacity, 0) + ephemeral.TableBytes(ephemeral.MaxCapacity, 0), Budget: def}},
		{"16 GiB column", func(b *runtime.Builder) error {
			tab, err := b.Table(ephemeral.TableSpec{Name: "Wide", Capacity: 1 << 16})
			if err != nil {
				return err
			}
			_, err = runtime.AddColumn[[1 << 18]byte](b, tab, "Blob")
			return err
		}, memory.BudgetError{Definition: memory.Definition{Kind: "column", Name: "Wide", Column: "Blob"},
			Bytes: 16 << 30, Used: ephemeral.DomainBytes(1<<16, 0) + ephemeral.TableBytes(1<<16, 0), Budget: def}},
		{"NextFrame event table at MaxCapacity", func(b *runtime.Builder) error {
			_, err := runtime.AddEvents[event24](b, events.Spec{Name: "Hits", Capacity: events.MaxCapacity})
			return err
		}, memory.BudgetError{Definition: memory.Definition{Kind: "event table", Name: "Hits"}, Bytes: 48 << 30, Budget: def}},
		{"ThisFrame event table at MaxCapacity", func(b *runtime.Builder) error {
			_, err := runtime.AddEvents[event24](b, events.Spec{Name: "Hits", Capacity: events.MaxCapacity, Lifetime: events.ThisFrame})
			return err
		}, memory.BudgetError{Definition: memory.Definition{Kind: "event table", Name: "Hits"}, Bytes: 24 << 30, Budget: def}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := runtime.NewBuilder()
			var err error
			n := allocated(func() { err = tc.declare(b) })
			requireBudgetError(t, err, tc.want)
			assert.Less(t, n, uint64(1<<20), "a refused declaration allocates nothing of its pages")
			assert.Equal(t, tc.want.Used, b.Budget().Used(), "a refused declaration charges nothing")
			w, err := b.Build()
			assert.Nil(t, w)
			requireBudgetError(t, err, tc.want)
		})
	}
}

func TestMemoryBudgetOption(t *testing.T) {
	for _, n := range []int64{0, -1, math.MinInt64} {
		_, err := runtime.NewBuilder(runtime.WithMemoryBudget(n)).Build()
		var oe *runtime.OptionError
		require.ErrorAs(t, err, &oe, n)
		assert.Equal(t, "WithMemoryBudget", oe.Option)
		assert.Equal(t, "want 1..9223372036854775807 bytes", oe.Reason)
	}
	for _, n := range []int64{1, math.MaxInt64} {
		b := runtime.NewBuilder(runtime.WithMemoryBudget(n))
		w, err := b.Build()
		require.NoError(t, err)
		assert.Equal(t, n, w.Budget().Limit())
		assert.Same(t, b.Budget(), w.Budget())
		require.NoError(t, w.Close())
	}
	assert.Equal(t, runtime.DefaultMemoryBudget, runtime.NewBuilder().Budget().Limit())
	assert.Nil(t, (*runtime.Builder)(nil).Budget())
}

// declareWorld declares a domain with two tables, a column on each, a
// standalone table and an event table, returning the first error. Its
// parts are worldParts. It returns the event table.
func declareWorld(b *runtime.Builder) (*events.Table[event24], error) {
	d, err := b.Domain(ephemeral.DomainSpec{Name: "Actors", Capacity: 5000})
	if err != nil {
		return nil, err
	}
	unit, err := b.Table(ephemeral.TableSpec{Name: "Unit", Domain: d})
	if err != nil {
		return nil, err
	}
	if _, err := runtime.AddColumn[int32](b, unit, "Health"); err != nil {
		return nil, err
	}
	body, err := b.Table(ephemeral.TableSpec{Name: "Body", Domain: d})
	if err != nil {
		return nil, err
	}
	if _, err := runtime.AddColumn[[4]float32](b, body, "State"); err != nil {
		return nil, err
	}
	if _, err := b.Table(ephemeral.TableSpec{Name: "Projectile", Capacity: 300}); err != nil {
		return nil, err
	}
	return runtime.AddEvents[event24](b, events.Spec{Name: "Hits", Capacity: 100})
}

// The parts of declareWorld, in declaration order.
var worldParts = []struct {
	def   memory.Definition
	bytes int64
}{
	{memory.Definition{Kind: "domain", Name: "Actors"}, ephemeral.DomainBytes(5000, 0)},
	{memory.Definition{Kind: "table", Name: "Unit"}, ephemeral.TableBytes(5000, 0)},
	{memory.Definition{Kind: "column", Name: "Unit", Column: "Health"}, ephemeral.ColumnBytes[int32](5000, 0)},
	{memory.Definition{Kind: "table", Name: "Body"}, ephemeral.TableBytes(5000, 0)},
	{memory.Definition{Kind: "column", Name: "Body", Column: "State"}, ephemeral.ColumnBytes[[4]float32](5000, 0)},
	{memory.Definition{Kind: "table", Name: "Projectile"}, ephemeral.DomainBytes(300, 0) + ephemeral.TableBytes(300, 0)},
	{memory.Definition{Kind: "event table", Name: "Hits"}, 2 * 100 * 24},
}

// The world's budget is summed over every declaration: exactly enough
// builds, and one byte less refuses the declaration that crosses it, named,
// with the bytes used by those before it.
func TestMemoryBudgetCumulative(t *testing.T) {
	var total int64
	for _, p := range worldParts {
		total += p.bytes
	}
	t.Run("exactly enough", func(t *testing.T) {
		b := runtime.NewBuilder(runtime.WithMemoryBudget(total))
		_, err := declareWorld(b)
		require.NoError(t, err)
		w, err := b.Build()
		require.NoError(t, err)
		assert.Equal(t, total, w.Budget().Used())
		assert.Equal(t, int64(0), w.Budget().Left())
		require.NoError(t, w.Close())
	})
	var before int64
	for _, p := range worldParts {
		t.Run("one byte short at "+p.def.Kind+" "+strings.TrimSuffix(p.def.Name+"."+p.def.Column, "."), func(t *testing.T) {
			limit := before + p.bytes - 1
			b := runtime.NewBuilder(runtime.WithMemoryBudget(limit))
			_, err := declareWorld(b)
			want := memory.BudgetError{Definition: p.def, Bytes: p.bytes, Used: before, Budget: limit}
			requireBudgetError(t, err, want)
			assert.Equal(t, before, b.Budget().Used())
			_, err = b.Build()
			requireBudgetError(t, err, want)
		})
		before += p.bytes
	}
}

func TestMemoryBudgetSpecBudget(t *testing.T) {
	own := memory.NewBudget(1 << 30)
	b := runtime.NewBuilder()
	_, err := b.Domain(ephemeral.DomainSpec{Name: "D", Capacity: 8, Budget: own})
	var de *runtime.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, runtime.DefinitionError{Call: "Domain", Name: "D", Err: runtime.ErrSpecBudget}, *de)
	_, err = b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8, Budget: own})
	assert.ErrorIs(t, err, runtime.ErrSpecBudget)
	_, err = runtime.AddEvents[int](b, events.Spec{Name: "E", Capacity: 8, Budget: own})
	assert.ErrorIs(t, err, runtime.ErrSpecBudget)
	assert.Equal(t, int64(0), own.Used())
	assert.Equal(t, int64(0), b.Budget().Used())

	// The Builder's own budget may be named.
	b = runtime.NewBuilder()
	tab, err := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8, Budget: b.Budget()})
	require.NoError(t, err)
	assert.Same(t, b.Budget(), tab.Domain().Budget())
}

// A system's per-worker event staging is charged to the world's budget
// when its first ParallelEmitter call makes it: the call that does not fit
// fails the frame with the typed error, naming the event table.
func TestMemoryBudgetStaging(t *testing.T) {
	const workers, capacity = 2, 100
	var defs int64
	for _, p := range worldParts {
		defs += p.bytes
	}
	staging := events.StagingBytes[event24](capacity, workers)
	require.Equal(t, int64(workers*capacity*24), staging)
	for _, tc := range []struct {
		name  string
		limit int64
		fails bool
	}{{"exactly enough", defs + staging, false}, {"one byte short", defs + staging - 1, true}} {
		t.Run(tc.name, func(t *testing.T) {
			b := runtime.NewBuilder(runtime.WithWorkers(workers), runtime.WithMemoryBudget(tc.limit))
			hits, err := declareWorld(b)
			require.NoError(t, err)
			require.NoError(t, b.Add(systems.System{Name: "emit", Phase: systems.Update,
				Manifest: systems.Manifest{Emits: []events.Buffer{hits}},
				Run: func(ctx *systems.Context) error {
					p, err := systems.ParallelEmitter(ctx, hits)
					if err != nil {
						return err
					}
					ctx.RunKernel(workers, func(w, c int) {
						p.Worker(w).Begin(c)
						_ = p.Worker(w).Emit(event24{A: int64(c)})
					})
					return nil
				}}))
			w, err := b.Build()
			require.NoError(t, err)
			defer w.Close()
			err = w.Frame(1.0 / 60)
			if !tc.fails {
				require.NoError(t, err)
				assert.Equal(t, tc.limit, w.Budget().Used())
				return
			}
			var se *scheduler.SystemError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "emit", se.System)
			requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "event staging", Name: "Hits", Workers: workers},
				Bytes: staging, Used: defs, Budget: tc.limit})
			assert.Contains(t, err.Error(), `event staging "Hits" for 2 workers asks for 4800 bytes`)
			assert.True(t, strings.HasSuffix(err.Error(), "lower the capacity or use fewer workers (runtime.WithWorkers), "+
				"or raise the world's budget (runtime.WithMemoryBudget)"), "advice for a world's per-worker staging: %v", err)
		})
	}
}
