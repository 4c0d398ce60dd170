// Package marks rings the ten weakest units in the viewer's picture: it
// runs the arena's declared query WeakestUnits (arena/arena.tw,
// docs/schema.md, Queries) between frames into a buffer it reuses, and
// draws a [raster.Highlight] ring around each unit it returned.
//
// The query is the arena's generated code over the runtime's tables
// (arena.Sim.Tables): the hand-written baseline (soa) has none, and the
// viewer shows no rings for it. Its order, and so which of several units
// of equal health are ringed, is the query's (health ascending, then
// entity index: docs/schema.md, Query results).
//
// It knows nothing of ebiten, so its tests need no window or display.
//
// # Concurrency
//
// A [Weakest] is for one goroutine: call [Weakest.Update] between frames
// (never during World.Frame) and [Weakest.Draw] from the same goroutine.
// Neither allocates once [New] has returned.
package marks
