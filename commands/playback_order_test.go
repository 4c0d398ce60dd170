package commands_test

import (
	"errors"
	"testing"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
)

// TestDeleteAfterMove: records play in record order (Policies, Playback
// order), so a Delete recorded after a Move, or after a Remove and an
// Attach, of the same entity deletes it, through the recorder of either
// table, whether the entity was created in the buffer or before, and in a
// merged (per-worker) playback too.
func TestDeleteAfterMove(t *testing.T) {
	type recs struct{ units, bodies commands.Recorder }
	cases := []struct {
		name   string
		record func(r recs, h ephemeral.Handle)
		want   commands.Stats // counts of the records after the create
	}{
		{"Move then Delete through the source", func(r recs, h ephemeral.Handle) {
			commands.Move(h, r.units, r.bodies)
			r.units.Delete(h)
		}, commands.Stats{Played: 2, Moved: 1, Deleted: 1}},
		{"Move then Delete through the destination", func(r recs, h ephemeral.Handle) {
			commands.Move(h, r.units, r.bodies)
			r.bodies.Delete(h)
		}, commands.Stats{Played: 2, Moved: 1, Deleted: 1}},
		{"Remove, Attach, Delete", func(r recs, h ephemeral.Handle) {
			r.units.Remove(h)
			r.bodies.Attach(h)
			r.units.Delete(h)
		}, commands.Stats{Played: 3, Removed: 1, Attached: 1, Deleted: 1}},
		{"Attach, Remove, Delete", func(r recs, h ephemeral.Handle) {
			r.bodies.Attach(h)
			r.units.Remove(h)
			r.units.Delete(h)
		}, commands.Stats{Played: 3, Removed: 1, Attached: 1, Deleted: 1}},
		{"Remove then Delete of the rowless entity", func(r recs, h ephemeral.Handle) {
			r.units.Remove(h)
			r.bodies.Delete(h)
		}, commands.Stats{Played: 2, Removed: 1, Deleted: 1}},
		{"Move, Delete, Move: the second is stale", func(r recs, h ephemeral.Handle) {
			commands.Move(h, r.units, r.bodies)
			r.units.Delete(h)
			commands.Move(h, r.bodies, r.units)
		}, commands.Stats{Played: 3, Moved: 1, Deleted: 1, FailedMoves: 1, Err: ephemeral.ErrStaleHandle}},
	}
	for _, tc := range cases {
		for _, mode := range []string{"real handle", "created in the buffer", "merged"} {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				w := newDomainWorld(t, 8)
				p := commands.NewPlayback(nil)
				b := newBuffer(t, p, 0)
				r := recs{b.Recorder(w.unit), b.Recorder(w.body)}
				other := r.units.Create() // a neighbour that must live on
				var h ephemeral.Handle
				want := tc.want
				if mode == "created in the buffer" {
					h = r.units.Create()
					want.Played++
					want.Created++
				} else {
					h = r.units.Create()
					p.PlayAll([]*commands.Buffer{b})
					h = mustResolve(t, p, h)
				}
				var st commands.Stats
				switch mode {
				case "merged":
					b.Begin(0)
					tc.record(r, h)
					st = p.PlayMerged([]*commands.Buffer{b})
				case "created in the buffer":
					tc.record(r, h)
					st = p.PlayAll([]*commands.Buffer{b})
					want.Played++ // the neighbour's create
					want.Created++
					h = mustResolve(t, p, h)
				default:
					tc.record(r, h)
					st = p.PlayAll([]*commands.Buffer{b})
				}
				checkStats(t, st, want)
				if want.Err != nil && !errors.Is(st.Err, want.Err) {
					t.Errorf("Err = %v, want one wrapping %v", st.Err, want.Err)
				}
				if w.unit.Domain().IsAlive(h) || w.unit.IsAlive(h) || w.body.IsAlive(h) {
					t.Errorf("entity %v survived its Delete: alive %v, Unit row %v, Body row %v",
						h, w.unit.Domain().IsAlive(h), w.unit.IsAlive(h), w.body.IsAlive(h))
				}
				if n := w.unit.Domain().Len(); n != 1 {
					t.Errorf("%d live entities, want 1 (the neighbour)", n)
				}
				if !w.unit.IsAlive(mustResolve(t, p, other)) {
					t.Error("the neighbour was deleted")
				}
			})
		}
	}
}

// TestWriteBeforeTheCreateOfItsSlot: a write naming a real handle that a
// create recorded after it will make (a made-up handle of the next free
// slot) finds no row when it plays, in a bulk create run as one by one:
// the run ends at such a write (Policies, Playback order).
func TestWriteBeforeTheCreateOfItsSlot(t *testing.T) {
	for _, window := range []int{1024, 1} {
		w := newDomainWorld(t, 8)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		units := b.Recorder(w.unit)
		first := units.Create()
		commands.Set(units, w.hp, first, 1)
		next := w.unit.Domain().MakeHandle(1, 1) // what the second create makes
		commands.Set(units, w.hp, next, 7)
		second := units.Create()
		restore := commands.SetCreateWindow(window)
		st := p.PlayAll([]*commands.Buffer{b})
		restore()
		checkStats(t, st, commands.Stats{Played: 4, Created: 2, Sets: 1, DroppedSets: 1})
		if got := mustResolve(t, p, second); got != next {
			t.Fatalf("window %d: second create made %v, want %v", window, got, next)
		}
		if got, _ := w.hp.Get(next); got != 0 {
			t.Errorf("window %d: hp of the second = %d, want 0 (the write before its create is dropped)", window, got)
		}
	}
}
