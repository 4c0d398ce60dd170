package codegen

// The main file's side of the SIMD variants: the hooks the SIMD file
// (simd.go) plugs into. A system with a variant gets a package-level
// variable per vector width, nil unless the SIMD file's init sets it (a
// GOEXPERIMENT=simd build on amd64), a lane picked at set-up, and a span
// function that runs the variant on whole vectors and its scalar loop on
// the rest. Everything here calls the face only.

import (
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

// setLane writes Systems.SetLane and Systems.setLane, when a system has a
// SIMD variant.
func (g *gen) setLane() {
	ys := g.simdSystems()
	if len(ys) == 0 {
		return
	}
	names := make([]string, len(ys))
	for i, y := range ys {
		names[i] = exported(y.Name)
	}
	g.doc("SetLane makes the systems with a SIMD variant (%s) run lane l (tickwork.SIMDVariant), or returns tickwork.SelectLane's error and changes nothing. Call it before Builder.Add(s.All()...), from one goroutine.", strings.Join(names, ", "))
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
		g.p("s.%s.simd, s.%s.lane = tickwork.SIMDVariant(l, %s, %s)", n, n, sg.simdVar(8), sg.simdVar(16))
	}
	g.p("}")
	g.p("")
	g.p("// The SIMD variants of the systems that have one (8 and 16 rows a vector), set by the SIMD file's init.")
	g.p("var (")
	for _, y := range ys {
		sg := newSysGen(g, y)
		g.p("%s, %s func(k *%s, lo, hi int) int", sg.simdVar(8), sg.simdVar(16), sg.name)
	}
	g.p(")")
	g.p("")
}
