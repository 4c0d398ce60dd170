package codegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// Fused upkeep (docs/schema.md, Indexes): a declared system that writes a
// key column of a table's index declares it with tickwork.MaintainIndex
// and marks the rows whose key may have changed, so that the sync after
// it visits those rows only:
//
//   - the from row's keys: kept at the row's start, compared at its end
//     by != (a NaN always marked); a grid's point, when the system uses
//     both its columns, is tested at the row's end against the bounds
//     of the cell the row is filed in (IndexMarks.Filing,
//     index.Bounds.Holds: four comparisons a row, exact for any cell),
//     else both cells are computed (indexCellMoved);
//   - a SIMD variant marks in its own loop, a mask of the vector's rows a
//     test (vectorMarks: the keys' lanes by !=, a grid's cells of a
//     power-of-two side by truncation in float32); one that cannot (a
//     grid of another side) runs in blocks of 64 rows whose old keys are
//     kept and compared after it (simdMarking);
//   - a joined row's keys (only a system over an event table writes
//     them): marked at each assignment.
//
// Marks are per row; a parallel kernel marks only its own chunks' rows.

// maintained lists the indexes whose key columns the system writes, in
// declaration order.
func (sg *sysGen) maintained() []*schema.Index {
	var out []*schema.Index
	for _, ix := range sg.g.s.Indexes {
		if ix.Table == nil {
			continue
		}
		if sg.writesKey(ix, nil) {
			out = append(out, ix)
		}
	}
	return out
}

// writesKey: the system writes a key column of ix through variable v (any
// variable when v is nil).
func (sg *sysGen) writesKey(ix *schema.Index, v *schema.Var) bool {
	for uv, m := range sg.uses {
		if v != nil && uv != v {
			continue
		}
		for _, c := range ix.Columns {
			if u := m[c]; u != nil && u.write {
				return true
			}
		}
	}
	return false
}

// fromMaintained lists the indexes whose keys the system writes through
// its from row.
func (sg *sysGen) fromMaintained() []*schema.Index {
	var out []*schema.Index
	for _, ix := range sg.maintained() {
		if sg.writesKey(ix, sg.y.From) {
			out = append(out, ix)
		}
	}
	return out
}

// upkeepGrid: some declared system keeps a grid by its fused marks (its
// kernel state names index.Bounds, or it calls indexCellMoved).
func upkeepGrid(g *gen) bool {
	t := cellTests(g)
	return t[cellMoved] || t[cellFiled]
}

// The grids' fused tests: the generated function indexCellMoved, and the
// filed cell's bounds (no function: cellFiled names the test in
// cellTests).
const (
	cellMoved = "indexCellMoved"
	cellFiled = "filed"
)

// cellTests lists the grid tests the generated systems call.
func cellTests(g *gen) map[string]bool {
	out := map[string]bool{}
	for _, y := range g.s.Systems {
		sg := newSysGen(g, y)
		for _, ix := range sg.fromMaintained() {
			if ix.Kind != schema.GridIndex {
				continue
			}
			if sg.gridCells(ix) {
				out[cellFiled] = true
			} else {
				out[cellMoved] = true
			}
			if sg.simdMarks() {
				out[cellMoved] = true
			}
		}
	}
	return out
}

// gridCells: the system's from rows keep grid ix by its filed cells
// (IndexMarks.Filing): the system uses both of ix's columns.
func (sg *sysGen) gridCells(ix *schema.Index) bool {
	return ix.Kind == schema.GridIndex && sg.uses[sg.y.From][ix.Columns[0]] != nil && sg.uses[sg.y.From][ix.Columns[1]] != nil
}

// pow2Cell: ix's cell is a power of two whose inverse is a normal float32,
// so that v*(1/cell) in float32 is exact and equals the grid's float64
// product (docs/schema.md, Indexes).
func pow2Cell(ix *schema.Index) bool {
	f, e := math.Frexp(float64(ix.Cell))
	return f == 0.5 && e-1 > -126 && e-1 < 126
}

// recField and boxField are the kernel state's fields of grid ix's
// filing (IndexMarks.Filing).
func (sg *sysGen) recField(ix *schema.Index) string {
	return sg.stateField("rec:"+ix.Name, "rec"+exported(ix.Name))
}

func (sg *sysGen) boxField(ix *schema.Index) string {
	return sg.stateField("box:"+ix.Name, "box"+exported(ix.Name))
}

// markField is the kernel state's field of index ix's marks.
func (sg *sysGen) markField(ix *schema.Index) string {
	return sg.stateField("mark:"+ix.Name, "mark"+exported(ix.Name))
}

// simdMarks: the system's SIMD variant runs through simdMarking.
func (sg *sysGen) simdMarks() bool {
	return sg.g.simd[sg.y] && len(sg.fromMaintained()) > 0 && !sg.vectorMarks()
}

// vectorMarks: the system's SIMD variant marks its rows itself (every
// index it maintains through its from row is tested in vectors: a grid
// only of a power-of-two cell).
func (sg *sysGen) vectorMarks() bool {
	for _, ix := range sg.fromMaintained() {
		if ix.Kind == schema.GridIndex && !pow2Cell(ix) {
			return false
		}
	}
	return true
}

