package ephemeral_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// TestVersionsMatchModel drives a tracked column with row tracking by
// random stamps (Column.Set, rows made live), whole-table bumps, deletes
// and reads, and checks Chunks and Rows against a model that records, per
// reader, the rows and chunks changed since its last read.
func TestVersionsMatchModel(t *testing.T) {
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 1))
		tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 512, ChunkRows: 64})
		require.NoError(t, err)
		col, err := ephemeral.AddColumn[int32](tab, "V")
		require.NoError(t, err)
		v, err := col.Track(rows(seed))
		require.NoError(t, err)
		clock := uint64(1)
		v.SetClock(&clock)
		type reader struct {
			last        uint64
			rows, chunk map[int]bool
		}
		rs := []*reader{{rows: map[int]bool{}, chunk: map[int]bool{}}, {rows: map[int]bool{}, chunk: map[int]bool{}}}
		note := func(row int) {
			for _, r := range rs {
				r.rows[row], r.chunk[row/64] = true, true
			}
		}
		var live []ephemeral.Handle
		for step := range 2000 {
			clock++
			switch op := rng.IntN(10); {
			case op < 3:
				h, err := tab.Insert()
				if err == nil {
					live = append(live, h)
					note(int(h.Index()))
				}
			case op < 4 && len(live) > 0:
				i := rng.IntN(len(live))
				tab.Delete(live[i])
				live = slices.Delete(live, i, i+1)
			case op < 7 && len(live) > 0:
				h := live[rng.IntN(len(live))]
				col.Set(h, int32(step))
				note(int(h.Index()))
			case op < 8:
				v.Bump(clock)
				for _, h := range live {
					note(int(h.Index()))
				}
			default:
				r := rs[rng.IntN(len(rs))]
				var want, wantChunks []int
				for row := range r.rows {
					if _, ok := tab.HandleAt(row); ok {
						want = append(want, row)
					}
				}
				for c := range r.chunk {
					wantChunks = append(wantChunks, c)
				}
				slices.Sort(want)
				slices.Sort(wantChunks)
				if !v.RowsTracked() { // chunk granularity: every live row of a changed chunk
					want = nil
					for _, c := range wantChunks {
						for row := c * 64; row < (c+1)*64; row++ {
							if _, ok := tab.HandleAt(row); ok {
								want = append(want, row)
							}
						}
					}
				}
				require.Equal(t, wantChunks, collect(v.Chunks(r.last)), "seed %d step %d: chunks", seed, step)
				require.Equal(t, want, collect(v.Rows(r.last)), "seed %d step %d: rows", seed, step)
				assert.Equal(t, len(wantChunks) > 0, v.Changed(r.last))
				r.last = clock
				clear(r.rows)
				clear(r.chunk)
			}
		}
	}
}

func rows(seed uint64) bool { return seed%2 == 0 }

func collect(seq func(func(int) bool)) []int {
	var out []int
	for x := range seq {
		out = append(out, x)
	}
	return out
}

// TestAddBumpedToMatchesBumpedRows: AddBumpedTo adds to a sink exactly the
// rows BumpedRows yields (the live rows of the chunks bumped whole after
// since, none of the chunks bumped before or only stamped), and allocates
// nothing.
func TestAddBumpedToMatchesBumpedRows(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 512, ChunkRows: 64})
	require.NoError(t, err)
	col, err := ephemeral.AddColumn[int32](tab, "V")
	require.NoError(t, err)
	v, err := col.Track(false)
	require.NoError(t, err)
	clock := uint64(1)
	v.SetClock(&clock)
	var hs []ephemeral.Handle
	for range 300 {
		h, err := tab.Insert()
		require.NoError(t, err)
		hs = append(hs, h)
	}
	for i := 0; i < len(hs); i += 7 {
		tab.Delete(hs[i])
	}
	clock = 5
	v.Bump(5)                                                // every chunk holding a live row
	v.BumpChunks(9, []bool{false, true, false, false, true}) // chunks 1 and 4 again
	col.Set(hs[1], 3)                                        // a stamp, at the clock (5): no whole bump
	for _, since := range []uint64{0, 4, 5, 8, 9} {
		var want, got []int
		for r := range v.BumpedRows(since) {
			want = append(want, r)
		}
		s := ephemeral.NewRowSink(tab)
		v.AddBumpedTo(since, s)
		s.Drain(func(r int) { got = append(got, r) })
		assert.Equal(t, want, got, "since %d", since)
		if since == 5 {
			assert.Len(t, got, (64-9)+(44-6), "chunks 1 and 4: their rows less the deleted multiples of 7")
		}
	}
	s := ephemeral.NewRowSink(tab)
	assert.Zero(t, testing.AllocsPerRun(100, func() { v.AddBumpedTo(4, s); s.Drain(func(int) {}) }))
}
