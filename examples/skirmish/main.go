// Command skirmish is a small fight between two teams that uses the five
// tools of "what changed" on the face, each rule in its section of
// docs/architecture.md:
//   - a run condition (Decl.RunIf; Run conditions): the strike system runs
//     only while the match is on, and the frame report counts its skips;
//   - change detection (WriteTracked, Changed; Change detection): strike
//     stamps each unit it hits, and a medic reads exactly those rows, once;
//   - lifecycle events (Lifecycle; Lifecycle events): the deletes of
//     fallen units, consumed by a system that reads each one's last values;
//   - subscriptions (SubscribeGroupSum, SubscribeCount, SubscribeTopN;
//     Subscriptions): each team's strength, the number of wounded and the
//     three strongest units, kept from the frame's changes, whose deltas
//     the host prints after every frame;
//   - the checking debug build (Debug build): its test runs in both builds.
//
// Run it, and its test in the debug build, with
//
//	go run ./examples/skirmish -frames 16 -seed 7
//	go test -tags tickwork_debug ./examples/skirmish
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/tickwork/tickwork"
)

const (
	units   = 32 // at the start, half on each team
	hits    = 8  // hits a fixed tick, at random slots of the table
	full    = 100
	wounded = 30 // a unit below this HP is wounded
)

// Match is what the host controls: strike runs only while On.
type Match struct{ On bool }

// Tally is what the medic and the obituary count.
type Tally struct {
	Seen     int      // changed rows the medic read: each hit unit once per medic run
	Alerts   int      // of those, the ones below wounded
	Fallen   [2]int   // per team
	Overkill [2]int32 // per team, the damage past 0 of the fallen (their last HP, negated)
}

// Unit is a row of the Unit table as the subscriptions and the lifecycle
// events see it: its fields pair with the columns by name.
type Unit struct{ Team, HP int32 }

type skirmish struct {
	w        *tickwork.World
	units    *tickwork.Table
	team, hp *tickwork.Column[int32]
	match    *tickwork.Resource[Match]
	tally    *tickwork.Resource[Tally]
	strength *tickwork.SubGroupSum[Unit, int32, int64]
	hurt     *tickwork.SubCount[Unit]
	top      *tickwork.SubTopN[Unit, int32]
}

// newSkirmish declares the table, the three systems and the three
// subscriptions, builds the world and inserts the units at full HP,
// alternating teams.
func newSkirmish(seed uint64) (*skirmish, error) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithFixedStep(1.0/30))
	s := &skirmish{units: b.Table(tickwork.TableSpec{Name: "Unit", Capacity: units})}
	team := tickwork.AddColumn[int32](b, s.units, "Team")
	hp := tickwork.AddColumn[int32](b, s.units, "HP")
	s.team, s.hp = team, hp
	s.match = tickwork.AddResource(b, "match", Match{On: true})
	s.tally = tickwork.AddResource(b, "tally", Tally{})
	rng := tickwork.AddResource(b, "rng", tickwork.NewRand(seed, 1))
	fallen := tickwork.Lifecycle[Unit](b, s.units, tickwork.LifecycleSpec{Name: "Fallen", Capacity: units, On: tickwork.Deleted})

	b.System("strike", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			m := tickwork.ReadResource(c, s.match)
			return func(*tickwork.Context) bool { return m.On }
		})
		life := tickwork.WriteTracked(d, hp) // stamps each row it hits: the medic reads those rows only
		rec := tickwork.Record(d, s.units)
		r := *tickwork.WriteResource(d, rng)
		return func(*tickwork.Context) {
			for range hits {
				h, ok := s.units.HandleAt(r.IntN(units))
				if !ok {
					continue // a slot the fallen left empty: a miss
				}
				p := life.Ptr(h)
				if *p -= 15 + int32(r.IntN(31)); *p <= 0 {
					rec.Delete(h) // played back after the tick; Fallen holds its last values
				}
			}
		}
	})
	b.System("medic", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		changed, life := tickwork.Changed(d, hp), tickwork.Read(d, hp)
		t := tickwork.WriteResource(d, s.tally)
		return func(*tickwork.Context) {
			for row := range changed.Rows() { // the live rows hit since medic's last run, once each
				t.Seen++
				if life.At(row) < wounded {
					t.Alerts++
				}
			}
		}
	})
	b.System("obituary", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("medic") // both write tally
		c := tickwork.Consume(d, fallen)
		t := tickwork.WriteResource(d, s.tally)
		return func(*tickwork.Context) {
			for _, e := range c.Read() { // the deletes of the last frame's ticks, in playback order
				t.Fallen[e.Row.Team]++
				t.Overkill[e.Row.Team] -= e.Row.HP // the row's last HP, read after its row was freed
			}
		}
	})

	s.strength = tickwork.SubscribeGroupSum(b, s.units, tickwork.GroupSumSpec[Unit, int32, int64]{Name: "strength",
		Key: func(u *Unit) int32 { return u.Team }, Sum: func(u *Unit) int64 { return int64(u.HP) }})
	s.hurt = tickwork.SubscribeCount(b, s.units, tickwork.FilterSpec[Unit]{Name: "wounded",
		Where: func(u *Unit) bool { return u.HP < wounded }})
	s.top = tickwork.SubscribeTopN(b, s.units, tickwork.TopSpec[Unit, int32]{Name: "strongest", N: 3,
		Key: func(u *Unit) int32 { return u.HP }})

	var err error
	if s.w, err = b.Build(); err != nil {
		return nil, err
	}
	q := tickwork.HostQuery2(team, hp)
	for i := range units {
		if _, err := q.Insert(int32(i%2), full); err != nil {
			s.w.Close()
			return nil, err
		}
	}
	return s, nil
}

