package ephemeral

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/memory"
)

// The byte counts charged to the budget are the element bytes of the pages
// the definitions really make, for capacities at, below and above chunk
// and summary-word boundaries.
func TestChargedBytesAreAllocatedBytes(t *testing.T) {
	shapes := []struct{ capacity, chunkRows int }{
		{1, 0}, {63, 64}, {64, 64}, {65, 64}, {4096, 0}, {4097, 0}, {100000, 0},
		{64*64 + 1, 64}, {1<<20 + 3, 1 << 20}, {262145, 256},
	}
	for _, sh := range shapes {
		t.Run(fmt.Sprintf("%d rows in chunks of %d", sh.capacity, sh.chunkRows), func(t *testing.T) {
			b := memory.NewBudget(memory.DefaultBudget)
			d, err := NewDomain(DomainSpec{Name: "D", Capacity: sh.capacity, ChunkRows: sh.chunkRows, Budget: b})
			require.NoError(t, err)
			domain := int64(len(d.gens)) * 4
			for _, level := range d.free.levels {
				domain += int64(cap(level)) * 8
			}
			assert.Equal(t, domain, DomainBytes(sh.capacity, sh.chunkRows))
			assert.Equal(t, domain, b.Used())

			tb, err := NewTable(TableSpec{Name: "T", Domain: d})
			require.NoError(t, err)
			table := int64(cap(tb.gens))*4 + int64(cap(tb.enabled))*int64(unsafe.Sizeof(tb.enabled[0])) + int64(cap(tb.chunkLive))*4
			for _, e := range tb.enabled {
				table += int64(cap(e)) * 8
			}
			assert.Equal(t, table, TableBytes(sh.capacity, sh.chunkRows))
			assert.Equal(t, domain+table, b.Used())

			col, err := AddColumn[[3]uint32](tb, "C")
			require.NoError(t, err)
			column := int64(cap(col.data)) * 12
			assert.Equal(t, column, ColumnBytes[[3]uint32](sh.capacity, sh.chunkRows))
			assert.Equal(t, domain+table+column, b.Used())

			// A standalone table charges its private domain and its pages at once.
			s, err := NewTable(TableSpec{Name: "S", Capacity: sh.capacity, ChunkRows: sh.chunkRows, Budget: b})
			require.NoError(t, err)
			assert.Same(t, b, s.dom.budget)
			assert.Equal(t, 2*(domain+table)+column, b.Used())
		})
	}
}
