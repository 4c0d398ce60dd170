package runtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"hash/fnv"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/internal/wire"
	"github.com/tickwork/tickwork/memory"
)

// The snapshot format (docs/state.md, "Format"): a 40-byte header, then
// one section per part of the world, each a little-endian uint64 length
// and that many bytes, the host configuration's first.
const (
	// SnapshotVersion is the format version Snapshot writes and the only
	// one Restore reads. It changes whenever the layout of any section
	// changes (docs/state.md, "Version rule").
	// Exported for tools that read a snapshot's header (docs/state.md,
	// "Format").
	SnapshotVersion = 2
	// SnapshotHeader is the header's length in bytes.
	// Exported for tools that read a snapshot's header.
	SnapshotHeader = 40
)

// snapshotMagic opens every snapshot.
var snapshotMagic = [8]byte{'T', 'I', 'C', 'K', 'S', 'N', 'A', 'P'}

// crcTable is CRC-32C (Castagnoli): hash/crc32 runs it with the SSE4.2
// CRC32 instruction on amd64 and the CRC32C instructions on arm64, faster
// than CRC-32 (IEEE) on amd64 (docs/benchmarks.md, "Snapshots and
// rollback").
var crcTable = crc32.MakeTable(crc32.Castagnoli)

// checksum is the CRC-32C of a snapshot: its payload, then its header past
// the checksum field.
func checksum(snap []byte) uint32 {
	return crc32.Update(crc32.Update(0, crcTable, snap[SnapshotHeader:]), crcTable, snap[16:SnapshotHeader])
}

// Sentinel errors of Snapshot and Restore; each also matches ErrSnapshot.
var (
	// ErrSnapshot matches every *SnapshotError.
	ErrSnapshot = errors.New("runtime: snapshot")
	// ErrTruncated: the input ends before the snapshot it starts does.
	ErrTruncated = errors.New("snapshot truncated")
	// ErrCorrupt: not a snapshot, a checksum that does not match, or a
	// section that is no state of this world (a *SnapshotError naming it,
	// wrapping the engine package's error).
	ErrCorrupt = errors.New("snapshot corrupted")
	// ErrVersion: a snapshot of another format version (SnapshotVersion).
	ErrVersion = errors.New("snapshot of another format version")
	// ErrOtherWorld: a snapshot of a world with other declarations (its
	// fingerprint differs: World.Fingerprint).
	ErrOtherWorld = errors.New("snapshot of another world")
	// ErrUnsupported: a world a snapshot cannot hold: an event table of a
	// pointer-holding type, or a resource that holds pointers and provides
	// no codec (docs/state.md), or a big-endian machine; or a state past
	// its declared sizes (a slice resource outside its lengths, more than
	// the state allowance: WithStateAllowance); or, from Restore, a
	// snapshot whose state beyond the declared sizes the memory budget
	// does not hold (Cause is the *memory.BudgetError).
	ErrUnsupported = errors.New("world cannot be snapshot")
	// ErrHostConfig: an intact snapshot of a world whose host
	// configuration (WithHostConfig) is other bytes; Cause is a
	// *HostConfigError holding both.
	ErrHostConfig = errors.New("snapshot of another host configuration")
)

// HostConfigError is the Cause of a Restore refused because the
// snapshot's host section (Saved) is not the world's host configuration
// (Want, WithHostConfig): the host decodes both to say which parameter
// differs. Both are copies.
type HostConfigError struct {
	Saved, Want []byte
}

func (e *HostConfigError) Error() string {
	return "saved with a host configuration of " + strconv.Itoa(len(e.Saved)) + " bytes that differs from this world's (" +
		strconv.Itoa(len(e.Want)) + " bytes; WithHostConfig)"
}

// SnapshotError reports a refused Snapshot or Restore: Err is one of the
// sentinels above, Section the part of the world at fault ("header",
// "scheduler", "domain Actors", "events HitEvent", "resource rng"), Cause
// the engine package's error (ephemeral.ErrState, events.ErrState,
// scheduler.ErrState, systems.ErrResourceState), if any. errors.Is matches
// Err, ErrSnapshot and Cause's chain.
type SnapshotError struct {
	Err     error
	Section string
	Detail  string
	Cause   error
}

