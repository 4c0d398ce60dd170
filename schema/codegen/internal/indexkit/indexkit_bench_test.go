package indexkit_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	kit "github.com/tickwork/tickwork/schema/codegen/internal/indexkit"
)

// BenchmarkGroupWalk: EvGroups (`tickwork`: the run-time choice of a
// grouped walk, docs/schema.md, Indexes) against EvGroupsScan (`scan`)
// over 512 events spread over 512, 128, 32, 8 and 2 targets: below 64
// events a group EvGroups scans, from 64 it walks the index's groups.
func BenchmarkGroupWalk(b *testing.B) {
	for _, groups := range []int{512, 128, 32, 8, 2} {
		wd := newWorld(b, 1)
		var hs []tickwork.Handle
		for range 256 {
			h, err := wd.t.Item.Table.Insert()
			require.NoError(b, err)
			wd.set(h) // a distinct Id (a unique key)
			hs = append(hs, h)
		}
		require.NoError(b, wd.w.Frame(1.0/60))
		for i := range 512 {
			// distinct targets: the items, then zero handles' generations
			who := hs[i%min(groups, len(hs))]
			if groups > len(hs) && i >= len(hs) {
				who = 0
				if i%2 == 0 {
					who = hs[(i*7)%len(hs)]
				}
			}
			require.NoError(b, wd.t.Ev.Emit(kit.Ev{Who: who, Amt: int32(i % 5), F: float32(i)}))
		}
		hx := wd.t.Indexes.EvByWho.Hash()
		name := fmt.Sprintf("%d_a_group", hx.Len()/max(hx.Groups(), 1))
		var rows []kit.EvGroupsRow
		var rowsS []kit.EvGroupsScanRow
		b.Run(name+"/tickwork", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rows = wd.q.EvGroups.Run(rows)
			}
		})
		b.Run(name+"/scan", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rowsS = wd.q.EvGroupsScan.Run(rowsS)
			}
		})
		require.Equal(b, fmt.Sprint(rowsS), fmt.Sprint(rows))
	}
}

// BenchmarkGroupWalkMap: FlagGroups (`tickwork`, a walk of ByFlag's 2
// groups: its group table is a map, found once a group) against
// FlagGroupsScan (`scan`: a map lookup a row) over 256 items.
func BenchmarkGroupWalkMap(b *testing.B) {
	wd := newWorld(b, 1)
	for range 256 {
		h, err := wd.t.Item.Table.Insert()
		require.NoError(b, err)
		wd.set(h)
	}
	var rows []kit.FlagGroupsRow
	var rowsS []kit.FlagGroupsScanRow
	b.Run("tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rows = wd.q.FlagGroups.Run(rows)
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rowsS = wd.q.FlagGroupsScan.Run(rowsS)
		}
	})
	require.Equal(b, fmt.Sprint(rowsS), fmt.Sprint(rows))
}
