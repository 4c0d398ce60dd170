package ephemeral

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"

	"github.com/tickwork/tickwork/internal/wire"
)

// ErrState: a domain state (checked by the runtime through internal/plumb's
// CheckState) that is not one this domain can hold: wrong size, a
// generation out of range, free slots, rows or enabled bits that disagree
// with the generations. Returned as a *StateError naming the domain or
// table.
var ErrState = errors.New("ephemeral: inconsistent domain state")

// StateError reports why a domain's CheckState refused a state. errors.Is(err,
// ErrState) is true.
type StateError struct {
	Domain string // the domain
	Table  string // the member table, "" for the domain's own part
	Detail string
}

func (e *StateError) Error() string {
	where := "domain " + strconv.Quote(e.Domain)
	if e.Table != "" {
		where += ", table " + strconv.Quote(e.Table)
	}
	return "ephemeral: state of " + where + ": " + e.Detail
}

// Is reports whether target is ErrState.
func (e *StateError) Is(target error) bool { return target == ErrState }

// stateSize is the length in bytes of d's state (AppendState): fixed by the
// definitions of d, its member tables and their columns. Allocates
// nothing; not concurrently with a definition on d.
func (d *Domain) stateSize() int {
	n := 16 + 4*len(d.gens)
	for _, l := range d.free.levels {
		n += 8 * len(l)
	}
	for _, t := range d.tables {
		n += 8 + 4*len(t.gens) + 8*len(t.enabled)*(d.chunkRows/64) + 4*len(t.chunkLive)
		for _, c := range t.cols {
			n += len(c.raw())
		}
	}
	return n
}

// appendState appends d's state to dst and returns it (docs/state.md, what
// a snapshot holds): the tag, the live count, every slot's generation, the
// free slots, and for each member table in definition order its live
// count, row generations, enabled bitmaps, chunk counts and column bytes,
// StateSize bytes in all. It allocates only when dst grows. Not
// concurrently with a structural change.
func (d *Domain) appendState(dst []byte) []byte {
	dst = wire.U32(dst, d.tag)
	dst = wire.U32(dst, 0)
	dst = wire.U64(dst, uint64(d.live))
	dst = append(dst, wire.Bytes(d.gens)...)
	for _, l := range d.free.levels {
		dst = append(dst, wire.Bytes(l)...)
	}
	for _, t := range d.tables {
		dst = wire.U64(dst, uint64(t.live))
		dst = append(dst, wire.Bytes(t.gens)...)
		for _, e := range t.enabled {
			dst = append(dst, wire.Bytes([]uint64(e))...)
		}
		dst = append(dst, wire.Bytes(t.chunkLive)...)
		for _, c := range t.cols {
			dst = append(dst, c.raw()...)
		}
	}
	return dst
}

