package commands

import (
	"errors"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/internal/wire"
)

// ErrState: a playback state (a snapshot's) this playback cannot
// take, or a snapshot asked for while records wait for playback. Returned
// as a *StateError.
var ErrState = errors.New("commands: bad playback state")

// StateError reports why a playback refused to take or check a state.
// errors.Is(err, ErrState) is true.
type StateError struct{ Detail string }

func (e *StateError) Error() string { return "commands: playback state: " + e.Detail }

// Is reports whether target is ErrState.
func (e *StateError) Is(target error) bool { return target == ErrState }

// appendState appends p's state to dst (docs/state.md): its tag and, per
// buffer in id order, the size of its NewBuffers set (0 for a NewBuffer
// one), the next create's sequence number, the first one not released and
// the real handles of the creates played since the last Release, so that
// provisional handles resolve after a restore as they did when the state
// was taken. It returns a *StateError (errors.Is ErrState), appending
// nothing, when a buffer holds records not played yet (a snapshot is taken
// between frames). Allocates only when dst grows. Not while a playback
// runs.
func (p *Playback) appendState(dst []byte) ([]byte, error) {
	for _, s := range p.slots {
		if len(s.buf.recs) != 0 {
			return dst, &StateError{Detail: "buffer " + strconv.Itoa(s.buf.id) + " holds " + strconv.Itoa(len(s.buf.recs)) + " records not played yet: the frame that recorded them stopped before its playback (a panic); a snapshot is taken between completed frames"}
		}
	}
	dst = wire.U32(dst, p.tag)
	dst = wire.U32(dst, uint32(len(p.slots)))
	for _, s := range p.slots {
		dst = wire.U32(dst, uint32(s.buf.set))
		dst = wire.U32(dst, 0)
		dst = wire.U32(dst, s.buf.next)
		dst = wire.U32(dst, s.lo)
		dst = wire.U64(dst, uint64(len(s.res)))
		dst = append(dst, wire.Bytes(s.res)...)
	}
	return dst, nil
}

// stateSize is the length appendState appends now: the head, then per
// buffer 24 bytes and its resolutions. Allocates nothing.
func (p *Playback) stateSize() int {
	n := 8
	for _, s := range p.slots {
		n += 24 + 8*len(s.res)
	}
	return n
}

// slotState is one buffer's part of a playback state, as AppendState
// writes it: the set size, a zero pad, the next create's sequence number,
// the first one not released, and n resolutions (8 bytes each, in res,
// aliasing the state; short when the state ends inside them).
type slotState struct {
	set, pad, next, lo uint32
	n                  uint64
	res                []byte
	short              bool
}

// readSlot decodes the next buffer's part of a state; a short state sets
// r.Bad. Allocates nothing.
func readSlot(r *wire.Reader) slotState {
	s := slotState{set: r.U32(), pad: r.U32(), next: r.U32(), lo: r.U32(), n: r.U64()}
	bad := r.Bad
	s.res = r.Next(8 * s.n)
	s.short = r.Bad && !bad
	return s
}

// sameLayout reports whether the buffers of a checked state (their set
// sizes, in id order, from src) are p's.
func (p *Playback) sameLayout(src []byte) bool {
	r := wire.Reader{B: src[8:]}
	if int(wire.Reader{B: src[4:8]}.Peek32()) != len(p.slots) {
		return false
	}
	for _, s := range p.slots {
		if int(readSlot(&r).set) != s.buf.set {
			return false
		}
	}
	return true
}

