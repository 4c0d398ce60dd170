package ephemeral

import (
	"fmt"
	"sync/atomic"
)

// Handle layout: the widths of a handle's fields. The layout and what it
// guarantees are stated once, in docs/architecture.md ("Handle layout").
const (
	// handleTagBits is the width of a handle's domain tag: the top bits of
	// its high 32-bit word. Domains take tags 1..maxHandleTag in turn.
	handleTagBits = 10
	// HandleGenerationBits is the width of a handle's generation: the low
	// bits of its high 32-bit word.
	HandleGenerationBits = 32 - handleTagBits
	// maxHandleTag is the largest domain tag (1023). Tag 0 is no domain's.
	maxHandleTag = 1<<handleTagBits - 1
)

const genMask = 1<<HandleGenerationBits - 1

// Handle names one entity of one domain: a slot index, the slot's
// generation and the domain's tag in 64 bits. The bit layout and what it
// guarantees (the generation reuse bound, the tag collision bound, what a
// handle of another domain gets) are stated once, in docs/architecture.md
// ("Handle layout"). The zero Handle is invalid.
//
// Invalidation: a handle is valid from the insert that returned it until the
// entity is deleted (Delete, or Detach of its last row). Deleting bumps the
// slot's generation, so the handle never again matches any row, even after
// its slot is reused by a new entity (within the reuse bound). Live
// generations are odd and dead ones even, so a handle with an even
// generation (the zero handle among them) never names a row.
//
// A Handle is a plain value: safe to copy, compare and share between
// goroutines.
type Handle uint64

// MakeHandle builds an untagged handle (tag 0) from a slot index and a
// generation, taken modulo 2^HandleGenerationBits. An untagged handle names
// no row of any table: it is for packages that encode their own handles
// (command buffers' provisional handles) and for tests. Domain.MakeHandle
// builds a handle of a domain.
func MakeHandle(index, generation uint32) Handle {
	return Handle(uint64(generation&genMask)<<32 | uint64(index))
}

// handleOf builds a handle from a slot index and the high word (tag and
// generation) a domain or table stores.
func handleOf(index, word uint32) Handle { return Handle(uint64(word)<<32 | uint64(index)) }

// word is h's high 32 bits, tag and generation: what a table stores for the
// row h names.
func (h Handle) word() uint32 { return uint32(h >> 32) }

// Index is the handle's slot index: the row it names in every table of its domain.
func (h Handle) Index() uint32 { return uint32(h) }

// Generation is the handle's generation, 0..2^HandleGenerationBits-1 (odd
// for a handle that was ever live).
func (h Handle) Generation() uint32 { return uint32(h>>32) & genMask }

// Tag is the tag of the domain that issued h, 1..1023, or 0 for the
// zero handle and untagged handles (MakeHandle).
func (h Handle) Tag() uint32 { return uint32(h >> (32 + HandleGenerationBits)) }

// IsZero reports whether h is the zero (invalid) handle. Exported for a
// caller of this layer holding its handles (commands, standalone tables);
// the face's Handle has its own.
func (h Handle) IsZero() bool { return h == 0 }

// String formats h as "index:generation@tag", "index:generation" for an
// untagged handle, or "0" for the zero handle.
func (h Handle) String() string {
	switch {
	case h == 0:
		return "0"
	case h.Tag() == 0:
		return fmt.Sprintf("%d:%d", h.Index(), h.Generation())
	}
	return fmt.Sprintf("%d:%d@%d", h.Index(), h.Generation(), h.Tag())
}

// domainTags counts the domains made by the process; see nextTag.
var domainTags atomic.Uint64

// nextTag returns the tag of a new domain: 1..maxHandleTag in turn, from a
// process-wide counter, so any maxHandleTag domains made one after another
// have distinct tags. Safe from many goroutines.
func nextTag() uint32 {
	return uint32((domainTags.Add(1)-1)%maxHandleTag) + 1
}