func (e *SnapshotError) Error() string {
	s := "runtime: " + e.Err.Error()
	if e.Section != "" {
		s += " (" + e.Section + ")"
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

// Is reports whether target is Err or ErrSnapshot.
func (e *SnapshotError) Is(target error) bool { return target == e.Err || target == ErrSnapshot }

// Unwrap returns Cause.
func (e *SnapshotError) Unwrap() error { return e.Cause }

// worldState is what a World's snapshots hold, fixed at Build.
type worldState struct {
	sched       plumb.Scheduler
	domains     []*ephemeral.Domain
	domainOps   []plumb.Domain
	events      []plumb.Events
	eventNames  []string
	resources   []plumb.Resource
	fingerprint uint64
	desc        string
	err         error         // why a snapshot cannot hold the world, nil when it can
	sections    [][]byte      // split's: each part's section of the snapshot at hand
	offsets     []int         // and where in the payload it starts
	host        []byte        // the host configuration (WithHostConfig), the first section
	parts       []plumb.State // in section order
	// Sizes (docs/state.md, "Sizes"): each section's declared size, whether
	// that bounds it (else the section may exceed it by what is left of
	// the allowance), the allowance, and what split found beyond the
	// declared sizes. held is the most of that the world held so far
	// (at Build, or charged to the budget by a Restore).
	max     []int
	bounded []bool
	allow   int
	excess  int
	held    int
}

// newWorldState lists the parts of the world in their snapshot order and
// computes the fingerprint. Set-up only.
func (w *World) newWorldState(doms []*ephemeral.Domain, res []frame.Resource, host []byte, allow int) *worldState {
	st := &worldState{host: host, allow: allow}
	seen := map[*ephemeral.Domain]bool{}
	add := func(d *ephemeral.Domain) {
		if !seen[d] {
			seen[d] = true
			st.domains = append(st.domains, d)
		}
	}
	for _, d := range doms {
		add(d)
	}
	for _, t := range w.tables {
		add(t.Domain())
	}
	if !wire.LittleEndian {
		st.err = &SnapshotError{Err: ErrUnsupported, Detail: "the snapshot format is little-endian; this machine is not"}
	}
	st.sched = plumb.SchedulerOf(w.sched)
	desc := st.sched.Describe(nil)
	for _, d := range st.domains {
		ops := plumb.DomainOf(d)
		st.domainOps = append(st.domainOps, ops)
		desc = ops.Describe(desc)
	}
	for _, b := range w.sched.Events() {
		name := "events " + b.Name()
		if s, ok := statePart(st, b, plumb.EventsOf, name, "an *events.Table"); ok {
			st.events = append(st.events, s)
			st.eventNames = append(st.eventNames, name)
			desc = s.Describe(desc)
		}
	}
	for _, r := range res {
		if s, ok := statePart(st, r, plumb.ResourceOf, "resource "+r.Name(), "a *systems.Resource"); ok {
			st.resources = append(st.resources, s)
			desc = s.Describe(desc)
		}
	}
	h := fnv.New64a()
	h.Write(desc)
	st.fingerprint, st.desc = h.Sum64(), string(desc)
	st.sections = make([][]byte, 2+len(st.domains)+len(st.events)+len(st.resources))
	st.offsets = make([]int, len(st.sections))
	st.max, st.bounded = make([]int, len(st.sections)), make([]bool, len(st.sections))
	st.parts = append(st.parts, &hostPart{st.host}, st.sched)
	for _, d := range st.domainOps {
		st.parts = append(st.parts, d)
	}
	for _, e := range st.events {
		st.parts = append(st.parts, e)
	}
	for _, r := range st.resources {
		st.parts = append(st.parts, r)
	}
	for k := range st.sections {
		st.max[k], st.bounded[k] = st.part(k).StateMax()
		if !st.bounded[k] {
			st.held += max(0, st.part(k).StateSize()-st.max[k])
		}
	}
	return st
}

// hostPart is the host configuration as a part of the world: its section
// is the bytes, and only they.
type hostPart struct{ b []byte }

func (h *hostPart) AppendState(dst []byte) ([]byte, error) { return append(dst, h.b...), nil }
func (h *hostPart) CheckState(src []byte) error {
	if !bytes.Equal(src, h.b) {
		return &HostConfigError{Saved: bytes.Clone(src), Want: bytes.Clone(h.b)}
	}
	return nil
}
func (h *hostPart) Describe(dst []byte) []byte { return dst }
func (h *hostPart) StateSize() int             { return len(h.b) }
func (h *hostPart) StateMax() (int, bool)      { return len(h.b), false } // another length is ErrHostConfig, not a size error

// part is the snapshot side of part k: the host configuration, the
// scheduler, the domains, the event tables, the resources.
func (st *worldState) part(k int) plumb.State { return st.parts[k] }

// sizeErr checks the length of part k's section against its declared size
// and what is left of the allowance (excess is what the sections before
// it hold beyond theirs); it returns the new excess, or the error (err
// is ErrCorrupt for Restore, ErrUnsupported for Snapshot) naming the
// section. It allocates only its error.
func (st *worldState) sizeErr(k, n, excess int, err error) (int, error) {
	m := st.max[k]
	if n <= m {
		return excess, nil
	}
	if st.bounded[k] {
		return excess, &SnapshotError{Err: err, Section: st.sectionName(k),
			Detail: "section of " + strconv.Itoa(n) + " bytes, its declarations allow at most " + strconv.Itoa(m)}
	}
	if k == hostSection { // other bytes are Restore's ErrHostConfig; too many are corruption
		if n > MaxHostConfig {
			return excess, &SnapshotError{Err: err, Section: st.sectionName(k),
				Detail: "section of " + strconv.Itoa(n) + " bytes, past MaxHostConfig (" + strconv.Itoa(MaxHostConfig) + ")"}
		}
		return excess, nil
	}
	excess += n - m
	if excess > st.allow {
		return excess, &SnapshotError{Err: err, Section: st.sectionName(k),
			Detail: "section of " + strconv.Itoa(n) + " bytes takes the state past its declared sizes by " + strconv.Itoa(excess) +
				" bytes, more than the world's state allowance of " + strconv.Itoa(st.allow) + " (WithStateAllowance)"}
	}
	return excess, nil
}

// sizeNow is the length of the world's snapshot now, computed without
// taking it; maxSize the largest Restore accepts. Allocate nothing (but
// a codec resource's encoding into its kept buffer).
func (st *worldState) sizeNow() int {
	n := SnapshotHeader + 8*len(st.sections)
	for k := range st.sections {
		n += st.part(k).StateSize()
	}
	return n
}

func (st *worldState) maxSize() int {
	n := SnapshotHeader + 8*len(st.sections) + st.allow + MaxHostConfig - st.max[hostSection] // any host configuration's
	for _, m := range st.max {
		n += m
	}
	return n
}

// statePart is part's snapshot face S, false when part has none (section
// names it, "not " + want); a part without a face, or whose face cannot be
// snapshot, records its reason in st.err unless an earlier reason is
// there (the first reason wins). Set-up only.
func statePart[S interface {
	Snapshottable() error
	Describe(dst []byte) []byte
}](st *worldState, part any, face func(any) (S, bool), section, want string) (S, bool) {
	s, ok := face(part)
	if !ok {
		if st.err == nil {
			st.err = &SnapshotError{Err: ErrUnsupported, Section: section, Detail: "not " + want}
		}
		return s, false
	}
	if err := s.Snapshottable(); err != nil && st.err == nil {
		st.err = &SnapshotError{Err: ErrUnsupported, Section: section, Cause: err}
	}
	return s, true
}

// Fingerprint is the hash (FNV-1a 64) of the world's declarations that
// opens its snapshots: the clock's step, pacing and tick cap, the number
// of serial command buffers and per-worker sets (not of workers), every
// domain, table and column (names, capacities, chunk rows, element types
// by their layout, not their import path: docs/state.md, and sizes),
// every event table (name, lifetime, capacity, type, readers) and every
// resource (name, type, encoding), as a uint64. Worlds built alike
// share it. Fixed at Build; safe for concurrent use.
func (w *World) Fingerprint() uint64 { return w.made().state.fingerprint }

// Declarations is the text Fingerprint hashes, a line per declaration,
// for telling two worlds apart. Safe for concurrent use.
func (w *World) Declarations() string { return w.made().state.desc }

// SnapshotSize is the length Snapshot would append now, in bytes; the
// event tables' held events, the pending resolutions and slice or codec
// resources make it vary between frames. It computes it from each part's
// size, taking no snapshot: it allocates nothing, but a codec resource
// encodes its value into a buffer the resource keeps (which allocates
// when that buffer grows, and what the codec allocates). It returns
// ErrZeroWorld, ErrClosed, ErrRunning or the *SnapshotError of a world a
// snapshot cannot hold. Call it between frames, from the goroutine that
// calls Frame.
func (w *World) SnapshotSize() (int, error) {
	if err := w.ready(errRunningSnapshot); err != nil {
		return 0, err
	}
	return w.state.sizeNow(), nil
}

// MaxSnapshotSize is the largest snapshot Restore accepts, in bytes, from
// the declarations alone (docs/state.md, "Sizes"): the header, every
// section's length word and declared size (a domain's tables and columns
// for their whole capacity, an event table's capacity, a raw resource's
// size, a slice resource's declared maxLen, MaxHostConfig for the host
// configuration), and the state allowance (WithStateAllowance) for the
// parts without a declared bound. Fixed at Build; allocates nothing; safe
// for concurrent use.
func (w *World) MaxSnapshotSize() int { return w.made().state.maxSize() }

// HostConfig is the world's host configuration (WithHostConfig), the
// world's own bytes: do not modify them. Safe for concurrent use.
func (w *World) HostConfig() []byte { return w.made().state.host }

// Snapshot appends the world's state to dst and returns it
// (docs/state.md): the header (format version, Fingerprint, payload
// length and CRC-32C), then the scheduler's clock and pending resolutions,
// each domain with its tables and columns, each event table's held events
// and readers, each resource. It allocates nothing once dst has room
// (what a resource's codec allocates aside). It returns, with dst as it
// was, ErrZeroWorld, ErrClosed, ErrRunning while a frame runs, an error
// matching scheduler.ErrPoisoned and ErrSnapshot after a panic poisoned
// the world (docs/state.md, "Not of a poisoned world"), or a
// *SnapshotError (errors.Is ErrUnsupported) for a world a snapshot cannot
// hold. Call it between frames, from the goroutine that calls Frame.
func (w *World) Snapshot(dst []byte) ([]byte, error) {
	if err := w.ready(errRunningSnapshot); err != nil {
		return dst, err
	}
	return w.snapshot(dst, true)
}

// ready is nil when a snapshot can be taken or restored now, else the
// error: ErrZeroWorld, ErrClosed, running (the call's ErrRunning), the
// call's refusal of a poisoned world (errors.Is scheduler.ErrPoisoned and
// ErrSnapshot) or the *SnapshotError of a world a snapshot cannot hold.
func (w *World) ready(running *callError) error {
	if w == nil || w.sched == nil {
		return ErrZeroWorld
	}
	if w.closed {
		return ErrClosed
	}
	if w.sched.Running() {
		return running
	}
	if w.sched.Poisoned() {
		return running.poisoned
	}
	return w.state.err
}

// snapshot is Snapshot once ready said yes; without sum the checksum
// field stays 0 (a Rollback's snapshots, which never leave it, skip the
// pass).
func (w *World) snapshot(dst []byte, sum bool) ([]byte, error) {
	st := w.state
	start := len(dst)
	dst = append(dst, make([]byte, SnapshotHeader)...)
	var crc uint32
	excess := 0
	for k := range st.sections {
		at := len(dst)
		dst = wire.U64(dst, 0)
		var err error
		if dst, err = st.part(k).AppendState(dst); err != nil {
			return dst[:start], &SnapshotError{Err: ErrUnsupported, Section: st.sectionName(k), Cause: err}
		}
		if excess, err = st.sizeErr(k, len(dst)-at-8, excess, ErrUnsupported); err != nil {
			return dst[:start], err
		}
		binary.LittleEndian.PutUint64(dst[at:], uint64(len(dst)-at-8))
		if sum { // section by section, while it is in cache
			crc = crc32.Update(crc, crcTable, dst[at:])
		}
	}
	h := dst[start : start+SnapshotHeader]
	copy(h, snapshotMagic[:])
	binary.LittleEndian.PutUint32(h[8:], SnapshotVersion)
	binary.LittleEndian.PutUint64(h[16:], st.fingerprint)
	binary.LittleEndian.PutUint64(h[24:], uint64(len(dst)-start-SnapshotHeader))
	binary.LittleEndian.PutUint32(h[32:], uint32(len(st.sections)))
	if sum {
		binary.LittleEndian.PutUint32(h[12:], crc32.Update(crc, crcTable, h[16:])) // = checksum(dst[start:])
	}
	return dst, nil
}

// Restore makes the world hold the state of src, a snapshot of a world
// declared alike (Snapshot; the same Fingerprint), as it was when src was
// taken: rows, handles and free slots (so creates hand out the handles
// they would have then), column values, held events and every reader's
// position, pending resolutions of provisional handles, the clock, and
// the resources. Handles keep their 64-bit values: the world takes the
// snapshot's domain and playback tags (docs/state.md).
//
// Everything is checked before anything changes: a refused src leaves the
// world exactly as it was and returns a *SnapshotError, errors.Is
// ErrTruncated (src ends early), ErrVersion, ErrCorrupt (not a snapshot, a
// checksum mismatch, trailing bytes, or a section that is no state of this
// world: the error names it and wraps the engine package's error),
// ErrOtherWorld (another fingerprint), ErrHostConfig (an intact snapshot
// whose host section is not WithHostConfig's bytes: the Cause, a
// *HostConfigError, holds both) or ErrUnsupported (state beyond the
// declared sizes the memory budget does not hold); or ErrZeroWorld,
// ErrClosed, ErrRunning, or the poisoned world's refusal (as Snapshot). A section longer than its part's declarations
// allow, or sections that together exceed them by more than the state
// allowance, are ErrCorrupt naming the section, whatever the checksum
// says (docs/state.md, "Sizes"); what a snapshot holds beyond the
// declared sizes is charged to the world's memory budget (kind "restored
// state") when it is more than the world held so far. One failure can follow the checks: a resource
// codec whose UnmarshalBinary refuses bytes it accepted when checked (a
// codec that is not deterministic, a contract breach) leaves the resources
// after it as they were. It allocates nothing once the world has restored
// a snapshot as large (a slice resource that outgrows its backing array,
// pending resolutions past their room, a codec's scratch value allocate).
// Call it between frames, from the goroutine that calls Frame.
func (w *World) Restore(src []byte) error {
	if err := w.ready(errRunningRestore); err != nil {
		return err
	}
	return w.restore(src, true)
}

// restore is Restore once ready said yes; unchecked, it skips the
// checksum and the state checks, for a Rollback's own snapshots (taken by
// this world's snapshot, held where nothing else writes).
func (w *World) restore(src []byte, checked bool) error {
	st := w.state
	if err := st.split(src); err != nil {
		return err
	}
	if checked {
		// Section by section: the checksum, then the part's check while the
		// section is in cache. A checksum mismatch wins over a check's error.
		var crc uint32
		var first error
		for k, sec := range st.sections {
			crc = crc32.Update(crc32.Update(crc, crcTable, src[SnapshotHeader+st.offsets[k]-8:SnapshotHeader+st.offsets[k]]), crcTable, sec)
			if first == nil {
				first = w.check(k)
			}
		}
		if crc32.Update(crc, crcTable, src[16:SnapshotHeader]) != binary.LittleEndian.Uint32(src[12:]) {
			return &SnapshotError{Err: ErrCorrupt, Section: "header", Detail: "checksum mismatch"}
		}
		if err := st.parts[hostSection].CheckState(st.sections[hostSection]); err != nil {
			return &SnapshotError{Err: ErrHostConfig, Section: st.sectionName(hostSection), Cause: err}
		}
		if first != nil {
			return first
		}
		if st.excess > st.held {
			if err := w.budget.Charge(memory.Definition{Kind: "restored state", Name: "Restore"}, int64(st.excess-st.held)); err != nil {
				return &SnapshotError{Err: ErrUnsupported, Section: "header",
					Detail: strconv.Itoa(st.excess) + " bytes beyond the declared sizes", Cause: err}
			}
			st.held = st.excess
		}
	}
	// Every part accepted its section: now change the world.
	if checked {
		w.restores++ // another history: a Rollback forgets its own
	}
	st.sched.LoadState(st.sections[1])
	k := 2
	for _, d := range st.domainOps {
		d.LoadState(st.sections[k])
		k++
	}
	for _, e := range st.events {
		e.LoadState(st.sections[k])
		k++
	}
	for _, r := range st.resources {
		if err := r.LoadState(st.sections[k]); err != nil {
			return corrupt("resource "+r.Name(), err)
		}
		k++
	}
	// Change versions are not state either: every restored row counts as
	// changed and added (docs/architecture.md, Change detection).
	w.sched.MarkAllChanged()
	// Indexes are not state: they are rebuilt from the restored rows
	// (docs/architecture.md, Indexes).
	return w.rebuildIndexes()
}

// check runs part k's state check on its section (split cut them).
func (w *World) check(k int) error {
	st := w.state
	sec := st.sections[k]
	if k == hostSection {
		return nil // restore compares it
	}
	if err := st.part(k).CheckState(sec); err != nil {
		return corrupt(st.sectionName(k), err)
	}
	return nil
}

// sectionName names part k in errors. It allocates.
func (st *worldState) sectionName(k int) string {
	switch k {
	case hostSection:
		return "host configuration"
	case 1:
		return "scheduler"
	}
	if k -= 2; k < len(st.domains) {
		return "domain " + st.domains[k].Name()
	}
	if k -= len(st.domains); k < len(st.events) {
		return st.eventNames[k]
	}
	return "resource " + st.resources[k-len(st.events)].Name()
}

// hostSection is the host configuration's section, the first.
const hostSection = 0

func corrupt(section string, err error) error {
	return &SnapshotError{Err: ErrCorrupt, Section: section, Cause: err}
}

// split checks src's header and checksum and cuts its payload into
// st.sections (aliasing src). It allocates only its error.
func (st *worldState) split(src []byte) error {
	head := func(e error, d string) error { return &SnapshotError{Err: e, Section: "header", Detail: d} }
	if len(src) < SnapshotHeader {
		if len(src) >= 8 && [8]byte(src[:8]) != snapshotMagic {
			return head(ErrCorrupt, "not a Tickwork snapshot")
		}
		return head(ErrTruncated, strconv.Itoa(len(src))+" bytes, shorter than the header")
	}
	if [8]byte(src[:8]) != snapshotMagic {
		return head(ErrCorrupt, "not a Tickwork snapshot")
	}
	if v := binary.LittleEndian.Uint32(src[8:]); v != SnapshotVersion {
		return head(ErrVersion, "version "+strconv.FormatUint(uint64(v), 10)+", this build reads "+strconv.Itoa(SnapshotVersion))
	}
	n := binary.LittleEndian.Uint64(src[24:])
	if m := uint64(st.maxSize() - SnapshotHeader); n > m {
		return head(ErrCorrupt, "payload length "+strconv.FormatUint(n, 10)+", past the "+strconv.FormatUint(m, 10)+
			" this world's declarations and state allowance can produce (World.MaxSnapshotSize)")
	}
	if n > uint64(len(src)-SnapshotHeader) {
		return head(ErrTruncated, strconv.Itoa(len(src)-SnapshotHeader)+" payload bytes of "+strconv.FormatUint(n, 10))
	}
	if n < uint64(len(src)-SnapshotHeader) {
		return head(ErrCorrupt, strconv.FormatUint(uint64(len(src)-SnapshotHeader)-n, 10)+" bytes after the snapshot")
	}
	payload := src[SnapshotHeader:]
	// Another world's snapshot: refused once the checksum says it is one
	// intact (a damaged fingerprint is corruption, not another world).
	other := error(nil)
	if fp := binary.LittleEndian.Uint64(src[16:]); fp != st.fingerprint {
		other = head(ErrOtherWorld, "fingerprint "+strconv.FormatUint(fp, 16)+", this world's is "+strconv.FormatUint(st.fingerprint, 16)+
			" (World.Declarations lists what it hashes)")
	} else if c := binary.LittleEndian.Uint32(src[32:]); c != uint32(len(st.sections)) {
		other = head(ErrCorrupt, strconv.FormatUint(uint64(c), 10)+" sections, this world has "+strconv.Itoa(len(st.sections)))
	} else if z := binary.LittleEndian.Uint32(src[36:]); z != 0 {
		other = head(ErrCorrupt, "reserved field (bytes 36-39) is "+strconv.FormatUint(uint64(z), 10)+", not zero")
	}
	if other != nil {
		if checksum(src) != binary.LittleEndian.Uint32(src[12:]) {
			return head(ErrCorrupt, "checksum mismatch")
		}
		// An intact snapshot of another host configuration says so first:
		// the host can name the parameter (units that change the
		// declarations too, say).
		r := wire.Reader{B: payload}
		if h := r.Next(r.U64()); !r.Bad {
			if err := st.parts[hostSection].CheckState(h); err != nil {
				return &SnapshotError{Err: ErrHostConfig, Section: st.sectionName(hostSection), Detail: "its header differs too, " + other.(*SnapshotError).Detail, Cause: err}
			}
		}
		return other
	}
	r := wire.Reader{B: payload}
	excess := 0
	for i := range st.sections {
		l := r.U64()
		st.offsets[i] = len(payload) - len(r.B)
		st.sections[i] = r.Next(l)
		if r.Bad {
			return head(ErrCorrupt, "section "+strconv.Itoa(i)+" ("+st.sectionName(i)+") runs past the payload")
		}
		var err error
		if excess, err = st.sizeErr(i, len(st.sections[i]), excess, ErrCorrupt); err != nil {
			return err
		}
	}
	st.excess = excess
	if len(r.B) != 0 {
		return head(ErrCorrupt, strconv.Itoa(len(r.B))+" bytes after the last section")
	}
	return nil
}
