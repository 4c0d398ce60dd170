package scheduler

import (
	"reflect"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/systems"
)

// DefaultCommandRecords is the capacity of each system's command buffer, in
// records, when Config.CommandRecords is 0 (tickwork.WithCommandRecords'
// default). Exported for a host sizing a memory budget with
// commands.BufferBytes(DefaultCommandRecords) per recording system and
// worker, as the arena's memory test does.
const DefaultCommandRecords = 1024

// MaxCommandRecords is the largest Config.CommandRecords: 2^24 records. A
// record takes 16 bytes and its create's resolution 8
// (commands.BufferBytes), charged to Config.Budget and allocated at Seal
// for every command buffer (a system that records has one, and one per
// kernel worker), so the maximum is 384 MiB per buffer.
// Buffers grow past their initial capacity while warming up; a larger
// initial capacity is never needed.
const MaxCommandRecords = 1 << 24

// Config sets a scheduler up. The zero Config is valid: a 1/60 s step,
// Accumulate pacing, 8 ticks per frame at most, a 128-run report window,
// 1024-record command buffers, kernels inline (one worker).
type Config struct {
	// FixedStep is the fixed step in seconds, in [MinFixedStep,
	// MaxFixedStep]; 0 means 1/60 s. The accumulator counts
	// whole nanoseconds, with the step truncated to the nanosecond (so that
	// a delta of k steps runs k ticks).
	FixedStep float64
	// MaxTicksPerFrame caps the fixed ticks of one frame in Accumulate
	// pacing, 1..MaxTicksPerFrameLimit; 0 means 8.
	MaxTicksPerFrame int
	// Pacing is Accumulate (the zero value) or OneTickPerFrame.
	Pacing Pacing
	// ReportWindow is the number of runs per system the rolling statistics
	// cover, 1..MaxReportWindow; 0 means 128.
	ReportWindow int
	// ExactAllocs makes FrameReport.AllocBytes and AllocObjects exact, at
	// the cost of two runtime.ReadMemStats (two stops of the world) a
	// frame; false reads runtime/metrics (see FrameReport.AllocBytes).
	ExactAllocs bool
	// CommandRecords is the initial capacity of each command buffer in
	// records, 1..MaxCommandRecords (see package commands); 0 means
	// DefaultCommandRecords.
	CommandRecords int
	// Pool runs parallel kernels; nil runs them inline, one worker. The
	// scheduler does not own it: whoever made it closes it.
	Pool *kernels.Pool
	// Budget is charged with the command buffers' initial reservations
	// (commands.Playback.NewBuffer); nil gives the scheduler's playback a
	// private budget of memory.DefaultBudget bytes. A runtime world passes
	// its own.
	Budget *memory.Budget
}

// entry is one registered system.
type entry struct {
	dbg    debugEntry     // the debug build's checks (debug_on.go); empty otherwise
	sys    systems.System // Before and After include the declaration's and hooks' constraints
	man    frame.Manifest
	run    *frame.Run
	report int         // index in FrameReport.Systems
	syncs  []indexSync // index syncs owed after each run (index.go)
}

// Scheduler orders systems into phases, refuses hidden data races, and runs
// frames: the systems of each phase one after another in sealed order, the
// fixed-step clock, command playback and event boundaries, and the frame
// report. See the package doc for the frame path.
//
// Life cycle: New, then Add, AddEvents and Hook, then Seal once, then Frame
// once per frame. Not safe for concurrent use: one goroutine drives it
// (systems' kernels run on the pool inside Frame).
type Scheduler struct {
	cfg      Config      // defaults applied
	sysErr   SystemError // the error of the last failed frame (runPhase), reused
	entries  []*entry
	byName   map[string]*entry // set-up only
	hooks    []func(*Hook) error
	hooksRan bool
	extra    []events.Buffer
	sealed   bool
	running  atomic.Bool // a Frame is running: Frame takes it by compare-and-swap, so a call from another goroutine is refused without a data race
	poisoned bool        // a frame began and did not complete (a panic escaped it): Frame refuses to go on

	phases   [systems.NumPhases][]*entry
	events   []events.Buffer
	eventOps []plumb.Events // the engine's side of events, index for index
	env      *frame.Env
	playback *commands.Playback
	pbOps    plumb.Playback // the playback's snapshot side
	clock    clock
	report   FrameReport
	bufs     []*commands.Buffer // playback scratch
	meter    allocMeter
	upkeep   systems.IndexUpkeep   // the world's indexes, nil without any (index.go)
	subs     []systems.Subscriber  // the world's subscriptions, synced at the frame's end (subscribe.go)
	idxErr   error                 // the frame's first index error of a playback's or the host's sync
	versions []*ephemeral.Versions // tracked columns and added rows the manifests name (changes.go)
}