// markFields lists the kernel state's fields of the marks.
func (sg *sysGen) markFields() []field {
	var fs []field
	for _, ix := range sg.maintained() {
		fs = append(fs, field{sg.markField(ix), "tickwork.IndexMarks", "index " + ix.Name + ": the rows whose key may have changed"})
	}
	for _, ix := range sg.fromMaintained() {
		if sg.gridCells(ix) {
			fs = append(fs, field{sg.recField(ix), "[]int32", "index " + ix.Name + ": the cell record each row is filed in (IndexMarks.Filing)"},
				field{sg.boxField(ix), "[]index.Bounds", "index " + ix.Name + ": each cell record's bounds (IndexMarks.Filing)"})
		}
	}
	if sg.simdMarks() {
		fs = append(fs, field{"simdv", "func(k *" + sg.name + ", lo, hi int) int", "the lane's SIMD variant, run by simdMarking"})
	}
	return fs
}

// declareMarks declares each maintained index (MaintainIndex) into the
// kernel state (prefix "s.") or into locals (an event system: prefix "",
// loc names them); it sets the env's marks:NAME.
func (sg *sysGen) declareMarks(loc *locals) {
	for _, ix := range sg.maintained() {
		var n string
		if loc == nil {
			n = "s." + sg.markField(ix)
			sg.g.p("%s = tickwork.MaintainIndex(d, s.t.Indexes.%s)", n, exported(ix.Name))
			if sg.writesKey(ix, sg.y.From) && sg.gridCells(ix) {
				sg.g.p("s.%s, s.%s = %s.Filing()", sg.recField(ix), sg.boxField(ix), n)
			}
		} else {
			n = loc.name("mark" + exported(ix.Name))
			sg.g.p("%s := tickwork.MaintainIndex(d, s.t.Indexes.%s)", n, exported(ix.Name))
		}
		sg.env["marks:"+ix.Name] = n
	}
}

// kernelMarks points the env's marks at the kernel state (in a chunk or
// span method, receiver k).
func (sg *sysGen) kernelMarks() {
	for _, ix := range sg.maintained() {
		sg.env["marks:"+ix.Name] = "k." + sg.markField(ix)
	}
	for _, ix := range sg.fromMaintained() {
		if sg.gridCells(ix) {
			sg.env["rec:"+ix.Name], sg.env["box:"+ix.Name] = "k."+sg.recField(ix), "k."+sg.boxField(ix)
		}
	}
}

// markAssign marks the joined row an assignment wrote when its column is
// a key of a maintained index (from rows are compared at their end).
func (sg *sysGen) markAssign(a *schema.AssignStmt) {
	v := a.Target.Var
	if v == sg.y.From {
		return
	}
	for _, ix := range sg.maintained() {
		for _, c := range ix.Columns {
			if c == a.Target.Column {
				sg.g.p("%s.Mark(%s)", sg.env["marks:"+ix.Name], sg.env["row:"+v.Name])
			}
		}
	}
}

// keyChanged is the Go test that index ix's key changed from the values
// olds to news (one per key column).
func keyChanged(ix *schema.Index, olds, news []string) string {
	var parts []string
	for i := range olds {
		if ix.Kind == schema.GridIndex {
			inv := strconv.FormatFloat(1/float64(ix.Cell), 'g', -1, 64)
			parts = append(parts, fmt.Sprintf("indexCellMoved(%s, %s, %s)", olds[i], news[i], inv))
			continue
		}
		parts = append(parts, olds[i]+" != "+news[i])
	}
	return strings.Join(parts, " || ")
}

// cellMovedFunc writes indexCellMoved, the fused upkeep's test of a grid
// coordinate, when a system maintains a grid.
func (g *gen) cellMovedFunc() {
	tests := cellTests(g)
	if !tests[cellMoved] {
		return
	}
	g.p("// indexCellMoved reports whether a grid coordinate may have changed cell")
	g.p("// from o to n (inv: 1/cell, the grid's rule floor(v*inv) in float64):")
	g.p("// for 0 <= v*inv < 2^31 the floor is the truncation; a negative, NaN,")
	g.p("// infinite or larger value is always reported (the sync decides).")
	g.p("// docs/schema.md, Indexes.")
	g.p("func indexCellMoved(o, n float32, inv float64) bool {")
	g.p("a, b := float64(o)*inv, float64(n)*inv")
	g.p("if !(a >= 0 && b >= 0 && a < 2147483648 && b < 2147483648) {")
	g.p("return true")
	g.p("}")
	g.p("ca, cb := int32(a), int32(b)")
	g.p("return ca != cb")
	g.p("}")
	g.p("")
}

