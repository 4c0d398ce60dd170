package codegen

// The main file's side of the SIMD variants: the hooks the SIMD file
// (simd.go) plugs into. A system with a variant gets a package-level
// variable per vector width, nil unless the SIMD file's init sets it (a
// GOEXPERIMENT=simd build on amd64), a lane picked at set-up, and a span
// function that runs the variant on whole vectors and its scalar loop on
// the rest. A masked kernel with one join gets a scan hook instead: a
// variable per width that the package's own SIMD code may set (the
// generator writes no scan), and a chunk that runs the body on the rows
// the scan marks. Everything here calls the face only.

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// simdSystems lists the systems with a SIMD variant, in schema order.
func (g *gen) simdSystems() []*schema.System {
	var out []*schema.System
	for _, y := range g.s.Systems {
		if g.simd[y] {
			out = append(out, y)
		}
	}
	return out
}

// laneSystems lists the systems with a SIMD variant or a scan hook (the
// systems Systems.SetLane sets), in schema order.
func (g *gen) laneSystems() []*schema.System {
	var out []*schema.System
	for _, y := range g.s.Systems {
		if g.simd[y] || g.scan[y] {
			out = append(out, y)
		}
	}
	return out
}

// laneKinds names what the lane systems have: "a SIMD variant", "a scan
// hook" or both.
func (g *gen) laneKinds() string {
	simd, scan := len(g.simdSystems()) > 0, false
	for _, y := range g.s.Systems {
		scan = scan || g.scan[y]
	}
	switch {
	case simd && scan:
		return "a SIMD variant or a scan hook"
	case scan:
		return "a scan hook"
	}
	return "a SIMD variant"
}

// scanHook says whether system y gets a scan hook: a masked kernel (a
// system over a table that is not dense) with one join (docs/schema.md,
// SIMD variants, Scan hooks).
func scanHook(y *schema.System) bool {
	return y.From.Kind != schema.EventVar && !y.Dense && len(y.Joins) == 1
}

// scanVar is the Go name of a system's scan hook of width w: the
// package-level variable the package's hand-written scan sets.
func (sg *sysGen) scanVar(w int) string { return fmt.Sprintf("%sScan%d", sg.lower, w) }

// setLane writes Systems.SetLane and Systems.setLane, when a system has a
// SIMD variant or a scan hook.
func (g *gen) setLane() {
	ys := g.laneSystems()
	if len(ys) == 0 {
		return
	}
	names := make([]string, len(ys))
	for i, y := range ys {
		names[i] = exported(y.Name)
	}
	how := "tickwork.SIMDVariant"
	switch {
	case len(g.simdSystems()) == 0:
		how = "tickwork.ScanVariant"
	case len(g.simdSystems()) < len(ys):
		how = "tickwork.SIMDVariant, tickwork.ScanVariant"
	}
	g.doc("SetLane makes the systems with %s (%s) run lane l (%s), or returns tickwork.SelectLane's error and changes nothing. Call it before Builder.Add(s.All()...), from one goroutine.", g.laneKinds(), strings.Join(names, ", "), how)
	g.p("func (s *Systems) SetLane(l tickwork.Lane) error {")
	g.p("if _, err := tickwork.SelectLane(l); err != nil {")
	g.p("return err")
	g.p("}")
	g.p("s.setLane(l)")
	g.p("return nil")
	g.p("}")
	g.p("")
	g.p("func (s *Systems) setLane(l tickwork.Lane) {")
	for _, y := range ys {
		sg := newSysGen(g, y)
		n := exported(y.Name)
		if g.scan[y] {
			g.p("s.%s.scan, s.%s.lane = tickwork.ScanVariant(l, %s, %s)", n, n, sg.scanVar(8), sg.scanVar(16))
			continue
		}
		g.p("s.%s.simd, s.%s.lane = tickwork.SIMDVariant(l, %s, %s)", n, n, sg.simdVar(8), sg.simdVar(16))
		if sg.simdMarks() {
			g.p("if s.%s.simd != nil { // the variant cannot mark: simdMarking keeps the old keys and marks", n)
			g.p("s.%s.simdv, s.%s.simd = s.%s.simd, (*%s).simdMarking", n, n, n, n)
			g.p("}")
		}
	}
	g.p("}")
	g.p("")
	if simd := g.simdSystems(); len(simd) > 0 {
		g.p("// The SIMD variants of the systems that have one (8 and 16 rows a vector), set by the SIMD file's init.")
		g.p("var (")
		for _, y := range simd {
			sg := newSysGen(g, y)
			g.p("%s, %s func(k *%s, lo, hi int) int", sg.simdVar(8), sg.simdVar(16), sg.name)
		}
		g.p(")")
		g.p("")
	}
	var scans []*schema.System
	for _, y := range ys {
		if g.scan[y] {
			scans = append(scans, y)
		}
	}
	if len(scans) > 0 {
		g.p("// The scans of the systems with a scan hook (8 and 16 rows a vector), nil until the package's own SIMD code sets them (docs/schema.md, Scan hooks).")
		g.p("var (")
		for _, y := range scans {
			sg := newSysGen(g, y)
			g.p("%s, %s func(k *%s, row int, live uint64) uint64", sg.scanVar(8), sg.scanVar(16), sg.name)
		}
		g.p(")")
		g.p("")
	}
}
