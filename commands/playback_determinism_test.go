package commands_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/testkit/chunkdrive"
)

const (
	sourceRows = 1000
	chunkRows  = 64
)

// snapshot is a table's layout and content: the handle (untagged, see
// untag) and value of every row, zero for empty rows.
type snapshot struct {
	handles []ephemeral.Handle
	values  []int64
}

func snap(t *ephemeral.Table, col *ephemeral.Column[int64]) snapshot {
	var s snapshot
	for row := 0; row < t.Chunks()*t.ChunkRows(); row++ {
		h, ok := t.HandleAt(row)
		var v int64
		if ok {
			v = col.All()[row]
		}
		s.handles = append(s.handles, untag(h))
		s.values = append(s.values, v)
	}
	return s
}

// runDeterminism builds a source table of 1000 rows (values 0..999, chunks
// of 64 rows), runs a kernel over it with `workers` workers shared out by
// drive (one Buffer per worker, Begin(chunk) per chunk) that records, per
// source row v, a create with value 2v in the destination table, and a
// delete of that new row when v is even; plays the worker buffers merged,
// and returns the resolved handle of every create (untagged: each run has
// its own domains) and the destination's snapshot.
func runDeterminism(t *testing.T, drive chunkdrive.Driver, workers int) ([]ephemeral.Handle, snapshot, commands.Stats) {
	src := newWorld(t, sourceRows, chunkRows)
	for v := 0; v < sourceRows; v++ {
		h, err := src.units.Insert()
		if err != nil {
			t.Fatal(err)
		}
		src.value.Set(h, int64(v))
	}
	dst := newWorld(t, sourceRows, chunkRows)
	p := commands.NewPlayback(nil)
	bufs := make([]*commands.Buffer, workers)
	for w := range bufs {
		bufs[w] = newBuffer(t, p, 0)
	}
	prov := make([]ephemeral.Handle, sourceRows) // by source row
	drive.Run(t, workers, src.units.Chunks(), func(w, c int) {
		rec := bufs[w].Recorder(dst.units)
		set := commands.NewSetter(rec, dst.value)
		bufs[w].Begin(c)
		vals := src.value.Span(c)
		ephemeral.EachRun(src.units.Enabled(c), func(lo, hi int) {
			for r := lo; r < hi; r++ {
				v := vals[r]
				h := rec.Create()
				prov[c*chunkRows+r] = h
				set.Set(h, 2*v)
				if v%2 == 0 {
					rec.Delete(h)
				}
			}
		})
	})
	st := p.PlayMerged(bufs)
	real := make([]ephemeral.Handle, sourceRows)
	for i, h := range prov {
		real[i] = untag(mustResolve(t, p, h))
	}
	return real, snap(dst.units, dst.value), st
}

// untag is h without its domain tag: what two domains with the same history
// issue alike.
func untag(h ephemeral.Handle) ephemeral.Handle {
	return ephemeral.MakeHandle(h.Index(), h.Generation())
}

// inWorld is h as w names it: a provisional handle as is, an untagged one
// with w's tag, any other (a foreign domain's) as is.
func inWorld(w domainWorld, h ephemeral.Handle) ephemeral.Handle {
	if commands.IsProvisional(h) || h.Tag() != 0 || h == 0 {
		return h
	}
	return w.unit.Domain().MakeHandle(h.Index(), h.Generation())
}

// TestDeterminism: the merged playback of a parallel kernel's buffers gives
// the same handles and table whatever the worker count and however chunks
// were shared and ordered (interleaved goroutines, or a pool under the
// normal, reversed and shuffled chunk orders), all equal to one worker's.
func TestDeterminism(t *testing.T) {
	var wantHandles []ephemeral.Handle
	var wantSnap snapshot
	for _, drive := range chunkdrive.All() {
		for _, workers := range []int{1, 2, 4, 8} {
			for repeat := 0; repeat < 2; repeat++ {
				t.Run(fmt.Sprintf("%s/workers=%d/repeat=%d", drive.Name, workers, repeat), func(t *testing.T) {
					handles, s, st := runDeterminism(t, drive, workers)
					want := commands.Stats{Played: 2500, Created: 1000, Sets: 1000, Deleted: 500}
					checkStats(t, st, want)
					var live []int64
					for row, h := range s.handles {
						if h != 0 {
							live = append(live, s.values[row])
						}
					}
					if len(live) != 500 {
						t.Fatalf("%d live rows, want 500", len(live))
					}
					slices.Sort(live)
					for i, v := range live {
						if want := int64(2 * (2*i + 1)); v != want {
							t.Fatalf("live value %d = %d, want %d (2v for odd v)", i, v, want)
						}
					}
					if wantHandles == nil {
						wantHandles, wantSnap = handles, s
						return
					}
					if !slices.Equal(handles, wantHandles) {
						t.Errorf("resolved handles differ from interleaved, workers=1")
					}
					if !slices.Equal(s.handles, wantSnap.handles) || !slices.Equal(s.values, wantSnap.values) {
						t.Errorf("table layout or content differs from interleaved, workers=1")
					}
				})
			}
		}
	}
}

