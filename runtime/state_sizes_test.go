package runtime_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// szWorld is a small world with a raw resource, a slice resource without
// declared lengths (free), one with them (bounded, 2..8 elements) and a
// checked raw one (level, 0..9), and a table of 256 rows.
type szWorld struct {
	w       *runtime.World
	free    *systems.Resource[[]uint64]
	bounded *systems.Resource[[]uint32]
	level   *systems.Resource[int32]
}

func newSzWorld(t testing.TB, opts ...runtime.Option) *szWorld {
	t.Helper()
	s := &szWorld{}
	b := runtime.NewBuilder(append([]runtime.Option{runtime.WithWorkers(1)}, opts...)...)
	runtime.AddColumn[int64](b, b.Table(ephemeral.TableSpec{Name: "T", Capacity: 256, ChunkRows: 64}), "X")
	s.free = runtime.AddResource(b, "free", []uint64{1, 2, 3})
	s.bounded = runtime.AddSliceResource(b, "bounded", []uint32{7, 8}, 2, 8)
	s.level = runtime.AddResource(b, "level", int32(3))
	runtime.CheckResource(b, s.level, func(v *int32) error {
		if *v < 0 || *v > 9 {
			return errors.New("level outside 0..9")
		}
		return nil
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	s.w = w
	return s
}

// szSections cuts a snapshot into its sections: host, scheduler, the
// table's private domain, then the resources free, bounded, level.
func szSections(t testing.TB, snap []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for at := runtime.SnapshotHeader; at < len(snap); {
		n := int(binary.LittleEndian.Uint64(snap[at:]))
		out = append(out, snap[at+8:at+8+n])
		at += 8 + n
	}
	return out
}

// szJoin makes a snapshot of header's fields and secs, with its payload
// length and checksum made to match.
func szJoin(header []byte, secs [][]byte) []byte {
	b := append([]byte(nil), header[:runtime.SnapshotHeader]...)
	for _, s := range secs {
		b = binary.LittleEndian.AppendUint64(b, uint64(len(s)))
		b = append(b, s...)
	}
	binary.LittleEndian.PutUint64(b[24:], uint64(len(b)-runtime.SnapshotHeader))
	runtime.FixChecksum(b)
	return b
}

// TestHostConfig: a snapshot carries the host configuration in its first
// section, covered by the checksum; a world of other bytes refuses it with
// ErrHostConfig, whose *HostConfigError holds both, before the fingerprint
// (another world of other bytes also names the host configuration), and
// is as it was; a world of the same bytes restores it.
func TestHostConfig(t *testing.T) {
	a := newSzWorld(t, runtime.WithHostConfig([]byte("shots=255")))
	snap, err := a.w.Snapshot(nil)
	require.NoError(t, err)
	assert.Equal(t, []byte("shots=255"), szSections(t, snap)[0])
	assert.Equal(t, []byte("shots=255"), a.w.HostConfig())
	assert.Equal(t, newSzWorld(t).w.Fingerprint(), a.w.Fingerprint(), "not in the fingerprint")

	b := newSzWorld(t, runtime.WithHostConfig([]byte("shots=256")))
	before, _ := b.w.Snapshot(nil)
	err = b.w.Restore(snap)
	assert.ErrorIs(t, err, runtime.ErrHostConfig)
	assert.ErrorIs(t, err, runtime.ErrSnapshot)
	var he *runtime.HostConfigError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "shots=255", string(he.Saved))
	assert.Equal(t, "shots=256", string(he.Want))
	var se *runtime.SnapshotError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "host configuration", se.Section)
	after, _ := b.w.Snapshot(nil)
	assert.Equal(t, before, after, "refused: the world is as it was")

	require.NoError(t, newSzWorld(t, runtime.WithHostConfig([]byte("shots=255"))).w.Restore(snap))
	require.ErrorIs(t, newSzWorld(t).w.Restore(snap), runtime.ErrHostConfig, "no host configuration is the empty one")

	flipped := append([]byte(nil), snap...)
	flipped[runtime.SnapshotHeader+8] ^= 1 // 's' of "shots=255", checksum not fixed
	assert.ErrorContains(t, a.w.Restore(flipped), "checksum mismatch")

	ob := runtime.NewBuilder(runtime.WithWorkers(1), runtime.WithHostConfig([]byte("shots=256")))
	runtime.AddColumn[int8](ob, ob.Table(ephemeral.TableSpec{Name: "Other", Capacity: 64}), "Y")
	other, err := ob.Build()
	require.NoError(t, err)
	defer other.Close()
	err = other.Restore(snap)
	assert.ErrorIs(t, err, runtime.ErrHostConfig, "another world of another host configuration names the configuration")
	assert.ErrorContains(t, err, "fingerprint")

	_, err = runtime.NewBuilder(runtime.WithHostConfig(make([]byte, runtime.MaxHostConfig+1))).Build()
	assert.ErrorIs(t, err, runtime.ErrOption)
}

