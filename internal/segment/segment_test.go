package segment

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBeginReusesEmptySegment(t *testing.T) {
	var m Marks
	m.Begin(5, 0)
	m.Begin(7, 0) // nothing since the last Begin: reuse
	m.Begin(9, 3)
	assert.Equal(t, Marks{{Key: 7, Start: 0}, {Key: 9, Start: 3}}, m)
}

func TestAppendSpansAndSort(t *testing.T) {
	// Stream 0: 2 elements before any Begin (key 0), then key 4 for 3, key 1 for 0 (empty), key 2 for 1.
	a := Marks{{Key: 4, Start: 2}, {Key: 1, Start: 5}, {Key: 2, Start: 5}}
	// Stream 1: key 1 for 2 elements, key 4 for 1.
	b := Marks{{Key: 1, Start: 0}, {Key: 4, Start: 2}}
	spans := AppendSpans(nil, 0, a, 6)
	spans = AppendSpans(spans, 1, b, 3)
	assert.Equal(t, []Span{{0, 0, 0, 2}, {4, 0, 2, 5}, {2, 0, 5, 6}, {1, 1, 0, 2}, {4, 1, 2, 3}}, spans)
	Sort(spans)
	assert.Equal(t, []Span{{0, 0, 0, 2}, {1, 1, 0, 2}, {2, 0, 5, 6}, {4, 0, 2, 5}, {4, 1, 2, 3}}, spans)
	assert.Empty(t, AppendSpans(nil, 0, nil, 0))
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	m := make(Marks, 0, 8)
	spans := make([]Span, 0, 16)
	allocs := testing.AllocsPerRun(100, func() {
		m = m[:0]
		for k := range 8 {
			m.Begin(k, k*2)
		}
		spans = AppendSpans(spans[:0], 0, m, 16)
		Sort(spans)
	})
	assert.Zero(t, allocs)
}
