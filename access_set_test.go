package tickwork_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// trafficWorld is a domain of cars in two tables, Driving (speed) and
// Waiting (wait), with one system "traffic" that runs step once.
type trafficWorld struct {
	w                *tickwork.World
	driving, waiting *tickwork.Table
	speed, wait      *tickwork.Column[float32]
	step             func(dr, wr *tickwork.Recorder)
}

func newTrafficWorld(t *testing.T) *trafficWorld {
	tw := &trafficWorld{}
	tw.w = buildWorld(t, func(b *tickwork.Builder) {
		cars := b.Domain(tickwork.DomainSpec{Name: "cars", Capacity: 8})
		tw.driving = b.Table(tickwork.TableSpec{Name: "Driving", Domain: cars})
		tw.waiting = b.Table(tickwork.TableSpec{Name: "Waiting", Domain: cars})
		tw.speed = tickwork.AddColumn[float32](b, tw.driving, "speed")
		tw.wait = tickwork.AddColumn[float32](b, tw.waiting, "wait")
		b.System("traffic", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			dr, wr := tickwork.Record(d, tw.driving), tickwork.Record(d, tw.waiting)
			return func(*tickwork.Context) {
				if tw.step != nil {
					tw.step(dr, wr)
					tw.step = nil
				}
			}
		})
	})
	return tw
}

// TestSetThroughAnotherTablesRecorder: a Set of a column through the
// recorder of another table panics in the system with a message naming
// tickwork.Record(d, table) and both tables.
func TestSetThroughAnotherTablesRecorder(t *testing.T) {
	tw := newTrafficWorld(t)
	h, err := tw.driving.Insert()
	require.NoError(t, err)
	tw.step = func(dr, wr *tickwork.Recorder) { tickwork.Set(wr, tw.speed, h, 5) }
	got := func() (v any) {
		defer func() { v = recover() }()
		_ = tw.w.Frame(1.0 / 60)
		return nil
	}()
	var pe *tickwork.PanicError
	require.True(t, errors.As(got.(error), &pe), "Frame panicked with %v", got)
	assert.Equal(t, `tickwork: Set of column "Driving.speed" through the recorder of table "Waiting": `+
		`record a write through the recorder of the column's table, tickwork.Record(d, table) for table "Driving" (declared in the same DeclareFunc)`,
		fmt.Sprint(pe.Value))
}

// TestRowlessSet: a deferred write of a live entity that has no row in the
// column's table when it plays (moved away, removed, not attached yet in
// record order) fails the frame with an error matching ErrPlayback and
// ErrNoRow, naming the system and the record, and is counted in
// FailedSets; a write of a dead entity stays a counted no-op.
func TestRowlessSet(t *testing.T) {
	const noRow = "the entity has no row in the column's table: attach it (tickwork.Recorder.Attach, tickwork.Move) before the write, or write the table it has a row in"
	cases := []struct {
		name string
		step func(tw *trafficWorld, h tickwork.Handle, dr, wr *tickwork.Recorder)
		want string // the frame's error, "" for none
		sets [3]int // Sets, FailedSets, DroppedSets
	}{
		{"after a Move away", func(tw *trafficWorld, h tickwork.Handle, dr, wr *tickwork.Recorder) {
			tickwork.Move(h, dr, wr)
			tickwork.Set(dr, tw.speed, h, 5)
		}, `tickwork: frame 0: Update system "traffic": record 1: set in table "Driving": ` + noRow, [3]int{0, 1, 0}},
		{"before its Attach", func(tw *trafficWorld, h tickwork.Handle, dr, wr *tickwork.Recorder) {
			tickwork.Set(wr, tw.wait, h, 2)
			wr.Attach(h)
		}, `tickwork: frame 0: Update system "traffic": record 0: set in table "Waiting": ` + noRow, [3]int{0, 1, 0}},
		{"SetN after a Remove", func(tw *trafficWorld, h tickwork.Handle, dr, wr *tickwork.Recorder) {
			wr.Attach(h)
			dr.Remove(h)
			tickwork.SetN(dr, tw.speed, []tickwork.Handle{h, h}, []float32{1, 2})
		}, `tickwork: frame 0: Update system "traffic": record 2: set in table "Driving": ` + noRow, [3]int{0, 2, 0}},
		{"after its Delete: a no-op", func(tw *trafficWorld, h tickwork.Handle, dr, wr *tickwork.Recorder) {
			dr.Delete(h)
			tickwork.Set(dr, tw.speed, h, 5)
		}, "", [3]int{0, 0, 1}},
		{"after its Attach", func(tw *trafficWorld, h tickwork.Handle, dr, wr *tickwork.Recorder) {
			wr.Attach(h)
			tickwork.Set(wr, tw.wait, h, 2)
		}, "", [3]int{1, 0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTrafficWorld(t)
			h, err := tw.driving.Insert()
			require.NoError(t, err)
			tw.step = func(dr, wr *tickwork.Recorder) { tc.step(tw, h, dr, wr) }
			err = tw.w.Frame(1.0 / 60)
			c := tw.w.Report().Commands
			assert.Equal(t, tc.sets, [3]int{c.Sets, c.FailedSets, c.DroppedSets}, "Sets, FailedSets, DroppedSets")
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.ErrorIs(t, err, tickwork.ErrPlayback)
			assert.ErrorIs(t, err, tickwork.ErrNoRow)
			assert.Equal(t, c.FailedSets, tw.w.Report().CommandsDropped())
		})
	}
}
