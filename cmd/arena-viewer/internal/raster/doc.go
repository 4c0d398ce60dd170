// Package raster draws the arena into a picture in main memory: a [View]
// maps world coordinates to screen pixels (zoom and pan), and a [Canvas]
// holds one RGBA frame at window resolution, ready for a single
// ebiten WritePixels.
//
// It knows nothing of ebiten, so its tests need no window or display.
//
// # Drawing a frame
//
//	c.Begin(v)                  // background: arena floor and border
//	c.PlotUnits(v, pres)        // one pixel (zoomed in, a square) per live unit
//	c.PlotProjectiles(v, xy)    // the same for projectiles
//	c.Highlight(v, x, y)        // a ring around a unit (the ten weakest)
//	c.Dim(0, 0, w, h)           // darken the overlay's panel
//	img.WritePixels(c.Pix)
//
// None of these allocate; [NewCanvas] allocates the two frame buffers once
// per window size. A Canvas is not safe for concurrent use.
package raster
