package main

import (
	"fmt"
	"math"
	"os"

	"github.com/tickwork/tickwork/bench/corpus"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// plotted are the ways drawn, as ratios over the hand loop.
var plotted = []string{"sqlite", "sqlite_index", "generated", "parallel"}

// writePlot draws, per case, each way's median time over the hand loop's
// as horizontal bars on a log scale (log10 of the ratio) (a missing way draws nothing), into
// the PNG file name.
func writePlot(name string, sums []corpus.Summary) error {
	p := plot.New()
	p.Title.Text = "query corpus: time over the hand-written loop (median, log scale)"
	p.X.Label.Text = "× hand loop"
	// bars of log10(ratio) on a linear axis, labelled in powers of ten
	// (a bar starts at 0, ratio 1; a log axis cannot draw a bar's base)
	top, bottom := 1.0, 0.0
	labels := make([]string, len(sums))
	for i, s := range sums {
		labels[len(sums)-1-i] = s.Case // first case on top
	}
	w := vg.Points(4)
	for k, way := range plotted {
		vals := make(plotter.Values, len(sums))
		drawn := false
		for i := range sums {
			v := 0.0 // nothing to draw: a bar of zero length
			if r := sums[i].Ratio(way); r > 0 {
				drawn = true
				v = math.Log10(r)
				top, bottom = math.Max(top, v), math.Min(bottom, v)
			}
			vals[len(sums)-1-i] = v
		}
		if !drawn {
			continue
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return fmt.Errorf("plot %s: %w", way, err)
		}
		bars.Horizontal = true
		bars.Color = plotutil.Color(k)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(k-1) * w
		p.Add(bars)
		p.Legend.Add(way+" / hand", bars)
	}
	var ticks []plot.Tick
	for e := int(math.Floor(bottom)); float64(e) <= math.Ceil(top); e++ {
		ticks = append(ticks, plot.Tick{Value: float64(e), Label: fmt.Sprintf("%g×", math.Pow(10, float64(e)))})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = math.Floor(bottom), math.Ceil(top)
	p.Legend.Top = false // bottom right, below the shortest bars
	p.Legend.Left = false
	p.NominalY(labels...)
	img := vgimg.New(vg.Points(720), vg.Points(float64(60+16*len(sums))))
	p.Draw(draw.New(img))
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