// New returns an unsealed scheduler. It returns a *ConfigError (errors.Is
// ErrConfig) for the first field out of range. It allocates; call it at
// set-up.
func New(cfg Config) (*Scheduler, error) {
	if cfg.FixedStep == 0 {
		cfg.FixedStep = defaultFixedStep
	}
	if !(cfg.FixedStep >= MinFixedStep && cfg.FixedStep <= MaxFixedStep) {
		return nil, &ConfigError{Field: "FixedStep", Value: strconv.FormatFloat(cfg.FixedStep, 'g', -1, 64) + " s",
			Reason: "want seconds in [MinFixedStep, MaxFixedStep] = [1e-06, 60]"}
	}
	if cfg.MaxTicksPerFrame == 0 {
		cfg.MaxTicksPerFrame = defaultMaxTicksPerFrame
	}
	if cfg.MaxTicksPerFrame < 1 || cfg.MaxTicksPerFrame > MaxTicksPerFrameLimit {
		return nil, &ConfigError{Field: "MaxTicksPerFrame", Value: itoa(cfg.MaxTicksPerFrame),
			Reason: "want 1..MaxTicksPerFrameLimit (65536) ticks"}
	}
	if cfg.Pacing > OneTickPerFrame {
		return nil, &ConfigError{Field: "Pacing", Value: cfg.Pacing.String(), Reason: "want Accumulate or OneTickPerFrame"}
	}
	if cfg.ReportWindow == 0 {
		cfg.ReportWindow = defaultReportWindow
	}
	if cfg.ReportWindow < 1 || cfg.ReportWindow > MaxReportWindow {
		return nil, &ConfigError{Field: "ReportWindow", Value: itoa(cfg.ReportWindow),
			Reason: "want 1..MaxReportWindow (65536) runs"}
	}
	if cfg.CommandRecords == 0 {
		cfg.CommandRecords = DefaultCommandRecords
	}
	if cfg.CommandRecords < 1 || cfg.CommandRecords > MaxCommandRecords {
		return nil, &ConfigError{Field: "CommandRecords", Value: itoa(cfg.CommandRecords),
			Reason: "want 1..MaxCommandRecords (16777216) records"}
	}
	s := &Scheduler{
		cfg:      cfg,
		byName:   make(map[string]*entry),
		playback: commands.NewPlayback(cfg.Budget),
		meter:    newAllocMeter(cfg.ExactAllocs),
	}
	s.pbOps = plumb.PlaybackOf(s.playback)
	s.clock = clock{pacing: cfg.Pacing, maxTicks: cfg.MaxTicksPerFrame, t: Time{Step: time.Duration(stepNanos(cfg.FixedStep))}}
	return s, nil
}

// Add registers a system and runs its declaration (its DeclareFunc, once):
// the system is copied, with the constraints of the declaration added. It
// returns the declaration's *systems.DefinitionError, or an error after
// Seal ("already sealed"). Duplicate names, unknown constraint names and conflicts are
// reported by Seal. It allocates: set-up only.
func (s *Scheduler) Add(sys systems.System) error {
	if s.sealed {
		return errSealed
	}
	run := &frame.Run{}
	d, err := frame.Declare(sys, run)
	if err != nil {
		return err
	}
	sys.Before, sys.After = d.Before, d.After
	e := &entry{sys: sys, man: d.Manifest, run: run}
	s.entries = append(s.entries, e)
	if _, dup := s.byName[sys.Name]; !dup {
		s.byName[sys.Name] = e
	}
	return nil
}

// AddEvents registers event tables whose frame boundary (EndFrame) and drop
// counts the scheduler handles. Tables that a manifest emits or consumes
// are registered at Seal without it; registering one twice is harmless. It
// returns an error after Seal ("already sealed"), and one ("nil event
// table"), registering none of bufs,
// when one is nil or a typed nil (a nil *events.Table[T], what a failed
// events.New returns). It uses reflect: call it at set-up.
func (s *Scheduler) AddEvents(bufs ...events.Buffer) error {
	if s.sealed {
		return errSealed
	}
	for _, b := range bufs {
		if nilBuffer(b) {
			return errNilEvents
		}
	}
	s.extra = append(s.extra, bufs...)
	return nil
}

