package commands

import (
	"errors"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/internal/wire"
)

// ErrState: a playback state (Playback.CheckState) this playback cannot
// take, or a snapshot asked for while records wait for playback. Returned
// as a *StateError.
var ErrState = errors.New("commands: bad playback state")

// StateError reports why a playback refused to take or check a state.
// errors.Is(err, ErrState) is true.
type StateError struct{ Detail string }

func (e *StateError) Error() string { return "commands: playback state: " + e.Detail }

// Is reports whether target is ErrState.
func (e *StateError) Is(target error) bool { return target == ErrState }

// AppendState appends p's state to dst (docs/state.md): its tag and, per
// buffer in id order, the next create's sequence number, the first one not
// released and the real handles of the creates played since the last
// Release, so that provisional handles resolve after a restore as they did
// when the state was taken. It returns a *StateError (errors.Is ErrState),
// appending nothing, when a buffer holds records not played yet (a
// snapshot is taken between frames). Allocates only when dst grows. Not
// while a playback runs.
func (p *Playback) AppendState(dst []byte) ([]byte, error) {
	for _, s := range p.slots {
		if len(s.buf.recs) != 0 {
			return dst, &StateError{Detail: "buffer " + strconv.Itoa(s.buf.id) + " holds " + strconv.Itoa(len(s.buf.recs)) + " records not played yet"}
		}
	}
	dst = wire.U32(dst, p.tag)
	dst = wire.U32(dst, uint32(len(p.slots)))
	for _, s := range p.slots {
		dst = wire.U32(dst, s.buf.next)
		dst = wire.U32(dst, s.lo)
		dst = wire.U64(dst, uint64(len(s.res)))
		dst = append(dst, wire.Bytes(s.res)...)
	}
	return dst, nil
}

// StateSize is the length of p's state now, in bytes (AppendState).
// Allocates nothing.
func (p *Playback) StateSize() int {
	n := 8
	for _, s := range p.slots {
		n += 16 + 8*len(s.res)
	}
	return n
}

// CheckState reports whether src is a state p can take (LoadState): a
// *StateError (errors.Is ErrState) for a tag outside 1..MaxPlaybackTag,
// another number of buffers, resolutions other than one per create since
// the buffer's release, or the wrong size. It reads src only; it allocates only its
// error.
func (p *Playback) CheckState(src []byte) error {
	bad := func(d string) error { return &StateError{Detail: d} }
	r := wire.Reader{B: src}
	tag, n := r.U32(), r.U32()
	if r.Bad || tag == 0 || tag > MaxPlaybackTag {
		return bad("tag " + strconv.FormatUint(uint64(tag), 10) + " outside 1.." + strconv.Itoa(MaxPlaybackTag))
	}
	if int(n) != len(p.slots) {
		return bad(strconv.FormatUint(uint64(n), 10) + " command buffers, this playback has " + strconv.Itoa(len(p.slots)) +
			" (a world makes a serial and a per-worker set of buffers for each recording system: build it with the same systems and workers)")
	}
	for i := range p.slots {
		next, lo, res := r.U32(), r.U32(), r.U64()
		// Between frames every create since the release has played: one
		// resolution per sequence number.
		if r.Bad || res != uint64(next-lo) || res > MaxCreates {
			return bad("buffer " + strconv.Itoa(i) + ": resolutions do not match its creates since the release")
		}
		r.Next(8 * res)
	}
	if r.Bad || len(r.B) != 0 {
		return bad("section of " + strconv.Itoa(len(src)) + " bytes")
	}
	return nil
}

// LoadState makes p hold src, a state CheckState accepted: its tag (the
// provisional handles of its buffers carry it from now on), each buffer's
// create sequence and its resolutions. It panics on a src CheckState
// refuses. It allocates only when a buffer's resolutions outgrow their
// room (sized at NewBuffer, Reserve). Not while a playback runs.
func (p *Playback) LoadState(src []byte) {
	if err := p.CheckState(src); err != nil {
		panic("commands: LoadState without CheckState: " + err.Error())
	}
	r := wire.Reader{B: src}
	p.tag = r.U32()
	r.U32()
	for i := range p.slots {
		s := &p.slots[i]
		s.buf.next, s.lo = r.U32(), r.U32()
		s.buf.lo = s.lo
		s.buf.hbase = provisional(p.tag, s.buf.id, 0)
		n := int(r.U64())
		s.res = slices.Grow(s.res[:0], n)[:n]
		copy(wire.Bytes(s.res), r.Next(uint64(8*n)))
	}
}

// Describe appends a line giving p's number of buffers, for a world's
// fingerprint. It allocates.
func (p *Playback) Describe(dst []byte) []byte {
	return append(dst, "command buffers "+strconv.Itoa(len(p.slots))+"\n"...)
}
