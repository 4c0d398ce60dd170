package runtime

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"hash/fnv"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/internal/wire"
)

// The snapshot format (docs/state.md, "Format"): a 40-byte header, then
// one section per part of the world, each a little-endian uint64 length
// and that many bytes.
const (
	// SnapshotVersion is the format version Snapshot writes and the only
	// one Restore reads. It changes whenever the layout of any section
	// changes (docs/state.md, "Version rule").
	// Exported for tools that read a snapshot's header (docs/state.md,
	// "Format").
	SnapshotVersion = 1
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
	// no codec (docs/state.md), or a big-endian machine.
	ErrUnsupported = errors.New("world cannot be snapshot")
)

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
	err         error    // why a snapshot cannot hold the world, nil when it can
	sections    [][]byte // split's: each part's section of the snapshot at hand
	offsets     []int    // and where in the payload it starts
}

// newWorldState lists the parts of the world in their snapshot order and
// computes the fingerprint. Set-up only.
func (w *World) newWorldState(doms []*ephemeral.Domain, res []frame.Resource) *worldState {
	st := &worldState{}
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
	st.sections = make([][]byte, 1+len(st.domains)+len(st.events)+len(st.resources))
	st.offsets = make([]int, len(st.sections))
	return st
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
// resources make it vary between frames. It returns the *SnapshotError of
// a world a snapshot cannot hold. It allocates a scratch snapshot when the
// world has codec resources; call it at set-up.
func (w *World) SnapshotSize() (int, error) {
	b, err := w.Snapshot(nil)
	return len(b), err
}

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
	for k := range st.sections {
		at := len(dst)
		dst = wire.U64(dst, 0)
		var err error
		if dst, err = w.appendPart(k, dst); err != nil {
			return dst[:start], &SnapshotError{Err: ErrUnsupported, Section: st.sectionName(k), Cause: err}
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
// ErrOtherWorld (another fingerprint) or ErrUnsupported; or ErrZeroWorld,
// ErrClosed, ErrRunning, or the poisoned world's refusal (as Snapshot). One failure can follow the checks: a resource
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
		if first != nil {
			return first
		}
	}
	// Every part accepted its section: now change the world.
	if checked {
		w.restores++ // another history: a Rollback forgets its own
	}
	st.sched.LoadState(st.sections[0])
	k := 1
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
	return nil
}

// check runs part k's state check on its section (split cut them).
func (w *World) check(k int) error {
	st := w.state
	sec := st.sections[k]
	if k == 0 {
		if err := st.sched.CheckState(sec); err != nil {
			return corrupt("scheduler", err)
		}
		return nil
	}
	var err error
	switch i := k - 1; {
	case i < len(st.domains):
		err = st.domainOps[i].CheckState(sec)
	case i-len(st.domains) < len(st.events):
		err = st.events[i-len(st.domains)].CheckState(sec)
	default:
		err = st.resources[i-len(st.domains)-len(st.events)].CheckState(sec)
	}
	if err != nil {
		return corrupt(st.sectionName(k), err)
	}
	return nil
}

// appendPart appends the state of part k: the scheduler, then the
// domains, the event tables and the resources.
func (w *World) appendPart(k int, dst []byte) ([]byte, error) {
	st := w.state
	if k == 0 {
		return st.sched.AppendState(dst)
	}
	if k -= 1; k < len(st.domains) {
		return st.domainOps[k].AppendState(dst)
	}
	if k -= len(st.domains); k < len(st.events) {
		return st.events[k].AppendState(dst)
	}
	return st.resources[k-len(st.events)].AppendState(dst)
}

// sectionName names part k in errors. It allocates.
func (st *worldState) sectionName(k int) string {
	if k == 0 {
		return "scheduler"
	}
	if k -= 1; k < len(st.domains) {
		return "domain " + st.domains[k].Name()
	}
	if k -= len(st.domains); k < len(st.events) {
		return st.eventNames[k]
	}
	return "resource " + st.resources[k-len(st.events)].Name()
}

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
		return other
	}
	r := wire.Reader{B: payload}
	for i := range st.sections {
		l := r.U64()
		st.offsets[i] = len(payload) - len(r.B)
		st.sections[i] = r.Next(l)
		if r.Bad {
			return head(ErrCorrupt, "section "+strconv.Itoa(i)+" runs past the payload")
		}
	}
	if len(r.B) != 0 {
		return head(ErrCorrupt, strconv.Itoa(len(r.B))+" bytes after the last section")
	}
	return nil
}