// TestBatchedEqualsOneByOne: a random script played as one buffer (bulk
// inserts, one guard per table) leaves the same tables, resolutions and
// counts as the same records played one at a time (a create window of one
// record: every create its own insert, every set applied alone). The
// script mixes creates and writes (of provisional handles, real and
// made-up ones: a write naming a slot a later create fills) with Moves,
// Removes, Attaches and Deletes of one entity in a row (Policies, Playback
// order).
func TestBatchedEqualsOneByOne(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			batch, single := newDomainWorld(t, 64), newDomainWorld(t, 64)
			pb, ps := commands.NewPlayback(nil), commands.NewPlayback(nil)
			bb, bs := newBuffer(t, pb, 0), newBuffer(t, ps, 0)
			rng := rand.New(rand.NewPCG(seed, 42))
			// Handles named by records, as each world names them:
			// provisional (each playback's own, made by the same record)
			// or real and untagged, tagged for each world by inWorld.
			type pair struct{ b, s ephemeral.Handle } // batched, one by one
			var pool []pair
			var statsB, statsS commands.Stats
			foreign := newDomainWorld(t, 64) // its handles are foreign to both
			fhs := make([]ephemeral.Handle, 64)
			if err := foreign.unit.InsertN(fhs); err != nil {
				t.Fatal(err)
			}
			for round := 0; round < 30; round++ {
				for k := 0; k < 40; k++ {
					pick := func() pair {
						switch {
						case rng.IntN(30) == 0:
							h := fhs[rng.IntN(len(fhs))]
							return pair{h, h}
						case len(pool) == 0 || rng.IntN(20) == 0:
							h := ephemeral.MakeHandle(uint32(rng.IntN(64)), 1)
							return pair{h, h}
						}
						return pool[rng.IntN(len(pool))]
					}
					op := rng.IntN(16)
					picked := pick()
					// A mix of structural records of the one picked entity
					// (op 15): Move, Remove, Attach and Delete through either
					// table, in the order drawn.
					var mix [4]int
					for m := range mix {
						mix[m] = rng.IntN(8)
					}
					hp := int32(rng.IntN(1000))
					var made pair
					for _, x := range []struct {
						w      domainWorld
						b      *commands.Buffer
						picked ephemeral.Handle
						made   *ephemeral.Handle
					}{{batch, bb, picked.b, &made.b}, {single, bs, picked.s, &made.s}} {
						h := inWorld(x.w, x.picked)
						units, bodies := x.b.Recorder(x.w.unit), x.b.Recorder(x.w.body)
						switch op {
						case 0, 1, 2: // create with a value, sometimes with a body
							n := units.Create()
							commands.Set(units, x.w.hp, n, hp)
							if op == 2 {
								bodies.Attach(n)
							}
							*x.made = n
						case 3:
							*x.made = bodies.Create()
						case 4:
							bodies.Attach(h)
						case 5:
							units.Delete(h)
						case 6:
							bodies.Delete(h)
						case 7:
							bodies.Remove(h) // deletes an entity whose last row it was
						case 8:
							units.Remove(h)
						case 9:
							commands.Move(h, units, bodies)
						case 10:
							commands.Move(h, bodies, units)
						case 15:
							for _, m := range mix {
								switch m {
								case 0:
									commands.Move(h, units, bodies)
								case 1:
									commands.Move(h, bodies, units)
								case 2:
									units.Remove(h)
								case 3:
									bodies.Remove(h)
								case 4:
									units.Attach(h)
								case 5:
									bodies.Attach(h)
								case 6:
									units.Delete(h)
								default:
									bodies.Delete(h)
								}
							}
						default:
							commands.Set(units, x.w.hp, h, hp)
						}
					}
					if made.b != 0 {
						pool = append(pool, made)
					}
				}
				statsB.Add(pb.PlayAll([]*commands.Buffer{bb}))
				restore := commands.SetCreateWindow(1)
				statsS.Add(ps.PlayAll([]*commands.Buffer{bs}))
				restore()
				// Keep handles resolvable in both, resolving pool entries to
				// real ones before releasing.
				if round%3 == 2 {
					live := pool[:0]
					for _, h := range pool {
						rb, okb := pb.Resolve(inWorld(batch, h.b))
						rs, oks := ps.Resolve(inWorld(single, h.s))
						if untag(rb) != untag(rs) || okb != oks {
							t.Fatalf("round %d: Resolve(%v) = %v, %v batched, Resolve(%v) = %v, %v one by one", round, h.b, rb, okb, h.s, rs, oks)
						}
						if batch.unit.Domain().IsAlive(rb) {
							live = append(live, pair{untag(rb), untag(rb)})
						}
					}
					pool = live
					pb.Release()
					ps.Release()
				}
			}
			if testing.Verbose() {
				t.Logf("%+v", statsB)
			}
			errB, errS := statsB.Err, statsS.Err
			statsB.Err, statsS.Err = nil, nil
			if statsB != statsS {
				t.Errorf("stats batched %+v\none by one     %+v", statsB, statsS)
			}
			if (errB == nil) != (errS == nil) {
				t.Errorf("Err batched %v, one by one %v", errB, errS)
			}
			for _, pair := range [][2]*ephemeral.Table{{batch.unit, single.unit}, {batch.body, single.body}} {
				for row := 0; row < 64; row++ {
					hb, okb := pair[0].HandleAt(row)
					hs, oks := pair[1].HandleAt(row)
					if untag(hb) != untag(hs) || okb != oks {
						t.Fatalf("%s row %d: %v, %v batched, %v, %v one by one", pair[0].Name(), row, hb, okb, hs, oks)
					}
				}
			}
			if !slices.Equal(batch.hp.All(), single.hp.All()) {
				t.Error("hp columns differ")
			}
			// Bit for bit: a freed row holds NaN in the debug build (ephemeral.PoisonByte).
			if !slices.EqualFunc(batch.x.All(), single.x.All(), func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }) {
				t.Error("x columns differ")
			}
		})
	}
}

