package tickwork_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// marksWorld is a world of one Unit table (Key int32, X and Y float32)
// with 200 units (Key i, at (i, 0)), a hash index on Key and a grid of
// 10 m cells on (X, Y), and the one system add declares, given the two.
func marksWorld(t *testing.T, add func(b *tickwork.Builder, key *tickwork.Column[int32], x *tickwork.Column[float32], byKey *tickwork.HashIndex[int32], grid *tickwork.GridIndex)) (*tickwork.World, *tickwork.HashIndex[int32], *tickwork.GridIndex) {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 256, ChunkRows: 64})
	key := tickwork.AddColumn[int32](b, units, "Key")
	x := tickwork.AddColumn[float32](b, units, "X")
	y := tickwork.AddColumn[float32](b, units, "Y")
	byKey := tickwork.AddHashIndex(b, "byKey", key)
	grid := tickwork.AddGridIndex(b, "near", x, y, 10)
	add(b, key, x, byKey, grid)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	q := tickwork.HostQuery3(key, x, y)
	for i := range 200 {
		_, err := q.Insert(int32(i), float32(i), 0)
		require.NoError(t, err)
	}
	return w, byKey, grid
}

// TestDebugBuildNamesUnmarkedIndexWrite: a system that declares
// MaintainIndex and changes the key of a row it does not mark leaves the
// index stale in the normal build (the frame succeeds, the index files
// the old key); the checking debug build fails the frame with an
// *UnmarkedIndexWriteError naming the system, the index, its key columns
// and the row (docs/architecture.md, Debug build). A system that marks
// every row it changes, or changes a grid point within its cell without
// marking it, passes in both builds.
func TestDebugBuildNamesUnmarkedIndexWrite(t *testing.T) {
	cases := []struct {
		name    string
		system  func(key *tickwork.Column[int32], x *tickwork.Column[float32], byKey *tickwork.HashIndex[int32], grid *tickwork.GridIndex) tickwork.DeclareFunc
		want    *tickwork.UnmarkedIndexWriteError // nil: the frame passes in both builds
		hashRow int                               // a row whose filed key the test checks, with the key the system wrote
		hashKey int32
	}{
		{"hash key changed unmarked", func(key *tickwork.Column[int32], _ *tickwork.Column[float32], byKey *tickwork.HashIndex[int32], _ *tickwork.GridIndex) tickwork.DeclareFunc {
			return func(d *tickwork.Decl) tickwork.RunFunc {
				k, m := tickwork.Write(d, key), tickwork.MaintainIndex(d, byKey)
				return func(*tickwork.Context) {
					k.All()[3] += 1000
					m.Mark(3)
					k.All()[130] += 1000 // not marked
					k.All()[150] += 1000 // not marked either: the lowest row is named
				}
			}
		}, &tickwork.UnmarkedIndexWriteError{System: "shift", Index: "byKey", Columns: "Unit.Key", Row: 130}, 130, 1130},
		{"hash keys all marked", func(key *tickwork.Column[int32], _ *tickwork.Column[float32], byKey *tickwork.HashIndex[int32], _ *tickwork.GridIndex) tickwork.DeclareFunc {
			return func(d *tickwork.Decl) tickwork.RunFunc {
				k, m := tickwork.Write(d, key), tickwork.MaintainIndex(d, byKey)
				return func(*tickwork.Context) {
					for _, r := range []int{3, 130, 150} {
						k.All()[r] += 1000
						m.Mark(r)
					}
				}
			}
		}, nil, 130, 1130},
		{"grid point crossed a cell unmarked", func(_ *tickwork.Column[int32], x *tickwork.Column[float32], _ *tickwork.HashIndex[int32], grid *tickwork.GridIndex) tickwork.DeclareFunc {
			return func(d *tickwork.Decl) tickwork.RunFunc {
				xs := tickwork.Write(d, x)
				tickwork.MaintainIndex(d, grid) // marks nothing
				return func(*tickwork.Context) {
					xs.All()[42] += 20 // from cell 4 to cell 6, not marked
				}
			}
		}, &tickwork.UnmarkedIndexWriteError{System: "shift", Index: "near", Columns: "Unit.X, Unit.Y", Row: 42}, -1, 0},
		{"grid point within its cell unmarked", func(_ *tickwork.Column[int32], x *tickwork.Column[float32], _ *tickwork.HashIndex[int32], grid *tickwork.GridIndex) tickwork.DeclareFunc {
			return func(d *tickwork.Decl) tickwork.RunFunc {
				xs, m := tickwork.Write(d, x), tickwork.MaintainIndex(d, grid)
				return func(*tickwork.Context) {
					xs.All()[42] += 0.5 // 42.5: still cell 4, which IndexMarks.Cells lets a kernel skip
					_ = m
				}
			}
		}, nil, -1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, byKey, _ := marksWorld(t, func(b *tickwork.Builder, key *tickwork.Column[int32], x *tickwork.Column[float32], byKey *tickwork.HashIndex[int32], grid *tickwork.GridIndex) {
				b.System("shift", tickwork.Update, tc.system(key, x, byKey, grid))
			})
			err := w.Frame(1.0 / 60)
			if tc.want == nil || !tickwork.DebugBuild {
				require.NoError(t, err)
				if tc.hashRow >= 0 {
					k, ok := byKey.Hash().Key(int32(tc.hashRow))
					require.True(t, ok)
					if tc.want == nil {
						assert.Equal(t, tc.hashKey, k, "marked: the index files the new key")
					} else {
						assert.Equal(t, int32(tc.hashRow), k, "unmarked, normal build: the index still files the old key")
					}
				}
				return
			}
			require.ErrorIs(t, err, tickwork.ErrUnmarkedIndexWrite)
			var se *tickwork.SystemError
			require.True(t, errors.As(err, &se))
			assert.Equal(t, "shift", se.System)
			var uw *tickwork.UnmarkedIndexWriteError
			require.True(t, errors.As(err, &uw))
			assert.Equal(t, *tc.want, *uw)
			assert.Equal(t, `scheduler: system "shift" changed the key (`+tc.want.Columns+`) of row `+
				map[int]string{130: "130", 42: "42"}[tc.want.Row]+` of index "`+tc.want.Index+`" without marking it, `+
				`which it declared it would (MaintainIndex): mark every row whose key it changes (IndexMarks.Mark), `+
				`or drop MaintainIndex and let the sync diff the table (tickwork_debug check)`, uw.Error())
		})
	}
}

