package tickwork

import (
	"time"

	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// FrameReport describes the last completed frame (World.Report). Read it
// between frames, from the goroutine that calls Frame.
type FrameReport struct {
	Frame      uint64        // the frame's number; the first frame is 0
	DT         float64       // the frame's delta, seconds, as given
	FrameTime  time.Duration // wall time of Frame, from its start to its end
	FixedTicks int           // fixed ticks run in the frame
	Dropped    time.Duration // simulated time dropped in this frame: by the tick cap, or ticks skipped after a system failed
	Remaining  time.Duration // the accumulator after the frame (below one step; 0 with OneTickPerFrame)

	// Commands sums what the frame's command playbacks did.
	Commands CommandStats
	// EventsDropped is the number of events lost in this frame, over every
	// event table: emits refused by overflow, and ThisFrame events a
	// consumer had not read when the frame ended, once per such consumer.
	EventsDropped int64
	// EventsUnread is the number of this frame's ThisFrame events that no
	// system consumes (a table declared EventSpec.MayGoUnread, or the
	// host's emits into a table without consumers), which ended the frame
	// unread: not an error, not in EventsDropped (docs/architecture.md,
	// Retention and capacity).
	EventsUnread int64
	// AllocBytes and AllocObjects are the heap bytes and objects allocated
	// during the frame by the whole process, as runtime/metrics counts them:
	// a small allocation (32 KiB or less) when its span leaves its P's
	// cache, so a frame that allocated a few hundred bytes can read 0 and a
	// later one counts them; exact with WithExactAllocs(true) (the rule:
	// package scheduler, FrameReport.AllocBytes).
	AllocBytes, AllocObjects uint64

	// Systems holds one entry per system, in sealed order (phase by phase,
	// then the order systems ran in).
	Systems []SystemReport

	r *scheduler.FrameReport // the scheduler's, copied by World.Report
}

// Counter returns the value in the frame of the counter name of the system
// named system, and true; 0 and false when there is no such counter.
// Allocates nothing.
func (r *FrameReport) Counter(system, name string) (int64, bool) {
	if s := r.System(system); s != nil {
		return s.Counter(name)
	}
	return 0, false
}

// System returns the report of the system named name, or nil. Allocates
// nothing.
func (r *FrameReport) System(name string) *SystemReport {
	for i := range r.Systems {
		if r.Systems[i].Name == name {
			return &r.Systems[i]
		}
	}
	return nil
}

// CommandsDropped is the number of the frame's commands that playback
// could not apply (Commands.DroppedSets + CapacityErrors + FailedAttaches
// + FailedMoves + FailedSets + ForeignHandles).
func (r *FrameReport) CommandsDropped() int { return r.r.CommandsDropped() }

// String formats the report on one line, such as
// "frame 12: 1.2ms, 1 tick, 0s dropped, 40 commands (0 dropped), 0 events dropped, 0 B allocated"
// (with "3 events unread, " before the bytes when EventsUnread is not 0,
// then "2 runs skipped, " when Skips is not 0).
func (r *FrameReport) String() string { return r.r.String() }

// copyFrom makes r the face of the scheduler's report s, reusing r's
// slices: it allocates only when the systems or counters outgrow them.
func (r *FrameReport) copyFrom(s *scheduler.FrameReport) {
	sys := r.Systems[:0]
	*r = FrameReport{
		Frame: s.Frame, DT: s.DT, FrameTime: s.FrameTime, FixedTicks: s.FixedTicks,
		Dropped: s.Dropped, Remaining: s.Remaining, Commands: CommandStats(s.Commands),
		EventsDropped: s.EventsDropped, EventsUnread: s.EventsUnread, AllocBytes: s.AllocBytes, AllocObjects: s.AllocObjects,
		r: s,
	}
	for i := range s.Systems {
		e := &s.Systems[i]
		if i < cap(sys) {
			sys = sys[:i+1]
		} else {
			sys = append(sys, SystemReport{})
		}
		cs := sys[i].Counters[:0]
		for _, c := range e.Counters {
			cs = append(cs, CounterReport(c))
		}
		sys[i] = SystemReport{Name: e.Name, Phase: Phase(e.Phase), Lane: e.Lane, Runs: e.Runs, Skips: e.Skips, Last: e.Last,
			Total: e.Total, P50: e.P50, P99: e.P99, Mean: e.Mean, Window: e.Window, Workers: e.Workers, Counters: cs}
	}
	r.Systems = sys
}

// SystemReport is the timing of one system in a frame. A FixedUpdate
// system runs once per fixed tick, so zero or more times a frame; the
// others once a frame (fewer when an earlier system failed). Times are
// wall-clock, measured around the body and the merge of its parallel
// events.
type SystemReport struct {
	Name  string
	Phase Phase
	Lane  string // System.Lane: the lane its kernels run, "" when not stated
	Runs  int    // runs in the frame
	// Skips is the runs its run conditions skipped in the frame
	// (Decl.RunIf): a skipped run adds nothing to Runs, Total, the
	// statistics, Workers or Counters.
	Skips int
	Last  time.Duration // wall time of the system's last run (in this or an earlier frame)
	Total time.Duration // wall time of its runs in the frame
	// P50, P99 and Mean are taken over the last Window runs (at most
	// WithReportWindow's), nearest-rank percentiles.
	P50, P99, Mean time.Duration
	Window         int // runs the statistics cover
	// Workers is the most workers any kernel run of the system was given
	// in the frame, 1 for a kernel on the system's goroutine alone, 0 when
	// none ran on the world's pool (the rule: scheduler.SystemReport).
	Workers int
	// Counters holds the system's named counters in declaration order
	// (Decl.Counter), each with what the frame's runs added.
	Counters []CounterReport
}

// Counter returns the value in the frame of the system's counter name, and
// true; 0 and false when it has no such counter. Allocates nothing.
func (s *SystemReport) Counter(name string) (int64, bool) {
	for i := range s.Counters {
		if s.Counters[i].Name == name {
			return s.Counters[i].Value, true
		}
	}
	return 0, false
}

// Skipped reports whether run conditions skipped every run of the system
// in the frame (Skips > 0 and Runs == 0).
func (s *SystemReport) Skipped() bool { return s.Skips > 0 && s.Runs == 0 }

// String formats the system's figures on one line, such as
// `"move" (Update): 1 run, 0 skipped, 1.2ms`.
func (s *SystemReport) String() string {
	e := scheduler.SystemReport{Name: s.Name, Phase: systems.Phase(s.Phase), Runs: s.Runs, Skips: s.Skips, Total: s.Total}
	return e.String()
}

// Skips is the runs that run conditions skipped in the frame, over every
// system.
func (r *FrameReport) Skips() int {
	n := 0
	for i := range r.Systems {
		n += r.Systems[i].Skips
	}
	return n
}

// CounterReport is one named counter of a system in a frame: Value is the
// sum of what the system's runs of the frame added (Counter.Add).
type CounterReport struct {
	Name  string
	Value int64
}

// CommandStats counts what a frame's command playbacks did, in records or
// entities (a SetN record counts once in Played and once per write in Sets
// or DroppedSets). A policy no-op is a count, never an error.
type CommandStats struct {
	Played         int   // records played (all kinds)
	Created        int   // rows created by Create (each a new entity)
	Attached       int   // rows added by Attach
	Deleted        int   // entities deleted by Delete
	Removed        int   // rows removed by Remove
	Emptied        int   // entities a Remove left with no row and still rowless when their buffer's playback ended, deleted then
	Sets           int   // deferred writes applied
	StaleDeletes   int   // Deletes and Removes of a handle with no live row: no-ops
	DroppedSets    int   // writes to a handle with no live entity
	FailedAttaches int   // Attaches of a dead entity, or of one that already had a row (also set Err)
	CapacityErrors int   // Creates refused at recording or that did not fit in the table's domain (also set Err)
	ForeignHandles int   // records whose handle is another domain's or another playback's provisional one: no-ops (also set Err)
	Err            error // first failure (errors.Is ErrCommandPlayback), wrapping the storage error (ErrCapacity, ErrStaleHandle, ErrRowExists, ErrForeignHandle, ErrTooManyCreates); nil if none
	Moved          int   // rows moved by Move
	FailedMoves    int   // Moves of a handle with no row in the source table or with one in the destination (also set Err)
	BudgetRefusals int   // records and writes refused at recording: their buffer could not grow within the memory budget (also set Err, wrapping ErrMemoryBudget)
	FailedSets     int   // writes to a live entity with no row in the column's table (also set Err, wrapping ErrNoRow)
}

// Time is the fixed-step clock's account (World.Time), in integer
// nanoseconds so that it balances exactly: Fed == Simulated + Dropped +
// Remaining. With OneTickPerFrame only Frames, Ticks and Simulated move.
type Time struct {
	Frames    uint64        // frames run
	Ticks     uint64        // fixed ticks run
	Step      time.Duration // the fixed step, truncated to the nanosecond
	Fed       time.Duration // sum of the frame deltas (Accumulate)
	Simulated time.Duration // Ticks * Step
	Dropped   time.Duration // time dropped by the tick cap (Accumulate)
	Remaining time.Duration // the accumulator: always below Step (Accumulate)
}

// Budget is a world's memory budget (WithMemoryBudget): every declaration
// is charged to it before it allocates (docs/architecture.md,
// Memory budget). Read it from the goroutine that builds or runs the world.
type Budget memory.Budget

// Limit is the budget's limit in bytes.
func (b *Budget) Limit() int64 { return (*memory.Budget)(b).Limit() }

// Used is the bytes charged so far.
func (b *Budget) Used() int64 { return (*memory.Budget)(b).Used() }

// Left is the bytes still free, Limit - Used.
func (b *Budget) Left() int64 { return (*memory.Budget)(b).Left() }