func TestSteadyStateAllocs(t *testing.T) {
	w := newDomainWorld(t, 4096)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	workers := []*commands.Buffer{newBuffer(t, p, 0), newBuffer(t, p, 0), newBuffer(t, p, 0)}
	var live []ephemeral.Handle
	frame := func() {
		// A sequential system: delete last frame's units, create new ones
		// with a body and values.
		units, bodies := b.Recorder(w.unit), b.Recorder(w.body)
		for _, h := range live {
			units.Delete(h)
		}
		live = live[:0]
		for i := 0; i < 100; i++ {
			u := units.Create()
			commands.Set(units, w.hp, u, int32(i))
			bodies.Attach(u)
			commands.Set(bodies, w.x, u, float32(i))
		}
		st := p.PlayAll([]*commands.Buffer{b})
		// A parallel kernel's worker buffers, merged by chunk.
		for k, wb := range workers {
			rec := wb.Recorder(w.unit)
			hp := commands.NewSetter(rec, w.hp)
			for c := k; c < 12; c += len(workers) {
				wb.Begin(c)
				h := rec.Create()
				hp.Set(h, int32(c))
				rec.Remove(h)
				rec.Delete(w.unit.Domain().MakeHandle(uint32(c), 1))
			}
		}
		st.Add(p.PlayMerged(workers))
		for i := 0; i < 100; i++ {
			if h, ok := w.unit.HandleAt(i); ok {
				live = append(live, h)
			}
		}
		p.Release()
	}
	for i := 0; i < 3; i++ {
		frame() // warm-up: buffers grow
	}
	if n := testing.AllocsPerRun(100, frame); n != 0 {
		t.Errorf("record+playback frame: %v allocs, want 0", n)
	}
}