// checkState reports whether src is a state p can take (LoadState): a
// *StateError (errors.Is ErrState) for a tag outside 1..maxPlaybackTag,
// resolutions other than one per create since the buffer's release, or the
// wrong size; and, when src's buffers are not p's (another worker count:
// other per-worker sets), for another number or other ids of the NewBuffer
// (serial) buffers, or a per-worker buffer with resolutions pending, whose
// provisional handles would name another buffer here. It reads src only; it
// allocates only its error.
func (p *Playback) checkState(src []byte) error {
	bad := func(d string) error { return &StateError{Detail: d} }
	r := wire.Reader{B: src}
	tag, n := r.U32(), r.U32()
	if r.Bad || tag == 0 || tag > maxPlaybackTag {
		return bad("tag " + strconv.FormatUint(uint64(tag), 10) + " outside 1.." + strconv.Itoa(maxPlaybackTag))
	}
	if n > maxBufferID+1 {
		return bad(strconv.FormatUint(uint64(n), 10) + " command buffers")
	}
	serial := 0 // src's NewBuffer buffers seen so far
	for i := 0; i < int(n); i++ {
		s := readSlot(&r)
		// Between frames every create since the release has played: one
		// resolution per sequence number. (Resolutions cut short are the
		// section's size error, below.)
		if (r.Bad && !s.short) || s.pad != 0 || s.set > maxBufferID+1 || s.n != uint64(s.next-s.lo) || s.n > MaxCreates {
			return bad("buffer " + strconv.Itoa(i) + ": resolutions do not match its creates since the release")
		}
		if s.set == 0 {
			// A serial buffer keeps its id whatever the worker count.
			if k := p.nthSerial(serial); k != i {
				return bad("buffer " + strconv.Itoa(i) + " is a serial buffer, this playback's serial buffer " +
					strconv.Itoa(serial) + " has id " + strconv.Itoa(k) + ": build the world with the same systems")
			}
			serial++
		}
	}
	if r.Bad || len(r.B) != 0 {
		return bad("section of " + strconv.Itoa(len(src)) + " bytes")
	}
	if serial != p.nthSerial(-1) {
		return bad(strconv.Itoa(serial) + " serial command buffers, this playback has " + strconv.Itoa(p.nthSerial(-1)) +
			": build the world with the same systems")
	}
	if !p.sameLayout(src) {
		r = wire.Reader{B: src[8:]}
		for i := 0; i < int(n); i++ {
			if s := readSlot(&r); s.set != 0 && s.n != 0 {
				return bad("per-worker buffer " + strconv.Itoa(i) + " has resolutions pending and this playback's per-worker buffers differ " +
					"(another worker count): restore into a world of the snapshot's worker count")
			}
		}
	}
	return nil
}

// nthSerial is the id of p's k-th NewBuffer buffer, -1 when there is none;
// nthSerial(-1) is their number.
func (p *Playback) nthSerial(k int) int {
	n := 0
	for i, s := range p.slots {
		if s.buf.set == 0 {
			if n == k {
				return i
			}
			n++
		}
	}
	if k < 0 {
		return n
	}
	return -1
}

// loadState makes p hold src, a state CheckState accepted: its tag (the
// provisional handles of its buffers carry it from now on), each buffer's
// create sequence and its resolutions. When src's per-worker buffers are
// not p's (another worker count), the serial buffers take src's state and
// the per-worker ones are released (nothing of theirs resolves). It panics
// on a src CheckState refuses. It allocates only when a buffer's
// resolutions outgrow their room (sized at NewBuffer, Reserve). Not while a
// playback runs.
func (p *Playback) loadState(src []byte) {
	if err := p.checkState(src); err != nil {
		panic("commands: LoadState without CheckState: " + err.Error())
	}
	same := p.sameLayout(src)
	r := wire.Reader{B: src}
	p.tag = r.U32()
	n := int(r.U32())
	for i := range p.slots {
		b := p.slots[i].buf
		b.hbase = provisional(p.tag, b.id, 0)
		if !same && b.set != 0 {
			p.slots[i].lo, b.lo, p.slots[i].res = b.next, b.next, p.slots[i].res[:0]
		}
	}
	for i := 0; i < n; i++ {
		st := readSlot(&r)
		if !same && st.set != 0 {
			continue
		}
		s := &p.slots[i]
		s.buf.next, s.lo, s.buf.lo = st.next, st.lo, st.lo
		s.res = slices.Grow(s.res[:0], int(st.n))[:st.n]
		copy(wire.Bytes(s.res), st.res)
	}
}

// describe appends a line giving p's buffers, for a world's fingerprint:
// the number of NewBuffer (serial) buffers and of NewBuffers sets, which do
// not depend on the worker count. It allocates.
func (p *Playback) describe(dst []byte) []byte {
	sets := 0
	for i := 0; i < len(p.slots); {
		if s := p.slots[i].buf.set; s > 0 {
			sets++
			i += s
			continue
		}
		i++
	}
	return append(dst, "command buffers "+strconv.Itoa(p.nthSerial(-1))+" serial, "+strconv.Itoa(sets)+" per-worker sets\n"...)
}
