package runq

// RowLane makes q run every row through its per-row closures (the span
// lane, the where's selector and the point lookup's shortcut off), for
// tests that compare the two lanes.
func RowLane(q *Query) { q.span.on, q.point, q.sel = false, false, nil }
