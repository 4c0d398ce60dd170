package ephemeral

import (
	"unsafe"

	"github.com/kelindar/bitmap"

	"github.com/tickwork/tickwork/memory"
)

// The byte counts a definition charges to its memory budget before it
// allocates (see docs/architecture.md, memory budget): the element bytes of
// the pages it makes, the capacity rounded up to whole chunks (slots =
// Chunks*ChunkRows). A few hundred bytes of fixed per-object overhead are
// not counted. Sizes saturate at math.MaxInt64 (memory.Size) rather than
// wrap, so no product of a capacity and an element size can overflow.

// DomainBytes is what NewDomain allocates and charges for a domain of
// capacity entities in chunks of chunkRows rows (0 = DefaultChunkRows):
// 4 bytes per slot of generations and the free-slot set, one bit per
// entity and 8 bytes per word of each summary level. It is 0 for a
// capacity or chunk rows that NewDomain refuses. Allocates nothing.
// Exported for a host sizing a memory budget (tickwork.WithMemoryBudget,
// or memory.NewBudget for standalone tables) and for the tests that check
// what a world charges.
func DomainBytes(capacity, chunkRows int) int64 {
	_, slots, err := domainShape(DomainSpec{Name: "-", Capacity: capacity, ChunkRows: chunkRows})
	if err != nil {
		return 0
	}
	words := int64(0)
	for n := capacity; ; {
		level := (n + 63) / 64
		words += int64(level)
		if level == 1 {
			break
		}
		n = level
	}
	return memory.Sum(memory.Size(int64(slots), 4), memory.Size(words, 8))
}

// TableBytes is what NewTable allocates and charges for the pages of one
// table of capacity rows in chunks of chunkRows rows (0 =
// DefaultChunkRows): 4 bytes per slot of row generations, one bit per slot
// of enabled bitmaps, and per chunk a bitmap header and a live count. A
// standalone table (no Domain) charges DomainBytes more for its private
// domain. It is 0 for a capacity or chunk rows that NewTable refuses.
// Allocates nothing. Exported with DomainBytes, for the same callers.
func TableBytes(capacity, chunkRows int) int64 {
	cr, slots, err := domainShape(DomainSpec{Name: "-", Capacity: capacity, ChunkRows: chunkRows})
	if err != nil {
		return 0
	}
	chunks := int64(slots / cr)
	return memory.Sum(
		memory.Size(int64(slots), 4),                                  // gens
		memory.Size(int64(slots)/64, 8),                               // enabled bitmap words
		memory.Size(chunks, int64(unsafe.Sizeof(bitmap.Bitmap(nil)))), // enabled bitmap headers
		memory.Size(chunks, 4),                                        // chunkLive
	)
}

// ColumnBytes is what AddColumn allocates and charges for a column of T in
// a table of capacity rows in chunks of chunkRows rows (0 =
// DefaultChunkRows): sizeof(T) bytes per slot. It is 0 for a capacity or
// chunk rows that NewTable refuses. Allocates nothing. Exported with
// DomainBytes, for the same callers.
func ColumnBytes[T any](capacity, chunkRows int) int64 {
	_, slots, err := domainShape(DomainSpec{Name: "-", Capacity: capacity, ChunkRows: chunkRows})
	if err != nil {
		return 0
	}
	return memory.SizeOf[T](int64(slots))
}

// budgetOf is b, or a new private budget of memory.DefaultBudget bytes
// (memory.OwnerPrivate) when b is nil.
func budgetOf(b *memory.Budget) *memory.Budget {
	if b == nil {
		return memory.NewOwnedBudget(memory.DefaultBudget, memory.OwnerPrivate)
	}
	return b
}
