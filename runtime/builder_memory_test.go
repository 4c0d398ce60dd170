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
			b.Table(ephemeral.TableSpec{Name: "Huge", Capacity: ephemeral.MaxCapacity})
			return b.Err()
		}, memory.BudgetError{Definition: memory.Definition{Kind: "table", Name: "Huge"},
			Bytes: ephemeral.DomainBytes(ephemeral.MaxCapacity, 0) + ephemeral.TableBytes(ephemeral.MaxCapacity, 0), Budget: def}},
		{"16 GiB column", func(b *runtime.Builder) error {
			tab := b.Table(ephemeral.TableSpec{Name: "Wide", Capacity: 1 << 16})
			runtime.AddColumn[[1 << 18]byte](b, tab, "Blob")
			return b.Err()
		}, memory.BudgetError{Definition: memory.Definition{Kind: "column", Name: "Wide", Column: "Blob"},
			Bytes: 16 << 30, Used: ephemeral.DomainBytes(1<<16, 0) + ephemeral.TableBytes(1<<16, 0), Budget: def}},
		{"NextFrame event table at MaxCapacity", func(b *runtime.Builder) error {
			runtime.AddEvents[event24](b, events.Spec{Name: "Hits", Capacity: events.MaxCapacity})
			return b.Err()
		}, memory.BudgetError{Definition: memory.Definition{Kind: "event table", Name: "Hits"}, Bytes: 48 << 30, Budget: def}},
		{"ThisFrame event table at MaxCapacity", func(b *runtime.Builder) error {
			runtime.AddEvents[event24](b, events.Spec{Name: "Hits", Capacity: events.MaxCapacity, Lifetime: events.ThisFrame})
			return b.Err()
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
	d := b.Domain(ephemeral.DomainSpec{Name: "Actors", Capacity: 5000})
	unit := b.Table(ephemeral.TableSpec{Name: "Unit", Domain: d})
	runtime.AddColumn[int32](b, unit, "Health")
	body := b.Table(ephemeral.TableSpec{Name: "Body", Domain: d})
	runtime.AddColumn[[4]float32](b, body, "State")
	b.Table(ephemeral.TableSpec{Name: "Projectile", Capacity: 300})
	ev := runtime.AddEvents[event24](b, events.Spec{Name: "Hits", Capacity: 100})
	return ev, b.Err()
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
	assert.Nil(t, b.Domain(ephemeral.DomainSpec{Name: "D", Capacity: 8, Budget: own}))
	var de *runtime.DefinitionError
	require.ErrorAs(t, b.Err(), &de)
	assert.Equal(t, runtime.DefinitionError{Call: "Domain", Name: "D", Err: runtime.ErrSpecBudget}, *de)
	for name, declare := range map[string]func(b *runtime.Builder){
		"Table":     func(b *runtime.Builder) { b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8, Budget: own}) },
		"AddEvents": func(b *runtime.Builder) { runtime.AddEvents[int](b, events.Spec{Name: "E", Capacity: 8, Budget: own}) },
	} {
		b := runtime.NewBuilder()
		declare(b)
		assert.ErrorIs(t, b.Err(), runtime.ErrSpecBudget, name)
		assert.Equal(t, int64(0), b.Budget().Used(), name)
	}
	assert.Equal(t, int64(0), own.Used())

	// The Builder's own budget may be named.
	b = runtime.NewBuilder()
	tab := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8, Budget: b.Budget()})
	require.NoError(t, b.Err())
	assert.Same(t, b.Budget(), tab.Domain().Budget())
}

// A system's per-worker event staging is charged to the world's budget
// when the world binds it at Build: the staging that does not fit fails
// Build with the typed error, naming the event table.
func TestMemoryBudgetStaging(t *testing.T) {
	const workers, capacity = 2, 100
	var defs int64
	for _, p := range worldParts {
		defs += p.bytes
	}
	staging := events.StagingBytes[event24](capacity, workers)
	require.Equal(t, int64(workers*capacity*24), staging)
	type kernel struct {
		em *systems.ParallelEmitter[event24]
	}
	for _, tc := range []struct {
		name  string
		limit int64
		fails bool
	}{{"exactly enough", defs + staging, false}, {"one byte short", defs + staging - 1, true}} {
		t.Run(tc.name, func(t *testing.T) {
			b := runtime.NewBuilder(runtime.WithWorkers(workers), runtime.WithMemoryBudget(tc.limit))
			hits, err := declareWorld(b)
			require.NoError(t, err)
			b.System("emit", systems.Update, func(s *systems.Decl) systems.RunFunc {
				k := kernel{systems.EmitParallel(s, hits)}
				return func(ctx *systems.Context) {
					systems.Parallel(ctx, workers, k, func(k *kernel, w, c int) { k.em.Worker(w, c).Emit(event24{A: int64(c)}) })
				}
			})
			w, err := b.Build()
			if !tc.fails {
				require.NoError(t, err)
				defer w.Close()
				require.NoError(t, w.Frame(1.0/60))
				assert.Equal(t, tc.limit, w.Budget().Used())
				return
			}
			assert.Nil(t, w)
			requireBudgetError(t, err, memory.BudgetError{Definition: memory.Definition{Kind: "event staging", Name: "Hits", Workers: workers},
				Bytes: staging, Used: defs, Budget: tc.limit})
			assert.Contains(t, err.Error(), `event staging "Hits" for 2 workers asks for 4800 bytes`)
			assert.True(t, strings.HasSuffix(err.Error(), "lower the capacity or use fewer workers (WithWorkers), "+
				"or raise the world's budget (WithMemoryBudget)"), "advice for a world's per-worker staging: %v", err)
		})
	}
}
