// Package hud keeps the numbers the viewer's overlay shows and formats them
// without allocating: a [FrameRing] of frame wall times and its median,
// [TopSystems] for the slowest systems of a frame, and [AppendOverlay] for
// the text itself.
//
// It knows nothing of ebiten, so its tests need no window or display. Its
// types are not safe for concurrent use.
package hud