// checkState reports whether src is a state d can take (LoadState): a
// *StateError (errors.Is ErrState) for the wrong size, a tag outside
// 1..maxHandleTag, a generation past HandleGenerationBits or set beyond
// the capacity, free slots that are not exactly the dead slots, a row
// whose generation is not its live entity's, enabled bits, chunk or live
// counts that disagree with the rows, or a bool column byte other than 0
// and 1. It reads src only, so d's state is untouched whatever src holds;
// it allocates its error and, on its first call, a scratch of a bit per
// slot kept by d. It writes only that scratch: not concurrently with
// another CheckState on d; safe with reads of d.
func (d *Domain) checkState(src []byte) error {
	if len(src) != d.stateSize() {
		return d.stateErr("", "section of "+itoa(len(src))+" bytes, want "+itoa(d.stateSize()))
	}
	r := wire.Reader{B: src}
	tag := r.U32()
	pad := r.U32()
	live := r.U64()
	if tag == 0 || tag > maxHandleTag || pad != 0 {
		return d.stateErr("", "tag "+strconv.FormatUint(uint64(tag), 10)+" outside 1.."+itoa(maxHandleTag))
	}
	slots := len(d.gens)
	gens := r.Next(uint64(4 * slots))
	// Level 0: a bit per slot below the capacity, set when the slot is free.
	levels := d.free.levels
	l0 := r.Next(uint64(8 * len(levels[0])))
	if cap(d.odd) < slots/64 {
		d.odd = make([]uint64, slots/64) // scratch, kept: the first check allocates
	}
	odd := d.odd[:slots/64]
	// Word at a time: a uint64 holds two slots' generations (the section
	// may be unaligned; binary.LittleEndian loads it in one instruction).
	var alive int
	for w := range odd {
		blk := (*[256]byte)(gens[256*w:])
		var m, or uint64
		for j := 0; j < 32; j++ {
			v := binary.LittleEndian.Uint64(blk[8*j:])
			or |= v
			m |= (v&1)<<uint(2*j) | (v>>32&1)<<uint(2*j+1)
		}
		if or&^(genMask|genMask<<32) != 0 {
			return d.stateErr("", "a generation beyond "+itoa(HandleGenerationBits)+" bits in slots "+itoa(64*w)+".."+itoa(64*w+63))
		}
		valid := validMask(w, d.capacity)
		if m&^valid != 0 || (valid != ^uint64(0) && or != 0 && !zeroBeyond(blk[:], valid)) {
			return d.stateErr("", "a generation set beyond the capacity")
		}
		odd[w] = m
		alive += bits.OnesCount64(m)
		if w < len(levels[0]) && binary.LittleEndian.Uint64(l0[8*w:]) != ^m&valid {
			return d.stateErr("", "free slots of slots "+itoa(64*w)+".."+itoa(64*w+63)+" disagree with their generations")
		}
	}
	if uint64(alive) != live {
		return d.stateErr("", "live count "+strconv.FormatUint(live, 10)+", "+itoa(alive)+" live generations")
	}
	below := l0
	for k := 1; k < len(levels); k++ {
		lk := r.Next(uint64(8 * len(levels[k])))
		for w := range levels[k] {
			var want uint64
			for j := 0; j < 64 && 64*w+j < len(below)/8; j++ {
				if binary.LittleEndian.Uint64(below[8*(64*w+j):]) != 0 {
					want |= 1 << uint(j)
				}
			}
			if binary.LittleEndian.Uint64(lk[8*w:]) != want {
				return d.stateErr("", "free-slot level "+itoa(k)+" disagrees with level "+itoa(k-1))
			}
		}
		below = lk
	}
	tagWord := tag << HandleGenerationBits
	words := d.chunkRows / 64
	for _, t := range d.tables {
		tlive := r.U64()
		tg := r.Next(uint64(4 * slots))
		en := r.Next(uint64(8 * len(t.enabled) * words))
		cl := r.Next(uint64(4 * len(t.chunkLive)))
		var rows uint64
		tagPair := uint64(tagWord) | uint64(tagWord)<<32
		for w := range odd {
			// A row is present exactly when its enabled bit is set, and then
			// holds its entity's word (tag and generation), else 0: compare
			// two rows at a time with the words the enabled bits select.
			g, tb := (*[256]byte)(gens[256*w:]), (*[256]byte)(tg[256*w:])
			e := binary.LittleEndian.Uint64(en[8*w:])
			var bad uint64
			for j := 0; j < 32; j++ {
				x := e >> uint(2*j)
				sel := uint64(0xffffffff)&-(x&1) | ^uint64(0xffffffff)&-(x>>1&1)
				bad |= binary.LittleEndian.Uint64(tb[8*j:]) ^ (binary.LittleEndian.Uint64(g[8*j:])|tagPair)&sel
			}
			if bad != 0 || e&^odd[w] != 0 {
				return d.rowsErr(t.name, w, g[:], tb[:], e, tagWord, odd[w])
			}
			rows += uint64(bits.OnesCount64(e))
		}
		for c := range t.chunkLive {
			var n int
			for w := c * words; w < (c+1)*words; w++ {
				n += bits.OnesCount64(binary.LittleEndian.Uint64(en[8*w:]))
			}
			if int32(binary.LittleEndian.Uint32(cl[4*c:])) != int32(n) {
				return d.stateErr(t.name, "live count of chunk "+itoa(c)+" disagrees with its rows")
			}
		}
		if rows != tlive {
			return d.stateErr(t.name, "live count "+strconv.FormatUint(tlive, 10)+", "+strconv.FormatUint(rows, 10)+" rows")
		}
		for _, c := range t.cols {
			b := r.Next(uint64(len(c.raw())))
			if offs := c.boolOffsets(); len(offs) > 0 && !wire.CheckBools(b, c.elemType().Size(), offs) {
				return d.stateErr(t.name, "column "+strconv.Quote(c.name())+" holds a bool that is neither 0 nor 1")
			}
		}
	}
	if r.Bad || len(r.B) != 0 {
		return d.stateErr("", "section size")
	}
	return nil
}

