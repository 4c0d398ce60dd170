package codegen

// The main file's side of the SIMD variants: the hooks the SIMD file
// (simd.go) plugs into. A system with a variant gets a package-level
// variable per vector width, nil unless the SIMD file's init sets it (a
// GOEXPERIMENT=simd build on amd64), a lane picked at set-up, and a span
// function that runs the variant on whole vectors and its scalar loop on
// the rest. Everything here calls the face only.

import (
	"strconv"
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
	g.doc("SetLane makes the systems with a SIMD variant (%s) run lane l: each its variant of the widest lane at most l that this build has, else its scalar loop (tickwork.LaneScalar forces the scalar loop). Every lane gives the same bits. It returns the error of tickwork.SelectLane, and changes nothing, when this build or CPU cannot run l. Call it before Builder.Add(s.All()...) (System reports the lane) and before Build, from one goroutine.", strings.Join(names, ", "))
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
		g.p("s.%s.setLane(l)", exported(y.Name))
	}
	g.p("}")
	g.p("")
}

// simdHooks writes a variant system's hook variables and its setLane.
func (sg *sysGen) simdHooks() {
	g := sg.g
	kt := sg.lower + "Kernel"
	vars := make([]string, len(simdWidths))
	for i, w := range simdWidths {
		vars[i] = sg.simdVar(w.w)
	}
	g.doc("%s are the SIMD variants of the kernel of %s, %s rows wide (see %s.span), set by the init of the SIMD file generated beside this one, in a build with GOEXPERIMENT=simd on amd64; nil in every other build.",
		strings.Join(vars, ", "), sg.name, widthList(), kt)
	g.p("var %s func(k *%s, lo, hi int) int", strings.Join(vars, ", "), kt)
	g.p("")
	g.p("// setLane makes the kernel run lane l (Systems.SetLane).")
	g.p("func (s *%s) setLane(l tickwork.Lane) {", sg.name)
	g.p("s.k.simd, s.lane = nil, tickwork.LaneScalar")
	g.p("switch {")
	for i := len(simdWidths) - 1; i >= 0; i-- {
		w := simdWidths[i]
		g.p("case l >= %s && %s != nil:", w.lane, sg.simdVar(w.w))
		g.p("s.k.simd, s.lane = %s, %s", sg.simdVar(w.w), w.lane)
	}
	g.p("}")
	g.p("}")
	g.p("")
}

func widthList() string {
	ws := make([]string, len(simdWidths))
	for i, w := range simdWidths {
		ws[i] = strconv.Itoa(w.w)
	}
	return strings.Join(ws, " and ")
}

// spanChunk writes the dense kernel of a variant system: chunk (both
// drivers) runs span over the chunk's rows up to Table.LiveEnd; span runs the
// lane's variant on the longest prefix of whole vectors, then the scalar
// loop on the rest.
func (sg *sysGen) spanChunk() {
	g := sg.g
	g.p("// chunk is the kernel of chunk c (worker unused), for both drivers.")
	g.p("func (k *%sKernel) chunk(_, c int) {", sg.lower)
	g.p("base := c * k.rows")
	g.p("k.span(base, base+k.table.LiveEnd(c))")
	g.p("}")
	g.p("")
	g.p("// span runs the body on rows lo..hi-1 of the whole columns, holes")
	g.p("// included: the lane's SIMD variant on whole vectors, when it has one,")
	g.p("// then the scalar loop on the rest.")
	g.p("func (k *%sKernel) span(lo, hi int) {", sg.lower)
	g.p("if k.simd != nil {")
	g.p("lo = k.simd(k, lo, hi)")
	g.p("}")
	loc := newLocals(append([]string{"k", "c", "w", "base", "lo", "hi", "i"}, g.top...)...)
	sg.env = map[string]string{}
	sg.envValues(loc)
	sg.rows(loc, "lo", "hi", "")
	g.p("}")
	g.p("")
}
