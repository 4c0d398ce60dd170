package scheduler

import (
	goruntime "runtime"
	"runtime/metrics"
	"strconv"
	"time"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/systems"
)

// defaultReportWindow is the number of runs per system that the rolling
// statistics of a FrameReport cover when Config.ReportWindow is 0.
const defaultReportWindow = 128

// MaxReportWindow bounds Config.ReportWindow, in runs.
const MaxReportWindow = 1 << 16

// FrameReport describes the last completed frame. Everything it holds is
// preallocated at Seal; Frame only overwrites it (Commands.Err excepted: a
// failed playback makes its *PlaybackError). Read it between
// frames, from the goroutine that calls Frame.
type FrameReport struct {
	Frame      uint64        // the frame's number; the first frame is 0
	DT         float64       // the frame's delta, seconds, as given
	FrameTime  time.Duration // wall time of Frame, from its start to its end
	FixedTicks int           // fixed ticks run in the frame
	Dropped    time.Duration // simulated time dropped in this frame: by the tick cap, or ticks skipped after a system failed
	Remaining  time.Duration // the accumulator after the frame (below one step; 0 with OneTickPerFrame)

	// Commands sums the commands.Stats of every playback of the frame
	// (after each phase and each fixed tick); Err is the first error any
	// playback reported, nil when none did.
	Commands commands.Stats
	// EventsDropped is the number of events lost in this frame, over every
	// event table (taken after the frame's end): emits refused
	// by overflow, and ThisFrame events a consumer had not read when the
	// frame ended, once per such consumer.
	EventsDropped int64
	// EventsUnread is the number of ThisFrame events of this frame that no
	// system consumes, over every event table (taken after the frame's
	// end): the events of a table declared MayGoUnread, or emitted by the
	// host or outside every manifest, which ended the frame with no reader
	// (docs/architecture.md, Retention and capacity). Not an error, and not
	// in EventsDropped.
	EventsUnread int64
	// AllocBytes and AllocObjects are the heap bytes and objects the
	// process allocated between the frame's start and its end, all
	// goroutines (the host's other goroutines too), from runtime/metrics
	// (/gc/heap/allocs:bytes and :objects). Those count an allocation of
	// more than 32 KiB at once, but a small one only when the span it came
	// from leaves its P's cache (the span is full and the P takes a fresh
	// one, or a GC flushes the caches): so a frame's figure misses its own
	// small allocations that went into a span still cached at its end (a
	// frame that allocated 512 B can read 0) and includes earlier frames'
	// whose span left the cache during it. A frame that allocates nothing
	// and during which no span leaves a cache reads 0, and the sum over
	// many frames is right to within the spans cached at the ends. With
	// Config.ExactAllocs the figures are exact (runtime.ReadMemStats
	// flushes every cache), for two stops of the world a frame.
	AllocBytes, AllocObjects uint64

	// Systems holds one entry per system, in sealed order (phase by phase,
	// then the order systems ran in).
	Systems []SystemReport

	scratch []int64 // selection scratch, ReportWindow long
	stale   bool    // percentiles need recomputing
}

// SystemReport is the timing of one system. A FixedUpdate system runs once
// per fixed tick, so zero or more times a frame; the others once a frame
// (fewer when an earlier system failed). Times are wall-clock, measured
// around Run and the merge of its parallel events.
type SystemReport struct {
	Name  string
	Phase systems.Phase
	Lane  string // systems.System.Lane: the lane its kernels run, "" when not stated
	Runs  int    // runs in the last frame
	// Skips is the runs a run condition skipped in the last frame
	// (systems.Decl.RunIf; docs/architecture.md, Run conditions): a
	// skipped run adds nothing to Runs, Total, the statistics, Workers or
	// Counters.
	Skips int
	Last  time.Duration // wall time of the system's last run (in this or an earlier frame)
	Total time.Duration // wall time of its runs in the last frame
	// P50, P99 and Mean are taken over the last Window runs (at most
	// Config.ReportWindow), nearest-rank percentiles.
	P50, P99, Mean time.Duration
	Window         int // runs the statistics cover
	// Workers is the most workers any kernel run of the system's runs in
	// the last frame was given (kernels.Pool.TakePeak): the pool's worker
	// policy picks it from the chunk count (package kernels, "Worker
	// policy"), and 1 means the kernel ran on the system's goroutine
	// alone. 0 when none of its kernels ran on the pool that frame: no
	// kernel, no pool, or a generated kernel over a table of one chunk
	// (which runs without the pool). Which chunks each worker ran is
	// claimed at run time and not reported.
	Workers int
	// Counters holds the system's named counters in declaration order
	// (systems.Decl.Counter), each with what the frame's runs added: the
	// rule is systems' (package doc, Counters). Made at Seal.
	Counters []CounterReport

	ring []int64 // the last runs' wall times, ns
	next int     // ring index of the next sample
}