// Hook registers fn to run once at Seal, after every system is registered
// and before the graph is built: fn may look systems up, order systems
// against each other, add systems and substitute implementations (see
// Hook). Hooks run in registration order; an error stops Seal with a
// *HookError. It returns an error after Seal ("already sealed"), and ErrNilHook (registering
// nothing) for a nil fn.
func (s *Scheduler) Hook(fn func(h *Hook) error) error {
	if s.sealed {
		return errSealed
	}
	if fn == nil {
		return ErrNilHook
	}
	s.hooks = append(s.hooks, fn)
	return nil
}

// Running reports whether a Frame is running: true when called from a
// system during Frame, false between frames (also after a system's panic
// unwound Frame). A host that owns resources the systems use (such as the
// kernel pool) checks it before releasing them. Call it from the goroutine
// that drives the scheduler.
func (s *Scheduler) Running() bool { return s.running.Load() }

// RunningFlag is the flag Running reads, for ephemeral.Domain.SetGuard:
// the world guards its domains with it, so that the host's structural
// changes during a frame are refused with one atomic load. Only the
// scheduler stores it.
func (s *Scheduler) RunningFlag() *atomic.Bool { return &s.running }

// Poisoned reports whether a panic escaped a frame (a system's, a kernel's,
// a playback's) and left it unfinished: from then on Frame returns
// ErrPoisoned, and the tables, events and resources hold a half-run frame
// that no snapshot may carry on (runtime refuses Snapshot and Restore).
// False while a frame runs. Call it from the goroutine that drives the
// scheduler.
func (s *Scheduler) Poisoned() bool { return s.poisoned && !s.running.Load() }

// Order returns the names of phase p's systems in sealed (running) order,
// or nil before Seal. It allocates. Call it from the goroutine that drives the scheduler.
func (s *Scheduler) Order(p systems.Phase) []string {
	if !s.sealed || !p.Valid() {
		return nil
	}
	out := make([]string, len(s.phases[p]))
	for i, e := range s.phases[p] {
		out[i] = e.sys.Name
	}
	return out
}

// Events returns the event tables the scheduler ends at each frame boundary
// (AddEvents' first, then those the manifests name, each once), or nil
// before Seal. The slice is the scheduler's own: do not modify it. Call it from the goroutine that drives the scheduler.
func (s *Scheduler) Events() []events.Buffer { return s.events }

// Resolve maps a provisional handle of a played-back create to its row's
// handle (commands.Playback.Resolve); other nonzero handles come back as
// they are, with true. It returns false for a create not played yet,
// failed or released (docs/architecture.md, Provisional handles).
// Allocates nothing. Not safe while Frame runs on another goroutine.
func (s *Scheduler) Resolve(h ephemeral.Handle) (ephemeral.Handle, bool) {
	return s.playback.Resolve(h)
}

// Time returns the fixed-step clock's account (see Time), a copy. Call it from the goroutine that drives the scheduler.
func (s *Scheduler) Time() Time { return s.clock.t }

// Frames is the number of frames run, failed ones included (also the
// number of the next frame). Frames refused with a *DeltaError do not count.
// Call it from the goroutine that drives the scheduler.
func (s *Scheduler) Frames() uint64 { return s.clock.t.Frames }

// Report returns the report of the last completed frame (a failed one
// included), or nil before Seal and before the first frame. The report is
// the scheduler's own and is overwritten by the next Frame: copy what must
// outlive it. The rolling statistics are computed on the first call after
// a frame, in preallocated scratch: Report allocates nothing. Not safe
// while Frame runs on another goroutine.
func (s *Scheduler) Report() *FrameReport {
	if !s.sealed || s.clock.t.Frames == 0 {
		return nil
	}
	s.report.finish()
	return &s.report
}

// nilBuffer reports whether b is nil or holds a nil pointer (a typed nil,
// such as the nil *events.Table[int] a failed events.New returns). It uses
// reflect: set-up only.
func nilBuffer(b events.Buffer) bool {
	if b == nil {
		return true
	}
	v := reflect.ValueOf(b)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
