// Package segment keeps the keyed segments that parallel kernels write
// (command records, staged events) and merges them back in key order, so
// that what a kernel produced does not depend on how chunks were shared
// among workers. It is internal to Tickwork: packages commands and events
// use it.
//
// # Marks
//
// A stream (one worker's records or events) is split by [Marks.Begin] into
// segments, each tagged with a key (a chunk index). [AppendSpans] turns the
// marks of a stream into [Span]s, and [Sort] orders the spans of all streams
// by key, stably, so equal keys keep stream order and then Begin order.
//
// Nothing here allocates once the slices have grown to their steady size.
// Not safe for concurrent use: each stream's Marks belongs to one worker.
package segment

import (
	"cmp"
	"slices"
)

// Mark starts a segment at element Start of a stream, with sort key Key.
type Mark struct{ Key, Start int }

// Marks are the segment starts of one stream, in Begin order.
type Marks []Mark

// Begin starts a segment with key key at element n of the stream (the
// stream's length now). When the previous segment is still empty it is
// reused, so a run of Begins without elements leaves one mark; when it has
// key key already it goes on (the elements after it have that key either
// way), so a Begin per element, as a worker's Recorder.At for each record,
// leaves one mark per key.
func (m *Marks) Begin(key, n int) {
	if k := len(*m); k > 0 && ((*m)[k-1].Start == n || (*m)[k-1].Key == key) {
		(*m)[k-1].Key = key
		return
	}
	*m = append(*m, Mark{Key: key, Start: n})
}

// Span is the elements [Lo, Hi) of stream Src, with sort key Key.
type Span struct{ Key, Src, Lo, Hi int }

// AppendSpans appends to dst the non-empty segments of stream src, whose
// marks are marks and whose length is n elements. Elements before the first
// mark have key 0.
func AppendSpans(dst []Span, src int, marks Marks, n int) []Span {
	lo, key := 0, 0
	for _, m := range marks {
		if m.Start > lo {
			dst = append(dst, Span{Key: key, Src: src, Lo: lo, Hi: m.Start})
		}
		lo, key = m.Start, m.Key
	}
	if n > lo {
		dst = append(dst, Span{Key: key, Src: src, Lo: lo, Hi: n})
	}
	return dst
}

// Room returns an upper bound, stable from run to run, of the spans
// AppendSpans appends for a stream with marks: one per mark it has room for
// plus the elements before the first. (The number of marks itself varies,
// since Begin reuses empty segments.) Grow the span scratch by the sum over
// all streams before appending, so that its capacity settles as soon as the
// marks' capacities do instead of creeping up with every new high.
func Room(marks Marks) int { return cap(marks) + 1 }

// Sort orders spans by key, stably: equal keys keep the order they were
// appended in.
func Sort(spans []Span) {
	slices.SortStableFunc(spans, func(a, b Span) int { return cmp.Compare(a.Key, b.Key) })
}