// CounterReport is one named counter of a system in a frame: Value is the
// sum of what the system's runs of the frame added (systems.Counter.Add).
// Exported as the element type of SystemReport.Counters, which runtime and
// the face copy by field.
type CounterReport struct {
	Name  string
	Value int64
}

// String formats the system's figures on one line, such as
// `"move" (Update): 1 run, 0 skipped, 1.2ms`.
func (s *SystemReport) String() string {
	runs := " runs, "
	if s.Runs == 1 {
		runs = " run, "
	}
	return strconv.Quote(s.Name) + " (" + s.Phase.String() + "): " + itoa(s.Runs) + runs +
		itoa(s.Skips) + " skipped, " + s.Total.String()
}

// Skips is the runs that run conditions skipped in the frame, over every
// system (SystemReport.Skips).
func (r *FrameReport) Skips() int {
	n := 0
	for i := range r.Systems {
		n += r.Systems[i].Skips
	}
	return n
}

// String formats the report on one line, such as
// "frame 12: 1.2ms, 1 tick, 0 dropped, 40 commands (0 dropped), 0 events dropped, 0 B allocated"
// ("..., 3 events unread, ..." after the events dropped when EventsUnread is not 0,
// and "2 runs skipped, " before the bytes when Skips is not 0).
func (r *FrameReport) String() string {
	ticks := " ticks"
	if r.FixedTicks == 1 {
		ticks = " tick"
	}
	unread := "" // EventsUnread, shown when not 0
	if r.EventsUnread != 0 {
		unread = strconv.FormatInt(r.EventsUnread, 10) + " events unread, "
	}
	return "frame " + strconv.FormatUint(r.Frame, 10) + ": " + r.FrameTime.String() + ", " +
		itoa(r.FixedTicks) + ticks + ", " + r.Dropped.String() + " dropped, " +
		itoa(r.Commands.Played) + " commands (" + itoa(r.CommandsDropped()) + " dropped), " +
		strconv.FormatInt(r.EventsDropped, 10) + " events dropped, " + unread + skipped(r.Skips()) +
		strconv.FormatUint(r.AllocBytes, 10) + " B allocated"
}

// CommandsDropped is the number of commands of the frame that playback could
// not apply: writes to dead rows, creates past a table's capacity, failed
// attaches and moves, and records naming another domain's handle
// (Commands.DroppedSets + CapacityErrors + FailedAttaches + FailedMoves +
// FailedSets + ForeignHandles). Deletes of rows already gone are a policy
// no-op, counted apart in Commands.StaleDeletes.
func (r *FrameReport) CommandsDropped() int {
	return r.Commands.DroppedSets + r.Commands.CapacityErrors + r.Commands.FailedAttaches + r.Commands.FailedMoves +
		r.Commands.FailedSets + r.Commands.ForeignHandles
}

func newReport(names []string, phases []systems.Phase, window int) FrameReport {
	r := FrameReport{Systems: make([]SystemReport, len(names)), scratch: make([]int64, window)}
	for i := range r.Systems {
		r.Systems[i] = SystemReport{Name: names[i], Phase: phases[i], ring: make([]int64, 0, window)}
	}
	return r
}