// TestRestoreRefusesSectionSizes: whatever the checksum says, a section
// longer than its declarations allow (a raw resource, a slice resource of
// declared lengths, the table's domain) or outside its declared lengths is
// refused naming the section; free slices share the state allowance, past
// which both Snapshot and Restore refuse naming the section; a payload
// longer than MaxSnapshotSize is refused from the header. The world is as
// it was after each.
func TestRestoreRefusesSectionSizes(t *testing.T) {
	s := newSzWorld(t, runtime.WithStateAllowance(1024))
	good, err := s.w.Snapshot(nil)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(good), s.w.MaxSnapshotSize())
	secs := szSections(t, good)
	require.Len(t, secs, 6)
	grow := func(k, by int) []byte {
		c := append([][]byte(nil), secs...)
		c[k] = append(append([]byte(nil), secs[k]...), make([]byte, by)...)
		return szJoin(good, c)
	}
	shrink := func(k, by int) []byte {
		c := append([][]byte(nil), secs...)
		c[k] = secs[k][:len(secs[k])-by]
		return szJoin(good, c)
	}
	for _, tc := range []struct {
		name, section, msg string
		src                []byte
	}{
		{"domain longer", "domain T", "its declarations allow at most", grow(2, 8)},
		{"bounded past maxLen", "resource bounded", "its declarations allow at most 32", grow(4, 7*4)},
		{"bounded under minLen", "resource bounded", "1 elements, outside its declared lengths 2..8", shrink(4, 4)},
		{"raw longer", "resource level", "its declarations allow at most 4", grow(5, 4)},
		{"free past the allowance", "resource free", "more than the world's state allowance of 1024", grow(3, 1024)},
		{"check refuses", "resource level", "level outside 0..9", func() []byte {
			c := append([][]byte(nil), secs...)
			c[5] = binary.LittleEndian.AppendUint32(nil, 10)
			return szJoin(good, c)
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.w.Restore(tc.src)
			require.Error(t, err)
			assert.ErrorIs(t, err, runtime.ErrCorrupt)
			var se *runtime.SnapshotError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.section, se.Section, "%v", err)
			assert.ErrorContains(t, err, tc.msg)
			after, _ := s.w.Snapshot(nil)
			assert.Equal(t, good, after, "refused: the world is as it was")
		})
	}

	long := append([]byte(nil), good...)
	binary.LittleEndian.PutUint64(long[24:], uint64(s.w.MaxSnapshotSize()))
	err = s.w.Restore(long)
	assert.ErrorIs(t, err, runtime.ErrCorrupt)
	assert.ErrorContains(t, err, "World.MaxSnapshotSize")

	*s.free.Get() = make([]uint64, 200) // 1600 bytes, past the allowance
	_, err = s.w.Snapshot(nil)
	assert.ErrorIs(t, err, runtime.ErrUnsupported)
	assert.ErrorContains(t, err, "resource free")
	*s.free.Get() = nil
	*s.bounded.Get() = make([]uint32, 9)
	_, err = s.w.Snapshot(nil)
	assert.ErrorIs(t, err, runtime.ErrUnsupported)
	assert.ErrorContains(t, err, "9 elements, outside its declared lengths 2..8")

	b := runtime.NewBuilder()
	assert.Nil(t, runtime.AddSliceResource(b, "x", []int32{1, 2, 3}, 0, 2))
	assert.ErrorIs(t, b.Err(), runtime.ErrDefinition)
	assert.ErrorIs(t, b.Err(), systems.ErrResourceState)
	b = runtime.NewBuilder()
	runtime.CheckResource[int32](b, nil, func(*int32) error { return nil })
	assert.ErrorIs(t, b.Err(), runtime.ErrNilResource)
}

