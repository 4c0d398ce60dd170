// Package plumb is the engine's side of its public types: what the
// scheduler and the snapshot call on event tables, resources, domains,
// the command playback and the scheduler, kept out of those types'
// exported method sets so that a user cannot call it (a user who calls an
// event table's BeginFrame breaks the delivery rule).
//
// Each owning package implements the interfaces below on an unexported
// type and registers, in its init, the function that returns that face for
// one of its values; the engine asks for the face once, at set-up
// ([EventsOf], [ResourceOf], [DomainOf], [PlaybackOf], [SchedulerOf]) and
// keeps it. A leaf: it imports nothing of Tickwork, so that every engine
// package can register here.
//
// Every method is the owner's, with its errors and its concurrency
// contract: see the owner's documentation and docs/state.md. Nothing here
// is part of any stable API.
package plumb

// State is the snapshot side shared by every part of a world
// (docs/state.md): its state appended to, and checked against, a snapshot
// section, and its line of the world's declarations.
type State interface {
	// AppendState appends the part's state to dst; an error (appending
	// nothing) for a part a snapshot cannot hold.
	AppendState(dst []byte) ([]byte, error)
	// CheckState reports why src is no state of the part; it reads src
	// only.
	CheckState(src []byte) error
	// Describe appends the part's line of a world's declarations.
	Describe(dst []byte) []byte
	// StateSize is the length AppendState would append now, in bytes,
	// computed without appending (a codec resource encodes into a
	// scratch it keeps).
	StateSize() int
	// StateMax is the largest section CheckState accepts, from the part's
	// declarations alone, in bytes; bounded is false when the part has a
	// variable part without a declared bound (pending resolutions, a
	// slice resource without declared lengths, a codec resource) and max
	// is then its fixed part only (docs/state.md, "Sizes").
	StateMax() (max int, bounded bool)
}

// Events is the scheduler's and the snapshot's side of an
// *events.Table[T]: the frame's boundaries, the drop count of the frame
// report, and the table's state.
type Events interface {
	// BeginFrame, BeginTick and EndFrame are the delivery boundaries
	// (docs/architecture.md, Events).
	BeginFrame()
	BeginTick()
	EndFrame()
	// TakeDropped returns the events lost since the last call and resets
	// the count; Overflowed is the table's *events.OverflowError when an
	// emit or merge was refused since then, else nil.
	TakeDropped() int64
	Overflowed() error
	// TakeUnread returns the ThisFrame events that ended a frame with no
	// reader since the last call and resets the count.
	TakeUnread() int64
	State
	// LoadState makes the table hold src (after CheckState; it panics on
	// a src CheckState refuses).
	LoadState(src []byte)
	// StateCap is the largest AppendState can append, in bytes.
	StateCap() int
	// Snapshottable is nil when a snapshot can hold the table, else why not.
	Snapshottable() error
}

// Resource is the snapshot side of a *systems.Resource[T].
type Resource interface {
	Name() string
	State
	// LoadState makes the value the one src encodes (after CheckState); an
	// error when a codec refuses src.
	LoadState(src []byte) error
	// Snapshottable is nil when a snapshot can hold the resource, else why
	// not.
	Snapshottable() error
}

// Domain is the snapshot and seal side of an *ephemeral.Domain.
type Domain interface {
	State
	// LoadState makes the domain and its tables hold src (after
	// CheckState; it panics on a src of the wrong size).
	LoadState(src []byte)
	// Seal fixes the domain's tables and columns; Sealed reports it.
	Seal()
	Sealed() bool
}

// Playback is the snapshot side of a *commands.Playback: the pending
// resolutions of provisional handles.
type Playback interface {
	State
	// LoadState makes the playback hold src (after CheckState; it panics
	// on a src CheckState refuses).
	LoadState(src []byte)
}

// Scheduler is the snapshot side of a *scheduler.Scheduler: its clock,
// counters and playback.
type Scheduler interface {
	State
	// LoadState makes the scheduler hold src (after CheckState; it panics
	// on a src CheckState refuses).
	LoadState(src []byte)
}

// The faces' makers, each set once by its owner's init.
var (
	eventsOf    func(any) (Events, bool)
	resourceOf  func(any) (Resource, bool)
	domainOf    func(any) Domain
	playbackOf  func(any) Playback
	schedulerOf func(any) Scheduler
)

// RegisterEvents is called by package events' init.
func RegisterEvents(f func(any) (Events, bool)) { eventsOf = f }

// RegisterResource is called by package systems' init.
func RegisterResource(f func(any) (Resource, bool)) { resourceOf = f }

// RegisterDomain is called by package ephemeral's init.
func RegisterDomain(f func(any) Domain) { domainOf = f }

// RegisterPlayback is called by package commands' init.
func RegisterPlayback(f func(any) Playback) { playbackOf = f }

// RegisterScheduler is called by package scheduler's init.
func RegisterScheduler(f func(any) Scheduler) { schedulerOf = f }

// EventsOf returns the engine's side of b, an *events.Table[T], and true;
// false for any other value. Set-up only: it allocates nothing, but keep
// the face.
func EventsOf(b any) (Events, bool) { return eventsOf(b) }

// ResourceOf returns the snapshot side of r, a *systems.Resource[T], and
// true; false for any other value.
func ResourceOf(r any) (Resource, bool) { return resourceOf(r) }

// DomainOf returns the engine's side of d, an *ephemeral.Domain (it panics
// for any other value).
func DomainOf(d any) Domain { return domainOf(d) }

// PlaybackOf returns the snapshot side of p, a *commands.Playback (it
// panics for any other value).
func PlaybackOf(p any) Playback { return playbackOf(p) }

// SchedulerOf returns the snapshot side of s, a *scheduler.Scheduler (it
// panics for any other value).
func SchedulerOf(s any) Scheduler { return schedulerOf(s) }