// paused reports whether the host holds the match in frame f: frames 4 and 5.
func paused(f int) bool { return f == 4 || f == 5 }

// run builds a skirmish, runs frames frames of one fixed tick each, the
// match paused in frames 4 and 5, and prints each frame's skips and
// subscription deltas to out.
func run(out io.Writer, frames int, seed uint64) (*skirmish, error) {
	s, err := newSkirmish(seed)
	if err != nil {
		return nil, err
	}
	for f := range frames {
		s.match.Get().On = !paused(f)
		if err := s.w.Frame(1.0 / 30); err != nil {
			s.w.Close()
			return nil, err
		}
		s.print(out, f)
	}
	return s, nil
}

// print writes frame f's line and the subscriptions' deltas since the
// previous frame.
func (s *skirmish) print(out io.Writer, f int) {
	t := s.tally.Get()
	st := s.w.Report().System("strike")
	fmt.Fprintf(out, "frame %d: strike ran %d, skipped %d; %d units; medic saw %d, %d alerts; fallen %v, overkill %v\n",
		f, st.Runs, st.Skips, s.units.Len(), t.Seen, t.Alerts, t.Fallen, t.Overkill)
	for _, g := range s.strength.Read() {
		fmt.Fprintf(out, "  team %d strength %d -> %d (%d -> %d units)\n", g.Key, g.Before, g.After, g.RowsBefore, g.RowsAfter)
	}
	if d := s.hurt.Read(); d.Before != d.After {
		fmt.Fprintf(out, "  wounded %d -> %d\n", d.Before, d.After)
	}
	d := s.top.Read()
	for _, e := range d.Entered {
		fmt.Fprintln(out, rankLine(e))
	}
}

// rankLine is one rank of the top-3 as print writes it.
func rankLine(e tickwork.Ranked[Unit, int32]) string {
	return fmt.Sprintf("  rank %d: row %d, team %d, HP %d", e.Rank, e.Row, e.Value.Team, e.Key)
}

func main() {
	frames := flag.Int("frames", 16, "frames of 1/30 s, one fixed tick each")
	seed := flag.Uint64("seed", 7, "the random stream's seed")
	flag.Parse()
	s, err := run(os.Stdout, *frames, *seed)
	if err != nil {
		log.Fatal(err)
	}
	defer s.w.Close()
	fmt.Println(s.w.Report())
}