// TestRestoreChargesBudget: what a snapshot holds beyond the declared
// sizes (a free slice grown to 64 KiB) is charged to the restoring world's
// memory budget, once; a budget that cannot hold it refuses the snapshot
// (ErrUnsupported, errors.Is ErrMemoryBudget) with the world as it was.
func TestRestoreChargesBudget(t *testing.T) {
	a := newSzWorld(t)
	*a.free.Get() = make([]uint64, 8192)
	big, err := a.w.Snapshot(nil)
	require.NoError(t, err)

	b := newSzWorld(t)
	used := b.w.Budget().Used()
	require.NoError(t, b.w.Restore(big))
	assert.Equal(t, used+8192*8-3*8, b.w.Budget().Used(), "the growth beyond what it held")
	require.NoError(t, b.w.Restore(big))
	assert.Equal(t, used+8192*8-3*8, b.w.Budget().Used(), "charged once")

	probe := newSzWorld(t)
	c := newSzWorld(t, runtime.WithMemoryBudget(probe.w.Budget().Used()+1000))
	before, _ := c.w.Snapshot(nil)
	err = c.w.Restore(big)
	assert.ErrorIs(t, err, runtime.ErrUnsupported)
	assert.ErrorIs(t, err, runtime.ErrMemoryBudget)
	after, _ := c.w.Snapshot(nil)
	assert.Equal(t, before, after, "refused: the world is as it was")
}

// bigWorld is a world of a 64 MiB column whose budget holds it and 1 MiB
// more.
func bigWorld(t *testing.T) *runtime.World {
	t.Helper()
	const rows = 1 << 20
	probe := runtime.NewBuilder(runtime.WithWorkers(1))
	runtime.AddColumn[[8]float64](probe, probe.Table(ephemeral.TableSpec{Name: "Big", Capacity: rows}), "V")
	need := probe.Budget().Used()
	b := runtime.NewBuilder(runtime.WithWorkers(1), runtime.WithMemoryBudget(need+1<<20))
	runtime.AddColumn[[8]float64](b, b.Table(ephemeral.TableSpec{Name: "Big", Capacity: rows}), "V")
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w
}

// TestNewRollbackChargesBeforeAllocating: a ring of a 64 MiB world that
// its budget refuses allocates (almost) nothing: its size comes from the
// declarations, not a trial snapshot.
func TestNewRollbackChargesBeforeAllocating(t *testing.T) {
	w := bigWorld(t)
	var err error
	n := allocated(func() { _, err = runtime.NewRollback(w, 2) })
	var be *memory.BudgetError
	require.ErrorAs(t, err, &be)
	assert.Less(t, n, uint64(64<<10), "bytes allocated by the refused NewRollback")
}

// TestSnapshotSizeTakesNoSnapshot: SnapshotSize is Snapshot's length,
// computed without one: 0 allocations (a codec resource's kept buffer
// warm), and a few bytes for a 64 MiB world.
func TestSnapshotSizeTakesNoSnapshot(t *testing.T) {
	s := newStWorld(t, 1)
	s.run(t, 20)
	size, err := s.w.SnapshotSize()
	require.NoError(t, err)
	assert.Equal(t, len(s.snap(t)), size)
	assert.Zero(t, testing.AllocsPerRun(20, func() { _, _ = s.w.SnapshotSize() }))

	w := bigWorld(t)
	n := allocated(func() { size, err = w.SnapshotSize() })
	require.NoError(t, err)
	assert.Less(t, n, uint64(64<<10), "bytes allocated by SnapshotSize")
	assert.Greater(t, size, 64<<20)
	assert.LessOrEqual(t, size, w.MaxSnapshotSize())
	snap, err := w.Snapshot(nil)
	require.NoError(t, err)
	assert.Equal(t, len(snap), size)
	assert.True(t, bytes.Equal(snap[:8], []byte("TICKSNAP")))
}