// beginFrame clears the per-frame fields.
func (r *FrameReport) beginFrame(frame uint64, dt float64) {
	r.Frame, r.DT = frame, dt
	r.FixedTicks = 0
	r.Dropped, r.Remaining = 0, 0
	r.Commands = commands.Stats{}
	r.EventsDropped, r.EventsUnread = 0, 0
	for i := range r.Systems {
		r.Systems[i].Runs, r.Systems[i].Skips = 0, 0
		r.Systems[i].Total = 0
		r.Systems[i].Workers = 0
		for j := range r.Systems[i].Counters {
			r.Systems[i].Counters[j].Value = 0
		}
	}
}

// take adds what a run added to the system's counters (frame.Counter
// Pending) to the frame's values and clears it.
func (s *SystemReport) take(cs []frame.Counter) {
	for i := range cs {
		s.Counters[i].Value += cs[i].Pending
		cs[i].Pending = 0
	}
}

// record adds one run of d to the system's figures.
func (s *SystemReport) record(d time.Duration) {
	s.Runs++
	s.Last = d
	s.Total += d
	if len(s.ring) < cap(s.ring) {
		s.ring = append(s.ring, int64(d))
	} else {
		s.ring[s.next] = int64(d)
	}
	s.next++
	if s.next == cap(s.ring) {
		s.next = 0
	}
}

// finish computes the rolling statistics when they are stale. It allocates
// nothing: selection runs in the preallocated scratch.
func (r *FrameReport) finish() {
	if !r.stale {
		return
	}
	r.stale = false
	for i := range r.Systems {
		s := &r.Systems[i]
		n := len(s.ring)
		s.Window = n
		if n == 0 {
			s.P50, s.P99, s.Mean = 0, 0, 0
			continue
		}
		var sum int64
		for _, v := range s.ring {
			sum += v
		}
		s.Mean = time.Duration(sum / int64(n))
		buf := r.scratch[:n]
		copy(buf, s.ring)
		s.P50 = time.Duration(selectK(buf, rank(n, 50)))
		s.P99 = time.Duration(selectK(buf, rank(n, 99)))
	}
}

// rank is the 0-based index of the nearest-rank p-th percentile of n values:
// ceil(p*n/100) - 1.
func rank(n, p int) int {
	k := (p*n + 99) / 100
	if k < 1 {
		k = 1
	}
	return k - 1
}

// selectK reorders a so that a[k] is the k-th smallest value (0-based) and
// returns it: Hoare's quickselect with a median-of-three pivot, in place.
func selectK(a []int64, k int) int64 {
	lo, hi := 0, len(a)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		// median of three into a[mid]
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		p := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}

// allocMeter reads the heap allocation counters without allocating:
// runtime/metrics into a preallocated sample slice, or, exact,
// runtime.ReadMemStats into a preallocated MemStats (it stops the world
// and flushes every P's span cache, so every allocation so far is
// counted: FrameReport.AllocBytes).
type allocMeter struct {
	samples []metrics.Sample
	exact   *goruntime.MemStats // nil: runtime/metrics
}

func newAllocMeter(exact bool) allocMeter {
	m := allocMeter{samples: []metrics.Sample{
		{Name: "/gc/heap/allocs:bytes"},
		{Name: "/gc/heap/allocs:objects"},
	}}
	if exact {
		m.exact = new(goruntime.MemStats)
	}
	return m
}

// read returns the cumulative bytes and objects allocated.
func (m *allocMeter) read() (bytes, objects uint64) {
	if m.exact != nil {
		goruntime.ReadMemStats(m.exact)
		return m.exact.TotalAlloc, m.exact.Mallocs
	}
	metrics.Read(m.samples)
	if m.samples[0].Value.Kind() == metrics.KindUint64 {
		bytes = m.samples[0].Value.Uint64()
	}
	if m.samples[1].Value.Kind() == metrics.KindUint64 {
		objects = m.samples[1].Value.Uint64()
	}
	return bytes, objects
}

// skipped is "N runs skipped, " ("1 run skipped, "), "" for 0.
func skipped(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "1 run skipped, "
	}
	return itoa(n) + " runs skipped, "
}

func itoa(n int) string { return strconv.Itoa(n) }
