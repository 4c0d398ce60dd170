package raster

import (
	"math"
	"testing"

	"github.com/tickwork/tickwork/arena/rules"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestFitView(t *testing.T) {
	tests := []struct {
		name           string
		w, h           int
		wantScale      float64
		wantX0, wantY0 float64 // screen position of world (0, 0)
	}{
		{"square", 1040, 1040, 1024.0 / 2048, 8, 8},
		{"wide", 1280, 960, 944.0 / 2048, 168, 8},
		{"tall", 480, 640, 464.0 / 2048, 8, 88},
		{"tiny", 4, 4, 1.0 / 2048, 1.5, 1.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := FitView(tt.w, tt.h)
			if !near(v.Scale, tt.wantScale) {
				t.Errorf("Scale = %v, want %v", v.Scale, tt.wantScale)
			}
			x0, y0 := v.ToScreen(0, 0)
			if !near(x0, tt.wantX0) || !near(y0, tt.wantY0) {
				t.Errorf("ToScreen(0, 0) = %v, %v, want %v, %v", x0, y0, tt.wantX0, tt.wantY0)
			}
			cx, cy := v.ToScreen(float64(rules.W)/2, float64(rules.W)/2)
			if !near(cx, float64(tt.w)/2) || !near(cy, float64(tt.h)/2) {
				t.Errorf("arena centre at %v, %v, want the screen centre %v, %v", cx, cy, tt.w/2, tt.h/2)
			}
		})
	}
}

func TestViewRoundTrip(t *testing.T) {
	v := View{W: 800, H: 600, Scale: 0.37, CX: 100, CY: 1900}
	for _, p := range [][2]float64{{0, 0}, {2048, 2048}, {1000.5, 3.25}, {-50, 3000}} {
		sx, sy := v.ToScreen(p[0], p[1])
		x, y := v.ToWorld(sx, sy)
		if math.Abs(x-p[0]) > 1e-9 || math.Abs(y-p[1]) > 1e-9 {
			t.Errorf("ToWorld(ToScreen(%v)) = %v, %v", p, x, y)
		}
	}
}

func TestViewZoomAt(t *testing.T) {
	tests := []struct {
		name      string
		sx, sy    float64
		factor    float64
		wantScale float64
	}{
		{"in at cursor", 100, 700, 2, 2 * 944.0 / 2048},
		{"out at centre", 640, 480, 0.5, 0.5 * 944.0 / 2048},
		{"clamped in", 10, 10, 1e9, maxScale},
		{"clamped out", 10, 10, 1e-9, minScale},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := FitView(1280, 960)
			wx, wy := v.ToWorld(tt.sx, tt.sy)
			v.ZoomAt(tt.sx, tt.sy, tt.factor)
			if !near(v.Scale, tt.wantScale) {
				t.Errorf("Scale = %v, want %v", v.Scale, tt.wantScale)
			}
			gx, gy := v.ToScreen(wx, wy)
			if math.Abs(gx-tt.sx) > 1e-6 || math.Abs(gy-tt.sy) > 1e-6 {
				t.Errorf("world point under the cursor moved from %v, %v to %v, %v", tt.sx, tt.sy, gx, gy)
			}
		})
	}
}

func TestViewPan(t *testing.T) {
	v := FitView(1280, 960)
	x0, y0 := v.ToScreen(500, 600)
	v.Pan(30, -12.5)
	x1, y1 := v.ToScreen(500, 600)
	if !near(x1-x0, 30) || !near(y1-y0, -12.5) {
		t.Errorf("Pan(30, -12.5) moved a point by %v, %v", x1-x0, y1-y0)
	}
}

func TestViewResizeKeepsCentre(t *testing.T) {
	v := FitView(1280, 960)
	v.ZoomAt(0, 0, 3)
	before := v
	v.Resize(640, 480)
	if v.Scale != before.Scale || v.CX != before.CX || v.CY != before.CY || v.W != 640 || v.H != 480 {
		t.Errorf("Resize(640, 480) of %+v = %+v", before, v)
	}
}

func TestMarkSides(t *testing.T) {
	tests := []struct {
		scale            float64
		unit, projectile int
	}{
		{0.2, 1, 1},
		{0.5, 1, 1},
		{1, 2, 1},
		{4, 8, 4},
		{64, 32, 32},
	}
	for _, tt := range tests {
		v := View{Scale: tt.scale}
		if got := v.UnitSide(); got != tt.unit {
			t.Errorf("Scale %v: UnitSide() = %d, want %d", tt.scale, got, tt.unit)
		}
		if got := v.ProjectileSide(); got != tt.projectile {
			t.Errorf("Scale %v: ProjectileSide() = %d, want %d", tt.scale, got, tt.projectile)
		}
	}
}
