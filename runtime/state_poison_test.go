package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// poisonWorld is a world whose "inc" system adds 1 to every row's N and
// "mirror", later in the frame, copies N to M: between frames N == M on
// every row. When boom is set, inc panics after its writes, leaving a frame
// with N != M. With record set, inc also records a create before it
// panics, leaving records in its buffer.
type poisonWorld struct {
	w            *runtime.World
	n, m         *ephemeral.Column[int64]
	boom, record bool
}

func newPoisonWorld(t *testing.T) *poisonWorld {
	t.Helper()
	p := &poisonWorld{}
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	tb := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 64, ChunkRows: 64})
	p.n = runtime.AddColumn[int64](b, tb, "N")
	p.m = runtime.AddColumn[int64](b, tb, "M")
	b.System("inc", systems.Update, func(d *systems.Decl) systems.RunFunc {
		n := systems.NewQuery1(systems.Write(d, p.n))
		rec := systems.Record(d, tb)
		return func(*systems.Context) {
			for r := range n.All() {
				*r.Get() += 1
			}
			if p.record {
				rec.Create()
			}
			if p.boom {
				panic("boom")
			}
		}
	})
	b.System("mirror", systems.LateUpdate, func(d *systems.Decl) systems.RunFunc {
		q := systems.NewQuery2(systems.Read(d, p.n), systems.Write(d, p.m))
		return func(*systems.Context) {
			for r := range q.All() {
				n, m := r.Get()
				*m = *n
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	_, err = tb.Insert()
	require.NoError(t, err)
	p.w = w
	return p
}

// poison runs a frame whose inc system panics, and checks that the next
// Frame says ErrPoisoned.
func (p *poisonWorld) poison(t *testing.T) {
	t.Helper()
	p.boom = true
	require.Panics(t, func() { _ = p.w.Frame(0.01) })
	p.boom = false
	require.ErrorIs(t, p.w.Frame(0.01), scheduler.ErrPoisoned)
}

// TestPoisonedWorldRefusesSnapshots: after a panic left a frame half-run,
// every call that takes or loads a snapshot refuses the world, naming the
// call, with an error matching ErrPoisoned and ErrSnapshot, whether or not
// the panic left records in a buffer (docs/state.md, "Not of a poisoned
// world"). Without the check in World.ready, Snapshot of the record-free
// world succeeds and carries N != M on.
func TestPoisonedWorldRefusesSnapshots(t *testing.T) {
	for _, record := range []bool{false, true} {
		t.Run(map[bool]string{false: "no records", true: "records left"}[record], func(t *testing.T) {
			p := newPoisonWorld(t)
			p.record = record
			require.NoError(t, p.w.Frame(0.01))
			ring, err := runtime.NewRollback(p.w, 4)
			require.NoError(t, err)
			require.NoError(t, ring.Save())
			good, err := p.w.Snapshot(nil)
			require.NoError(t, err)

			p.poison(t)
			require.NotEqual(t, p.n.All()[0], p.m.All()[0], "the panic must leave N != M (a half-run frame)")

			dst := []byte("kept")
			out, err := p.w.Snapshot(dst)
			assert.Equal(t, "kept", string(out), "a refused Snapshot leaves dst as it was")
			wantRefusal(t, err, "Snapshot")
			_, err = p.w.SnapshotSize()
			wantRefusal(t, err, "Snapshot")
			wantRefusal(t, p.w.Restore(good), "Restore")
			_, err = runtime.NewRollback(p.w, 4)
			wantRefusal(t, err, "NewRollback")
			wantRefusal(t, ring.Save(), "Rollback.Save")
			wantRefusal(t, ring.Load(1), "Rollback.Load")
			wantRefusal(t, ring.Rewind(0), "Rollback.Rewind")
			assert.Equal(t, 1, ring.Len(), "a refused call leaves the ring as it was")

			// The good snapshot still loads into a fresh world, which runs on.
			q := newPoisonWorld(t)
			require.NoError(t, q.w.Restore(good))
			require.NoError(t, q.w.Frame(0.01))
			assert.Equal(t, q.n.All()[0], q.m.All()[0])
		})
	}
}

func wantRefusal(t *testing.T, err error, call string) {
	t.Helper()
	require.Error(t, err, call)
	assert.ErrorIs(t, err, scheduler.ErrPoisoned, call)
	assert.ErrorIs(t, err, runtime.ErrSnapshot, call)
	assert.True(t, runtime.IsFatal(err), call)
	assert.Equal(t, "runtime: "+call+" refused: a panic poisoned this world (Frame returns ErrPoisoned), "+
		"leaving its last frame half-run, and a snapshot would carry that state on; close this world and build a new one, "+
		"restoring into it a save or rollback snapshot taken before the panic", err.Error())
}
