package ephemeral

import "fmt"

// Handle names one entity: a 64-bit value holding a 32-bit slot index (low
// bits) and a 32-bit generation (high bits). The zero Handle is invalid.
//
// Invalidation: a handle is valid from the insert that returned it until the
// entity is deleted. Deleting bumps the slot's generation, so the handle never
// again matches any row, even after its slot is reused by a new entity.
// Live generations are odd and dead ones even, so a handle with an even
// generation (the zero handle among them) never names a row. Generations are
// 32-bit: a handle could alias only after 2^31 reuses of the same slot.
//
// Scope: a handle is meaningful only within the domain that issued it (the
// table's private domain, for a standalone table). It holds no domain or
// table identity, and every domain issues the same sequence of handles from
// the same history (the first entity of any domain is "0:1"), so a handle
// used with a table of another domain is not detected: it reads, writes or
// deletes whichever row of that table has the same slot and generation.
// Tables whose rows must be told apart by handle, or that store one
// another's handles, share a domain (TableSpec.Domain). Likewise an Entity
// of Bevy belongs to one World.
//
// A Handle is a plain value: safe to copy, compare and share between
// goroutines.
type Handle uint64

// MakeHandle builds a handle from a slot index and a generation. It is for
// tests and for packages that encode handles (such as provisional handles of
// command buffers); a made-up handle names a row only if the generation matches.
func MakeHandle(index, generation uint32) Handle {
	return Handle(uint64(generation)<<32 | uint64(index))
}

// Index is the handle's slot index: the row it names in every table of its domain.
func (h Handle) Index() uint32 { return uint32(h) }

// Generation is the handle's generation (odd for a handle that was ever live).
func (h Handle) Generation() uint32 { return uint32(h >> 32) }

// IsZero reports whether h is the zero (invalid) handle.
func (h Handle) IsZero() bool { return h == 0 }

// String formats h as "index:generation", or "0" for the zero handle.
func (h Handle) String() string {
	if h == 0 {
		return "0"
	}
	return fmt.Sprintf("%d:%d", h.Index(), h.Generation())
}