// validMask is the mask of the slots of level-0 word w below capacity.
func validMask(w, capacity int) uint64 {
	lo := 64 * w
	switch {
	case lo+64 <= capacity:
		return ^uint64(0)
	case lo >= capacity:
		return 0
	}
	return 1<<uint(capacity-lo) - 1
}

// zeroBeyond reports whether the generations g (little-endian uint32) of
// the 64 slots of a word outside valid are all zero.
func zeroBeyond(g []byte, valid uint64) bool {
	for j := 0; j < 64; j++ {
		if valid&(1<<uint(j)) == 0 && binary.LittleEndian.Uint32(g[4*j:]) != 0 {
			return false
		}
	}
	return true
}

// rowsErr is the error of the rows w*64..w*64+63 of table that CheckState
// found at fault (g and tb their slots' and rows' generations, e their
// enabled bits, odd their live slots): a row that is not its live
// entity's, or enabled bits that disagree with the rows.
func (d *Domain) rowsErr(table string, w int, g, tb []byte, e uint64, tagWord uint32, odd uint64) error {
	var present uint64
	for j := 0; j < 64; j++ {
		v := binary.LittleEndian.Uint32(tb[4*j:])
		if v == 0 {
			continue
		}
		present |= 1 << uint(j)
		if v != tagWord|binary.LittleEndian.Uint32(g[4*j:]) {
			return d.stateErr(table, "a row of slots "+itoa(64*w)+".."+itoa(64*w+63)+" is not its live entity's")
		}
	}
	if present&^odd != 0 {
		return d.stateErr(table, "a row of slots "+itoa(64*w)+".."+itoa(64*w+63)+" is not its live entity's")
	}
	if present != e {
		return d.stateErr(table, "enabled bits of rows "+itoa(64*w)+".."+itoa(64*w+63)+" disagree with the rows")
	}
	return d.stateErr(table, "rows "+itoa(64*w)+".."+itoa(64*w+63)+" disagree with their generations")
}

func (d *Domain) stateErr(table, detail string) error {
	return &StateError{Domain: d.name, Table: table, Detail: detail}
}

// loadState makes d and its member tables hold src, a state CheckState
// accepted: generations, free slots, rows and column values as they were
// when it was taken, and the tag it was taken with, so handles issued
// before are the same 64-bit values again and later creates hand out the
// handles they would have handed out then (docs/state.md). It panics when
// src has the wrong size (call CheckState first). It allocates nothing. A
// structural change: nothing else may run on d or its tables meanwhile.
func (d *Domain) loadState(src []byte) {
	if len(src) != d.stateSize() {
		panic("ephemeral: Domain.LoadState of domain " + strconv.Quote(d.name) + " with a section of " + itoa(len(src)) +
			" bytes, want " + itoa(d.stateSize()) + ": check it with CheckState first")
	}
	r := wire.Reader{B: src}
	d.tag = r.U32()
	d.tagWord = d.tag << HandleGenerationBits
	r.U32()
	d.live = int(r.U64())
	copy(wire.Bytes(d.gens), r.Next(uint64(4*len(d.gens))))
	for _, l := range d.free.levels {
		copy(wire.Bytes(l), r.Next(uint64(8*len(l))))
	}
	for _, t := range d.tables {
		t.live = int(r.U64())
		copy(wire.Bytes(t.gens), r.Next(uint64(4*len(t.gens))))
		for _, e := range t.enabled {
			copy(wire.Bytes([]uint64(e)), r.Next(uint64(8*len(e))))
		}
		copy(wire.Bytes(t.chunkLive), r.Next(uint64(4*len(t.chunkLive))))
		for _, c := range t.cols {
			b := c.raw()
			copy(b, r.Next(uint64(len(b))))
		}
	}
}

// describe appends a line per definition of d (the domain, each member
// table, each column with its element type and size) for a world's
// fingerprint (docs/state.md). It allocates; call it at set-up, not
// concurrently with a definition on d.
func (d *Domain) describe(dst []byte) []byte {
	dst = append(dst, "domain "+strconv.Quote(d.name)+" capacity "+itoa(d.capacity)+" chunk "+itoa(d.chunkRows)+"\n"...)
	for _, t := range d.tables {
		dst = append(dst, " table "+strconv.Quote(t.name)+"\n"...)
		for _, c := range t.cols {
			typ := c.elemType()
			dst = append(dst, "  column "+strconv.Quote(c.name())+" "+wire.Layout(typ)+" "+
				strconv.FormatUint(uint64(typ.Size()), 10)+"\n"...)
		}
	}
	return dst
}
