package main

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// Control speeds, per tick (64 ticks a second by default).
const (
	panStep   = 12   // screen pixels a tick while an arrow or WASD key is held
	keyZoom   = 1.04 // zoom factor a tick while + or - is held
	wheelZoom = 1.15 // zoom factor per wheel notch
)

// controls is one tick's input, decoded from the keyboard and mouse.
type controls struct {
	pause, step, toggleProj, resetView bool

	zoom         float64 // factor to zoom by this tick; 0 or 1 for none
	zoomX, zoomY float64 // the screen point kept in place while zooming
	panX, panY   float64 // screen pixels to move the picture by
}

// dragState follows a left-button drag across ticks.
type dragState struct {
	on   bool
	x, y int
}

// readControls reads this tick's input from ebiten, on a w×h screen:
//
//	Space           pause or resume
//	. or N          one frame, while paused
//	wheel, + and -  zoom (the wheel about the cursor, the keys about the centre)
//	arrows, WASD    pan
//	left drag       pan
//	P               show or hide projectiles
//	R               reset the view to the whole arena
func readControls(d *dragState, w, h int) controls {
	var c controls
	c.pause = inpututil.IsKeyJustPressed(ebiten.KeySpace)
	c.step = inpututil.IsKeyJustPressed(ebiten.KeyPeriod) || inpututil.IsKeyJustPressed(ebiten.KeyN) ||
		inpututil.IsKeyJustPressed(ebiten.KeyNumpadDecimal)
	c.toggleProj = inpututil.IsKeyJustPressed(ebiten.KeyP)
	c.resetView = inpututil.IsKeyJustPressed(ebiten.KeyR)

	c.zoom = 1
	c.zoomX, c.zoomY = float64(w)/2, float64(h)/2
	if ebiten.IsKeyPressed(ebiten.KeyEqual) || ebiten.IsKeyPressed(ebiten.KeyNumpadAdd) {
		c.zoom *= keyZoom
	}
	if ebiten.IsKeyPressed(ebiten.KeyMinus) || ebiten.IsKeyPressed(ebiten.KeyNumpadSubtract) {
		c.zoom /= keyZoom
	}
	cx, cy := ebiten.CursorPosition()
	if _, wy := ebiten.Wheel(); wy != 0 {
		c.zoom *= math.Pow(wheelZoom, wy)
		c.zoomX, c.zoomY = float64(cx), float64(cy)
	}

	if ebiten.IsKeyPressed(ebiten.KeyArrowLeft) || ebiten.IsKeyPressed(ebiten.KeyA) {
		c.panX += panStep
	}
	if ebiten.IsKeyPressed(ebiten.KeyArrowRight) || ebiten.IsKeyPressed(ebiten.KeyD) {
		c.panX -= panStep
	}
	if ebiten.IsKeyPressed(ebiten.KeyArrowUp) || ebiten.IsKeyPressed(ebiten.KeyW) {
		c.panY += panStep
	}
	if ebiten.IsKeyPressed(ebiten.KeyArrowDown) || ebiten.IsKeyPressed(ebiten.KeyS) {
		c.panY -= panStep
	}

	if ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) {
		if d.on {
			c.panX += float64(cx - d.x)
			c.panY += float64(cy - d.y)
		}
		d.on, d.x, d.y = true, cx, cy
	} else {
		d.on = false
	}
	return c
}
