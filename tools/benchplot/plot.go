package main

import (
	"fmt"
	"os"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// writePNG draws one panel per report, side by side, into the PNG file
// name.
func writePNG(name string, reps []*scaling) error {
	row := make([]*plot.Plot, len(reps))
	for i, s := range reps {
		p, err := panel(s)
		if err != nil {
			return err
		}
		row[i] = p
	}
	img := vgimg.New(vg.Points(float64(420*len(reps))), vg.Points(380))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: len(reps), PadX: vg.Millimeter * 4, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align([][]*plot.Plot{row}, tiles, dc)
	for i, p := range row {
		p.Draw(canvases[0][i])
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// panel is one report's plot: µs by worker count.
func panel(s *scaling) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("arena, %s units", group(s.units))
	p.X.Label.Text = "kernel workers"
	p.Y.Label.Text = "µs per frame"
	p.Y.Min = 0
	var ticks []plot.Tick
	for _, n := range s.workers {
		ticks = append(ticks, plot.Tick{Value: float64(n), Label: strconv.Itoa(n)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = float64(s.workers[0])-0.2, float64(s.workers[len(s.workers)-1])+0.2
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	series := append([]string{"frame p50"}, plotted...)
	for i, name := range series {
		xys := make(plotter.XYs, len(s.workers))
		for j, n := range s.workers {
			v := s.runtime[j].FrameP50US
			if i > 0 {
				var err error
				if v, err = systemMean(&s.runtime[j], name); err != nil {
					return nil, err
				}
			}
			xys[j] = plotter.XY{X: float64(n), Y: v}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		line.Color = plotutil.Color(i)
		points.Color = plotutil.Color(i)
		points.Shape = plotutil.Shape(i)
		if i == 0 {
			line.Width = vg.Points(2)
		}
		p.Add(line, points)
		p.Legend.Add("runtime "+name, line, points)
	}
	if s.baseline != nil {
		v := s.baseline.FrameP50US
		f := plotter.NewFunction(func(float64) float64 { return v })
		f.Color = plotutil.Color(0)
		f.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(f)
		p.Legend.Add("hand-written baseline, frame p50 (1 worker)", f)
		if v > p.Y.Max {
			p.Y.Max = v
		}
	}
	p.Y.Max *= 1.45 // room for the legend
	return p, nil
}

// group writes n with thin spaces between groups of three digits.
func group(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + " " + s[i:]
	}
	return s
}
