package tickwork_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// In a world, an entity changes table within one system's commands
// (Remove then Attach, or Move), keeping its handle; a failed attach makes
// Frame return an error matching ErrPlayback that names the system and
// the record; TryCreate refuses a create past the table's capacity at the
// call.
func TestWorldPlayback(t *testing.T) {
	var forager, carrier *tickwork.Table
	var fx, cx *tickwork.Column[float32]
	var energy, cargo *tickwork.Column[int32]
	var step func(fr, cr *tickwork.Recorder)
	w := buildWorld(t, func(b *tickwork.Builder) {
		ants := b.Domain(tickwork.DomainSpec{Name: "ants", Capacity: 4})
		forager = b.Table(tickwork.TableSpec{Name: "Forager", Domain: ants})
		carrier = b.Table(tickwork.TableSpec{Name: "Carrier", Domain: ants})
		fx = tickwork.AddColumn[float32](b, forager, "x")
		energy = tickwork.AddColumn[int32](b, forager, "energy")
		cx = tickwork.AddColumn[float32](b, carrier, "x")
		cargo = tickwork.AddColumn[int32](b, carrier, "cargo")
		b.System("Switch", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			fr, cr := tickwork.Record(d, forager), tickwork.Record(d, carrier)
			return func(*tickwork.Context) {
				if step != nil {
					step(fr, cr)
					step = nil
				}
			}
		})
	})
	hs := make([]tickwork.Handle, 3)
	require.NoError(t, forager.InsertN(hs))
	for i, h := range hs {
		fx.All()[h.Index()] = float32(10 + i)
		energy.All()[h.Index()] = int32(100 + i)
	}

	step = func(fr, cr *tickwork.Recorder) {
		fr.Remove(hs[0]) // its only row
		cr.Attach(hs[0])
		tickwork.Move(hs[1], fr, cr)
		tickwork.Set(cr, cargo, hs[1], 9)
	}
	require.NoError(t, w.Frame(1.0/60))
	assert.True(t, carrier.IsAlive(hs[0]), "remove then attach keeps the entity")
	assert.True(t, carrier.IsAlive(hs[1]))
	assert.False(t, forager.IsAlive(hs[0]) || forager.IsAlive(hs[1]))
	assert.Equal(t, float32(0), cx.All()[hs[0].Index()], "Attach: a zero row")
	assert.Equal(t, float32(11), cx.All()[hs[1].Index()], "Move carries x")
	assert.Equal(t, int32(9), cargo.All()[hs[1].Index()])
	c := w.Report().Commands
	assert.Equal(t, 1, c.Removed)
	assert.Equal(t, 1, c.Attached)
	assert.Equal(t, 1, c.Moved)
	assert.Zero(t, c.Emptied)

	// A failed attach fails the frame.
	require.True(t, forager.Delete(hs[2]))
	step = func(fr, cr *tickwork.Recorder) {
		tickwork.Move(hs[0], cr, fr) // record 0: fine
		cr.Attach(hs[2])             // record 1: a dead entity
	}
	err := w.Frame(1.0 / 60)
	require.Error(t, err)
	assert.True(t, errors.Is(err, tickwork.ErrPlayback))
	assert.True(t, errors.Is(err, tickwork.ErrCommandPlayback))
	assert.True(t, errors.Is(err, tickwork.ErrStaleHandle))
	var pe *tickwork.PlaybackError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "Switch", pe.System)
	assert.Equal(t, `tickwork: frame 1: Update system "Switch": record 1: attach in table "Carrier": ephemeral: stale or zero handle`, err.Error())
	assert.Equal(t, 1, w.Report().Commands.FailedAttaches)
	assert.Equal(t, 1, w.Report().CommandsDropped())
	assert.True(t, forager.IsAlive(hs[0]), "the rest of the buffer played")

	// TryCreate: the domain holds 4 entities, 2 live: the third create is
	// refused at the call.
	var errs []error
	step = func(fr, cr *tickwork.Recorder) {
		for range 3 {
			_, err := fr.TryCreate()
			errs = append(errs, err)
		}
	}
	err = w.Frame(1.0 / 60)
	require.Len(t, errs, 3)
	assert.NoError(t, errs[0])
	assert.NoError(t, errs[1])
	var ce *tickwork.CapacityError
	require.ErrorAs(t, errs[2], &ce)
	assert.Equal(t, tickwork.CapacityError{Table: "Forager", Capacity: 4, Live: 4, Requested: 1}, *ce)
	assert.ErrorIs(t, err, tickwork.ErrCapacity, "the frame reports the refusal too")
	assert.Equal(t, 4, forager.Len()+carrier.Len())
}

// A system that records without bound (here 20 000 000 removes of one
// entity in one run) is held by the world's memory budget: its command
// buffer grows only while the growth fits, the records past it are
// refused, the frame returns an error matching ErrMemoryBudget and
// ErrPlayback naming the system's buffer, and the next frame runs clean.
func TestWorldRecordingBoundedByBudget(t *testing.T) {
	const budget = 64 << 20
	var units *tickwork.Table
	var h tickwork.Handle
	spam := true
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithMemoryBudget(budget))
	units = b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 16})
	b.System("Spam", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		r := tickwork.Record(d, units)
		return func(*tickwork.Context) {
			if spam {
				for range 20_000_000 {
					r.Remove(h)
				}
				spam = false
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	h, err = units.Insert()
	require.NoError(t, err)

	err = w.Frame(1.0 / 60)
	require.ErrorIs(t, err, tickwork.ErrMemoryBudget)
	require.ErrorIs(t, err, tickwork.ErrCommandPlayback)
	assert.Contains(t, err.Error(), `remove in table "Unit"`)
	rep := w.Report()
	assert.Positive(t, rep.Commands.BudgetRefusals)
	assert.Equal(t, 20_000_000, rep.Commands.Played+rep.Commands.BudgetRefusals, "every record played or refused")
	assert.LessOrEqual(t, w.Budget().Used(), int64(budget))
	require.NoError(t, w.Frame(1.0/60))
}
