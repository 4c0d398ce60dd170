package marks

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/raster"
)

// weakestModel is the hand model of the query over the presentation
// buffer: the live slots by health ascending, then slot, the first N.
func weakestModel(pres []rules.Slot) []int {
	var live []int
	for i, p := range pres {
		if p.Alive != 0 {
			live = append(live, i)
		}
	}
	slices.SortStableFunc(live, func(a, b int) int { return cmp.Compare(pres[a].Health, pres[b].Health) })
	return live[:min(N, len(live))]
}

func pixel(c *raster.Canvas, x, y int) uint32 {
	return binary.LittleEndian.Uint32(c.Pix[4*(y*c.W+x):])
}

// TestWeakestRingsTheTenWeakest runs the runtime arena for a few frames,
// updates the query between frames and checks that the rings stand
// around the ten weakest units of the hand model: the ring's corner
// pixels are Highlight at each, and no Highlight pixel lies outside the
// rings.
func TestWeakestRingsTheTenWeakest(t *testing.T) {
	sim, err := arena.New(rules.Config{Units: 2000, Shots: 64, Seed: 5, Workers: 1})
	require.NoError(t, err)
	defer sim.Close()
	w := New(sim.Tables())
	c := raster.NewCanvas(800, 800)
	v := raster.FitView(800, 800)
	hl := binary.LittleEndian.Uint32([]byte{raster.Highlight.R, raster.Highlight.G, raster.Highlight.B, raster.Highlight.A})
	for frame := range 40 {
		require.NoError(t, sim.Frame())
		w.Update()
		pres := sim.Presentation()
		want := weakestModel(pres)
		got := make([]int, 0, N)
		for _, r := range w.Rows() {
			got = append(got, int(r.Unit.Index()))
			require.Equal(t, pres[r.Unit.Index()].Health, r.Health, "frame %d", frame)
		}
		require.Equal(t, want, got, "frame %d: the query's ten weakest", frame)

		c.Begin(v)
		c.PlotUnits(v, pres)
		require.Equal(t, len(want), w.Draw(c, v, pres), "frame %d: rings on the canvas", frame)
		inRing := make([]bool, c.W*c.H)
		side := max(raster.HighlightSide, v.UnitSide()+4)
		for _, i := range want {
			sx, sy := v.ToScreen(float64(pres[i].X), float64(pres[i].Y))
			x0, y0 := int(math.Floor(sx))-side/2, int(math.Floor(sy))-side/2
			for _, corner := range [][2]int{{x0, y0}, {x0 + side - 1, y0}, {x0, y0 + side - 1}, {x0 + side - 1, y0 + side - 1}} {
				x, y := corner[0], corner[1]
				if x >= 0 && x < c.W && y >= 0 && y < c.H {
					require.Equal(t, hl, pixel(c, x, y), "frame %d: the ring's corner (%d, %d) of unit %d", frame, x, y, i)
				}
			}
			for y := max(y0, 0); y < min(y0+side, c.H); y++ {
				for x := max(x0, 0); x < min(x0+side, c.W); x++ {
					inRing[y*c.W+x] = true
				}
			}
		}
		stray := 0
		for p := range inRing {
			if !inRing[p] && binary.LittleEndian.Uint32(c.Pix[4*p:]) == hl {
				stray++
			}
		}
		require.Zero(t, stray, "frame %d: Highlight pixels outside the rings", frame)
	}
}

// TestWeakestAllocatesNothing: Update and Draw allocate nothing.
func TestWeakestAllocatesNothing(t *testing.T) {
	sim, err := arena.New(rules.Config{Units: 2000, Shots: 64, Seed: 5, Workers: 1})
	require.NoError(t, err)
	defer sim.Close()
	w := New(sim.Tables())
	c := raster.NewCanvas(320, 320)
	v := raster.FitView(320, 320)
	require.NoError(t, sim.Frame())
	w.Update()
	require.Zero(t, testing.AllocsPerRun(20, func() {
		w.Update()
		w.Draw(c, v, sim.Presentation())
	}))
}
