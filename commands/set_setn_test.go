package commands_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/testkit/allockit"
)

// SetN gives a batch of new rows their values in one record, and equals the
// same writes recorded one by one with Set.
func TestSetNEqualsSets(t *testing.T) {
	const n = 300
	results := [2][]int64{}
	for variant := range 2 {
		w := newWorld(t, 1024, 64)
		old := w.insert(t, 3)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 8)
		rec := b.Recorder(w.units)
		hs := make([]ephemeral.Handle, n)
		vs := make([]int64, n)
		for i := range hs {
			hs[i] = rec.Create()
			vs[i] = int64(100 + i)
		}
		hs = append(hs, old[1]) // a real handle among the provisional ones
		vs = append(vs, -1)
		if variant == 0 {
			commands.SetN(rec, w.value, hs, vs)
			assert.Equal(t, n+1, b.Len(), "n creates and one SetN record")
		} else {
			for i := range hs {
				commands.Set(rec, w.value, hs[i], vs[i])
			}
		}
		st := p.PlayAll([]*commands.Buffer{b})
		assert.Equal(t, n, st.Created)
		assert.Equal(t, n+1, st.Sets)
		assert.Zero(t, st.DroppedSets)
		var got []int64
		for _, h := range hs[:n] {
			v, ok := w.value.Get(mustResolve(t, p, h))
			require.True(t, ok)
			got = append(got, v)
		}
		v, _ := w.value.Get(old[1])
		got = append(got, v)
		results[variant] = got
	}
	assert.Equal(t, results[1], results[0])
	assert.Equal(t, int64(100), results[0][0])
	assert.Equal(t, int64(-1), results[0][len(results[0])-1])
}

// A SetN write to a handle deleted earlier in the buffer is dropped and
// counted; the others land.
func TestSetNDropsDeadHandles(t *testing.T) {
	w := newWorld(t, 16, 64)
	old := w.insert(t, 4)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 8)
	rec := b.Recorder(w.units)
	rec.Delete(old[2])
	commands.SetN(rec, w.value, old, []int64{10, 20, 30, 40})
	st := p.PlayAll([]*commands.Buffer{b})
	assert.Equal(t, 3, st.Sets)
	assert.Equal(t, 1, st.DroppedSets)
	for i, want := range []int64{10, 20, 0, 40} {
		v, _ := w.value.Get(old[i])
		assert.Equal(t, want, v, "row %d", i)
	}
}

func TestSetNMisuse(t *testing.T) {
	w := newWorld(t, 16, 64)
	other := newWorld(t, 16, 64)
	p := commands.NewPlayback(nil)
	rec := newBuffer(t, p, 8).Recorder(w.units)
	assert.PanicsWithValue(t, "commands: SetN with 2 handles and 1 values: pass one value per handle", func() {
		commands.SetN(rec, w.value, make([]ephemeral.Handle, 2), []int64{1})
	})
	assert.Panics(t, func() { commands.SetN(rec, other.value, make([]ephemeral.Handle, 1), []int64{1}) })
	commands.SetN(rec, w.value, nil, nil) // empty: records nothing
	assert.Zero(t, rec.Buffer().Len())
}

func TestSetNSteadyStateAllocs(t *testing.T) {
	w := newWorld(t, 1024, 64)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 8)
	hs := make([]ephemeral.Handle, 64)
	vs := make([]int64, 64)
	cycle := func() {
		rec := b.Recorder(w.units)
		for i := range hs {
			hs[i] = rec.Create()
		}
		commands.SetN(rec, w.value, hs, vs)
		p.PlayAll([]*commands.Buffer{b})
		for i := range hs {
			r, _ := p.Resolve(hs[i])
			rec.Delete(r)
		}
		p.PlayAll([]*commands.Buffer{b})
		p.Release()
	}
	for range 3 {
		cycle()
	}
	assert.Zero(t, testing.AllocsPerRun(50, cycle))
	assert.Zero(t, w.units.Len())
}

// After Reserve, recording up to the reserved count allocates nothing, even
// the first time.
func TestReserve(t *testing.T) {
	var (
		w   world
		p   *commands.Playback
		b   *commands.Buffer
		rec commands.Recorder
	)
	// 2 x 250 creates and 250 sets are 1000 records and 500 values; the
	// first call on a fresh buffer, the cleanest of a few (allockit).
	allocs := allockit.FirstCall(allockit.DefaultTries, func() func() {
		w = newWorld(t, 4096, 64)
		p = commands.NewPlayback(nil)
		b = newBuffer(t, p, 0)
		rec = b.Recorder(w.units)
		commands.Reserve(rec, w.value, 1000)
		return func() {
			for i := range 500 {
				h := rec.Create()
				commands.Set(rec, w.value, h, int64(i))
			}
		}
	})
	assert.Zero(t, allocs)
	st := p.PlayAll([]*commands.Buffer{b})
	assert.Equal(t, 500, st.Created)
	assert.Equal(t, 500, st.Sets)
	b.Reserve(-1) // no-op

	// Reserving less than is already recorded, or a negative count, keeps
	// the records and values as they are.
	h := rec.Create()
	commands.Set(rec, w.value, h, 7)
	commands.Set(rec, w.value, h, 8)
	commands.Reserve(rec, w.value, 1)
	commands.Reserve(rec, w.value, -1)
	st = p.PlayAll([]*commands.Buffer{b})
	assert.Equal(t, 1, st.Created)
	assert.Equal(t, 2, st.Sets)
	v, ok := w.value.Get(mustResolve(t, p, h))
	assert.True(t, ok)
	assert.Equal(t, int64(8), v)
}

// Reserve covers SetN too: its handles are stored beside the values.
func TestReserveCoversSetN(t *testing.T) {
	hs := make([]ephemeral.Handle, 250)
	vs := make([]int64, 250)
	for i := range hs {
		hs[i] = ephemeral.MakeHandle(uint32(i), 1)
	}
	// Two SetN: 500 handles and values, 2 records; the first call on a
	// fresh buffer, the cleanest of a few (allockit).
	assert.Zero(t, allockit.FirstCall(allockit.DefaultTries, func() func() {
		w := newWorld(t, 4096, 64)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		rec := b.Recorder(w.units)
		commands.Reserve(rec, w.value, 1000)
		return func() {
			commands.SetN(rec, w.value, hs, vs)
			commands.SetN(rec, w.value, hs, vs)
		}
	}))
}
