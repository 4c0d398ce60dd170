package tickwork_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestMessagesNameTheFace: the messages a fresh user's trial hit name what
// a host of this package calls (NewBuilder, WithMemoryBudget, Hook), not
// the engine packages it never imports, state the limits' values, and
// call a domain a domain.
func TestMessagesNameTheFace(t *testing.T) {
	buildErr := func(opts ...tickwork.Option) error {
		_, err := tickwork.NewBuilder(opts...).Build()
		return err
	}
	builderErr := func(f func(b *tickwork.Builder)) error {
		b := tickwork.NewBuilder()
		f(b)
		return b.Err()
	}
	budgetErr := func() error {
		b := tickwork.NewBuilder(tickwork.WithMemoryBudget(1), tickwork.WithWorkers(1))
		b.Table(tickwork.TableSpec{Name: "T", Capacity: 8})
		_, err := b.Build()
		return err
	}
	var zero tickwork.Builder
	_, zeroErr := zero.Build()
	w, err := tickwork.NewBuilder(tickwork.WithWorkers(1)).Build()
	require.NoError(t, err)
	defer w.Close()

	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	d := b.Domain(tickwork.DomainSpec{Name: "D", Capacity: 8})
	dw, err := b.Build()
	require.NoError(t, err)
	defer dw.Close()

	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"WithWorkers(0)", buildErr(tickwork.WithWorkers(0)), "runtime: WithWorkers(0): want 1..256 workers"},
		{"WithMemoryBudget(1)", budgetErr(), ""},
		{"zero Builder", zeroErr,
			"runtime: Builder not made by NewBuilder (a zero Builder{} or a nil *Builder): make it with NewBuilder(opts...)"},
		{"nil hook", builderErr(func(b *tickwork.Builder) { b.Hook(nil) }),
			"scheduler: Hook: nil hook function; pass a func(*Hook) error, which Build calls"},
		{"Frame(NaN)", w.Frame(math.NaN()), "scheduler: bad frame delta NaN s: want a finite number of seconds from 0 to 3600 (MaxDelta, one hour)"},
		{"table capacity 0", builderErr(func(b *tickwork.Builder) { b.Table(tickwork.TableSpec{Name: "T"}) }),
			`ephemeral: table "T": capacity must be between 1 and MaxCapacity = 1073741824 (got 0)`},
		{"chunk rows 3", builderErr(func(b *tickwork.Builder) { b.Table(tickwork.TableSpec{Name: "T", Capacity: 8, ChunkRows: 3}) }),
			`ephemeral: table "T": chunk rows must be a power of two between MinChunkRows = 64 and MaxChunkRows = 1048576 (got 3)`},
		{"event capacity 0", builderErr(func(b *tickwork.Builder) { tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "E"}) }),
			`events: table "E": capacity must be between 1 and 1073741824 events (got 0)`},
		{"Domain.CreateN", d.CreateN(make([]tickwork.Handle, 9)), `ephemeral: domain "D" is full: capacity 8 entities, 0 live, 9 requested`},
	} {
		require.Error(t, tc.err, tc.name)
		if tc.want != "" {
			assert.Equal(t, tc.want, tc.err.Error(), tc.name)
		}
		for _, internal := range []string{"runtime.", "scheduler.", "kernels.", "memory.", "ephemeral.", "events.", "systems."} {
			assert.NotContains(t, tc.err.Error(), internal, tc.name)
		}
	}
	err = budgetErr()
	assert.ErrorIs(t, err, tickwork.ErrMemoryBudget)
	assert.Contains(t, err.Error(), "raise the world's budget (WithMemoryBudget)")
	var ce *tickwork.CapacityError
	require.ErrorAs(t, d.CreateN(make([]tickwork.Handle, 9)), &ce)
	assert.Equal(t, tickwork.StorageKindDomain, ce.Kind)
}

// TestPlaybackMessages: moving one live handle twice in one system says
// the entity has no row in the source table at that point of the playback
// (before, "stale or zero handle"), with ErrMoveNoRow; a spawn past the
// capacity names the Spawn call (the 101st of 150) and the record counting
// sets (before, only "record 200").
func TestPlaybackMessages(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	d := b.Domain(tickwork.DomainSpec{Name: "D", Capacity: 16})
	ta := b.Table(tickwork.TableSpec{Name: "A", Domain: d})
	tb := b.Table(tickwork.TableSpec{Name: "B", Domain: d})
	var h tickwork.Handle
	b.System("mover", tickwork.Update, func(dc *tickwork.Decl) tickwork.RunFunc {
		ra, rb := tickwork.Record(dc, ta), tickwork.Record(dc, tb)
		return func(*tickwork.Context) { tickwork.Move(h, ra, rb); tickwork.Move(h, ra, rb) }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	h, err = ta.Insert()
	require.NoError(t, err)
	err = w.Frame(0.01)
	require.ErrorIs(t, err, tickwork.ErrMoveNoRow)
	assert.NotErrorIs(t, err, tickwork.ErrStaleHandle)
	assert.Equal(t, `tickwork: frame 0: Update system "mover": record 1: move in table "A": the entity is live but has no row in the move's source table at this point of the playback `+
		`(an earlier record moved or removed it): record one tickwork.Move per entity, from the table it has a row in`, err.Error())
	assert.True(t, tb.IsAlive(h), "the first move played")

	b = tickwork.NewBuilder(tickwork.WithWorkers(1))
	tc := b.Table(tickwork.TableSpec{Name: "C", Capacity: 100})
	x := tickwork.AddColumn[int32](b, tc, "X")
	b.System("spawner", tickwork.Update, func(dc *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner1(dc, x)
		return func(*tickwork.Context) {
			for i := range 150 {
				sp.Spawn(int32(i))
			}
		}
	})
	w2, err := b.Build()
	require.NoError(t, err)
	defer w2.Close()
	err = w2.Frame(0.01)
	require.ErrorIs(t, err, tickwork.ErrCapacity)
	var pe *tickwork.PlaybackError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 101, pe.Create)
	assert.Equal(t, 200, pe.Record)
	assert.Equal(t, `tickwork: frame 0: Update system "spawner": create 101 in table "C" (record 200 of creates and sets): ephemeral: table "C" is full: capacity 100 rows, 100 live, 1 requested`, err.Error())
}