// TestDebugBuildMarksCheckSkipsAStaleIndex: an index the host left stale
// (a raw write through Column.All with no Reindex: docs/architecture.md,
// Indexes (d)) is not blamed on the next system that maintains it by
// marks; after Reindex the check applies again.
func TestDebugBuildMarksCheckSkipsAStaleIndex(t *testing.T) {
	var keys *tickwork.Column[int32]
	unmarked := false
	w, _, _ := marksWorld(t, func(b *tickwork.Builder, key *tickwork.Column[int32], _ *tickwork.Column[float32], byKey *tickwork.HashIndex[int32], _ *tickwork.GridIndex) {
		keys = key
		b.System("shift", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			k, m := tickwork.Write(d, key), tickwork.MaintainIndex(d, byKey)
			return func(*tickwork.Context) {
				k.All()[7]++
				if !unmarked {
					m.Mark(7)
				}
			}
		})
	})
	require.NoError(t, w.Frame(1.0/60))
	keys.All()[9] = -9 // the host's raw write: the index is stale until Reindex
	unmarked = true
	require.NoError(t, w.Frame(1.0/60), "stale before the run: not the system's")
	require.NoError(t, w.Reindex())
	err := w.Frame(1.0 / 60)
	if !tickwork.DebugBuild {
		require.NoError(t, err)
		return
	}
	var uw *tickwork.UnmarkedIndexWriteError
	require.True(t, errors.As(err, &uw), "got %v", err)
	assert.Equal(t, tickwork.UnmarkedIndexWriteError{System: "shift", Index: "byKey", Columns: "Unit.Key", Row: 7}, *uw)
}
