package tickwork_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestRowSourceFilterMatchesRowStruct checks that a filter whose rows
// come from a RowSource (a vector filled by Copy, the columns named)
// hands out, frame after frame, the deltas of the same filter over a row
// struct pairing with the columns.
func TestRowSourceFilterMatchesRowStruct(t *testing.T) {
	for _, workers := range []int{1, 2} {
		rng := rand.New(rand.NewPCG(7, uint64(workers)))
		b := tickwork.NewBuilder(tickwork.WithWorkers(workers))
		unit := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 256, ChunkRows: 64})
		team := tickwork.AddColumn[int32](b, unit, "Team")
		hp := tickwork.AddColumn[int32](b, unit, "HP")
		type vec [2]int32
		src := &tickwork.RowSource[vec]{Columns: []string{"Team", "HP"}, Copy: func(dst *vec, r int) {
			dst[0], dst[1] = team.All()[r], hp.All()[r]
		}}
		byVec := tickwork.SubscribeFilter(b, unit, tickwork.FilterSpec[vec]{Name: "vec", Source: src,
			Where: func(v *vec) bool { return v[1] > 20 }})
		type row struct{ Team, HP int32 }
		byRow := tickwork.SubscribeFilter(b, unit, tickwork.FilterSpec[row]{Name: "row",
			Where: func(v *row) bool { return v.HP > 20 }})
		w, err := b.Build()
		require.NoError(t, err)
		var hs []tickwork.Handle
		for f := range 120 {
			for range rng.IntN(4) {
				if h, err := unit.Insert(); err == nil {
					hs = append(hs, h)
					hp.Set(h, int32(rng.IntN(60)))
				}
			}
			if len(hs) > 0 {
				h := hs[rng.IntN(len(hs))]
				if rng.IntN(3) == 0 {
					unit.Delete(h)
				} else {
					hp.Set(h, int32(rng.IntN(60)))
					team.Set(h, int32(rng.IntN(3)))
				}
			}
			require.NoError(t, w.Frame(1.0/60))
			dv, dr := byVec.Read(), byRow.Read()
			conv := func(rs []tickwork.SubRow[row]) []tickwork.SubRow[vec] {
				var out []tickwork.SubRow[vec]
				for _, r := range rs {
					out = append(out, tickwork.SubRow[vec]{Handle: r.Handle, Row: r.Row, Value: vec{r.Value.Team, r.Value.HP}})
				}
				return out
			}
			nilIfEmpty := func(rs []tickwork.SubRow[vec]) []tickwork.SubRow[vec] {
				if len(rs) == 0 {
					return nil
				}
				return rs
			}
			require.Equal(t, conv(dr.Entered), nilIfEmpty(dv.Entered), "frame %d", f)
			require.Equal(t, conv(dr.Left), nilIfEmpty(dv.Left), "frame %d", f)
			require.Equal(t, conv(dr.Changed), nilIfEmpty(dv.Changed), "frame %d", f)
		}
		require.Positive(t, byVec.Len())
		_ = w.Close()
	}
}

// TestRowSourceErrors: a RowSource without Copy, or naming a column the
// table does not have, is a *SubscriptionError.
func TestRowSourceErrors(t *testing.T) {
	for name, c := range map[string]struct {
		src *tickwork.RowSource[[1]int32]
		msg string
	}{
		"no copy":        {&tickwork.RowSource[[1]int32]{Columns: []string{"HP"}}, `tickwork: subscription "n" of table "Unit": RowSource needs a Copy`},
		"unknown column": {&tickwork.RowSource[[1]int32]{Columns: []string{"Nope"}, Copy: func(*[1]int32, int) {}}, `tickwork: subscription "n" of table "Unit": RowSource column "Nope" is not a column of the table`},
	} {
		src := c.src
		b := tickwork.NewBuilder()
		unit := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
		tickwork.AddColumn[int32](b, unit, "HP")
		require.Nil(t, tickwork.SubscribeCount(b, unit, tickwork.FilterSpec[[1]int32]{Name: "n", Source: src}), name)
		require.ErrorIs(t, b.Err(), tickwork.ErrSubscription, name)
		var se *tickwork.SubscriptionError
		require.ErrorAs(t, b.Err(), &se, name)
		require.EqualError(t, b.Err(), c.msg, name)
	}
}