// keepKeys writes, at a from row's start, the locals of its maintained
// keys' old values (spans: the column spans by column name) and returns
// the test to write at the row's end.
func (sg *sysGen) keepKeys(loc *locals, spans map[*schema.Column]string, row string) func() {
	ixs := sg.fromMaintained()
	if len(ixs) == 0 {
		return func() {}
	}
	olds := map[*schema.Column]string{}
	var lhs, rhs []string
	for _, ix := range ixs {
		if sg.gridCells(ix) {
			continue // tested against its filed cells: no old values
		}
		for _, c := range ix.Columns {
			if _, ok := olds[c]; ok || spans[c] == "" {
				continue
			}
			n := loc.name("old" + goCol(c))
			olds[c] = n
			lhs, rhs = append(lhs, n), append(rhs, spans[c]+"[i]")
		}
	}
	sg.g.defs(lhs, rhs)
	return func() {
		for _, ix := range ixs {
			if sg.gridCells(ix) {
				sg.g.p("if %s && !%s[%s[i]].Holds(%s[i], %s[i]) {", sg.env["on:"+ix.Name], sg.env["boxes:"+ix.Name], sg.env["recspan:"+ix.Name],
					spans[ix.Columns[0]], spans[ix.Columns[1]])
				sg.g.p("%s.Mark(%s)", sg.env["marks:"+ix.Name], row)
				sg.g.p("}")
				continue
			}
			var os, ns []string
			for _, c := range ix.Columns {
				if olds[c] == "" {
					continue
				}
				os, ns = append(os, olds[c]), append(ns, spans[c]+"[i]")
			}
			sg.g.p("if %s {", keyChanged(ix, os, ns))
			sg.g.p("%s.Mark(%s)", sg.env["marks:"+ix.Name], row)
			sg.g.p("}")
		}
	}
}

// simdMarking writes the method that runs a dense system's SIMD variant
// (which cannot mark) in blocks of 64 rows, each block's old keys kept on
// the stack and compared after it.
func (sg *sysGen) simdMarking() {
	g, y := sg.g, sg.y
	ixs := sg.fromMaintained()
	var cols []*schema.Column
	for _, ix := range ixs {
		for _, c := range ix.Columns {
			if !containsCol(cols, c) && sg.uses[y.From][c] != nil {
				cols = append(cols, c)
			}
		}
	}
	g.p("// simdMarking runs the lane's SIMD variant (k.simdv) on rows lo..hi-1 in blocks of 64 rows, each block's old keys kept, and marks the rows whose key may have changed (docs/schema.md, Indexes: a SIMD variant cannot mark); it returns where the variant stopped.")
	g.p("func (k *%s) simdMarking(lo, hi int) int {", sg.name)
	g.p("for b := lo; b < hi; {")
	g.p("e := min(b+64, hi)")
	for i, c := range cols {
		g.p("var old%d [64]%s", i, goType(c.Type))
		g.p("copy(old%d[:], k.%s[b:e])", i, colField(sg, y.From, c))
	}
	g.p("n := k.simdv(k, b, e)")
	g.p("for r := b; r < n; r++ {")
	for _, ix := range ixs {
		var os, ns []string
		for _, c := range ix.Columns {
			for i, cc := range cols {
				if cc == c {
					os = append(os, fmt.Sprintf("old%d[r-b]", i))
					ns = append(ns, "k."+colField(sg, y.From, c)+"[r]")
				}
			}
		}
		g.p("if %s {", keyChanged(ix, os, ns))
		g.p("k.%s.Mark(r)", sg.markField(ix))
		g.p("}")
	}
	g.p("}")
	g.p("if n < e {")
	g.p("return n")
	g.p("}")
	g.p("b = e")
	g.p("}")
	g.p("return hi")
	g.p("}")
	g.p("")
}

func containsCol(cs []*schema.Column, c *schema.Column) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// invLiteral is 1/cell of grid ix as a Go literal: a float32 one for
// indexCellLeft32, a float64 one otherwise.
func invLiteral(ix *schema.Index) string {
	if pow2Cell(ix) {
		return strconv.FormatFloat(float64(float32(1/float64(ix.Cell))), 'g', -1, 32)
	}
	return strconv.FormatFloat(1/float64(ix.Cell), 'g', -1, 64)
}

// cellSpans writes, before a from-row loop over rows lo..hi, the locals
// of each grid the loop keeps by its filed cells: the span of the rows'
// cell records (as long as the first column span, first), the records'
// bounds and whether the marks are on, so that the loop loads none of
// them from the kernel state.
func (sg *sysGen) cellSpans(loc *locals, lo, hi, first string) {
	for _, ix := range sg.fromMaintained() {
		if !sg.gridCells(ix) || first == "" {
			continue
		}
		r, b, on := loc.name("rec"+exported(ix.Name)), loc.name("box"+exported(ix.Name)), loc.name("on"+exported(ix.Name))
		sg.g.p("%s, %s := %s.On(), %s", on, b, sg.env["marks:"+ix.Name], sg.env["box:"+ix.Name])
		sg.g.p("var %s []int32 // nil when the marks are off (WithoutIndexes)", r)
		sg.g.p("if %s {", on)
		sg.g.p("%s = %s[%s : %s][:len(%s)]", r, sg.env["rec:"+ix.Name], lo, hi, first)
		sg.g.p("}")
		sg.env["recspan:"+ix.Name], sg.env["boxes:"+ix.Name], sg.env["on:"+ix.Name] = r, b, on
	}
}
