package codegen

// SIMD variants: which declared systems get one (the subset is documented
// once, in docs/schema.md, SIMD variants) and the second generated file,
// built only with GOEXPERIMENT=simd on amd64, that holds them. The main
// file's side (the hooks a variant plugs into) is in engine.go and
// engine_system.go.

import (
	"fmt"
	"go/constant"
	"go/format"
	"go/token"
	"slices"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// SIMDNote says whether one declared system got a SIMD variant and, when
// not, why.
type SIMDNote struct {
	System string     // the declared system's name
	SIMD   bool       // it has a SIMD variant (8 and 16 float32/int32 lanes)
	Pos    schema.Pos // when !SIMD: the construct outside the subset
	Reason string     // when !SIMD: what keeps it scalar, in the schema's terms
}

// String is the note as the command prints it: "S: SIMD variant
// (Float32x8 for avx2, Float32x16 for avx512)" or "S: no SIMD variant:
// FILE:LINE:COL: REASON".
func (n SIMDNote) String() string {
	if n.SIMD {
		return n.System + ": SIMD variant (8 rows a vector for avx2, 16 for avx512)"
	}
	return n.System + ": no SIMD variant: " + n.Pos.String() + ": " + n.Reason
}

// SIMDNotes returns a note per declared system of s, in schema order:
// which get a SIMD variant and why the others do not. Safe for concurrent
// use.
func SIMDNotes(s *schema.Schema) []SIMDNote {
	out := make([]SIMDNote, len(s.Systems))
	for i, y := range s.Systems {
		out[i] = simdCheck(y)
	}
	return out
}

// simdWidths are the vector widths a variant is generated for, and the
// lane of each (tickwork.Lane constants).
var simdWidths = []struct {
	w    int
	lane string
}{{8, "tickwork.LaneAVX2"}, {16, "tickwork.LaneAVX512"}}

// simdCheck decides whether y is in the SIMD subset.
func simdCheck(y *schema.System) SIMDNote {
	no := func(p schema.Pos, format string, args ...any) SIMDNote {
		return SIMDNote{System: y.Name, Pos: p, Reason: fmt.Sprintf(format, args...)}
	}
	if y.From.Kind != schema.RowVar {
		return no(y.From.Pos, "it runs over event table %s (one event at a time, in emission order)", y.From.Event.Name)
	}
	if len(y.Joins) > 0 {
		return no(y.Joins[0].Pos, "it joins table %s (a probe per row)", y.Joins[0].Table.Name)
	}
	if p, why, ok := simdStmts(y.Body); !ok {
		return no(p, "%s", why)
	}
	if !y.Dense {
		// Not reached by a body simdStmts accepts; kept as the rule.
		return no(y.Pos, "its body is not dense (it does more than set its row's columns)")
	}
	if len(y.Access.Writes) == 0 {
		return no(y.Pos, "its body sets nothing")
	}
	return SIMDNote{System: y.Name, SIMD: true}
}

// simdStmts checks statements against the subset: set and match only.
func simdStmts(ss []schema.Stmt) (schema.Pos, string, bool) {
	for _, s := range ss {
		switch s := s.(type) {
		case *schema.SetStmt:
			for _, a := range s.Assigns {
				if why, ok := simdType(a.Target.Column.Type); !ok {
					return a.Target.Pos, fmt.Sprintf("column %s.%s is %s", a.Target.Column.Table.Name, a.Target.Column.Name, why), false
				}
				if p, why, ok := simdExpr(a.Value); !ok {
					return p, why, false
				}
			}
		case *schema.MatchStmt:
			for _, a := range s.Arms {
				if a.Cond != nil {
					if p, why, ok := simdExpr(a.Cond); !ok {
						return p, why, false
					}
				}
				if p, why, ok := simdStmts(a.Body); !ok {
					return p, why, false
				}
			}
		case *schema.EmitStmt:
			return s.Pos, "it emits " + s.Event.Name + " events", false
		case *schema.DeleteStmt:
			return s.Pos, "it deletes rows", false
		case *schema.CountStmt:
			return s.Pos, "it counts " + s.Name, false
		}
	}
	return schema.Pos{}, "", true
}

// simdType says whether a value of type t has a vector type (float32,
// int32), and what it is when not.
func simdType(t schema.Type) (string, bool) {
	switch t.Kind {
	case schema.Float32, schema.Int32:
		return "", true
	}
	return t.String() + " (SIMD variants take float32 and int32)", false
}

// simdExpr checks an expression against the subset.
func simdExpr(e schema.Expr) (schema.Pos, string, bool) {
	switch e := e.(type) {
	case *schema.Lit:
		if why, ok := simdType(e.T); !ok {
			return e.Pos, "a constant of type " + why, false
		}
	case *schema.ColRef:
		if why, ok := simdType(e.Column.Type); !ok {
			return e.Pos, fmt.Sprintf("column %s.%s is %s", e.Column.Table.Name, e.Column.Name, why), false
		}
	case *schema.ResRef:
		if e.Index != nil {
			return e.Pos, fmt.Sprintf("it reads an element of resource array %s (a gather)", resKey(e)), false
		}
		if why, ok := simdType(e.Type()); !ok {
			return e.Pos, fmt.Sprintf("resource field %s is %s", resKey(e), why), false
		}
	case *schema.VarRef, *schema.IndexOf:
		return e.Position(), "it uses its row's handle", false
	case *schema.EnvRef:
		if e.Env == schema.Tick {
			return e.Pos, "@tick is int64 (SIMD variants take float32 and int32)", false
		}
		if why, ok := simdType(e.T); !ok {
			return e.Pos, "@dt is " + why, false
		}
	case *schema.Unary:
		return simdExpr(e.X)
	case *schema.Binary:
		switch {
		case (e.Op == schema.Div || e.Op == schema.Rem) && e.T.Kind == schema.Int32:
			return e.Pos, "integer " + e.Op.String() + " has no SIMD instruction", false
		case e.Op.IsComparison() && e.X.Type().Kind == schema.Bool:
			return e.Pos, "a comparison of bools", false
		}
		if p, why, ok := simdExpr(e.X); !ok {
			return p, why, false
		}
		return simdExpr(e.Y)
	case *schema.Convert:
		if why, ok := simdType(e.T); !ok {
			return e.Pos, "a conversion to " + why, false
		}
		return simdExpr(e.X)
	case *schema.Probe:
		return e.Pos, "it tests a join", false
	case *schema.Floor:
		return e.Pos, "floor has no SIMD form here", false
	}
	return schema.Pos{}, "", true
}

// simdVar is the Go name of a system's variant hook of width w: the
// package-level variable the SIMD file sets.
func (sg *sysGen) simdVar(w int) string { return fmt.Sprintf("%sSIMD%d", sg.lower, w) }

// GenerateSIMD returns the Go source of the SIMD file of checked schema
// s, gofmt'd: the first line is "// Code generated by CMD from SOURCE; DO
// NOT EDIT.", then the build constraint `goexperiment.simd && amd64`, a
// comment listing which systems got a SIMD variant and why the others did
// not, and the variants (Float32x8 and Float32x16 kernels of
// simd/archsimd) that plug into the file Generate writes for the same
// schema and config. A schema without a variant gets a file with the
// comment alone. It is a pure function, with Generate's errors; safe for
// concurrent use.
func GenerateSIMD(s *schema.Schema, cfg Config) ([]byte, error) {
	if !token.IsIdentifier(cfg.Package) {
		return nil, fmt.Errorf("codegen: package name %q is not a Go identifier", cfg.Package)
	}
	g := &gen{s: s, cfg: cfg}
	if err := g.checkNames(); err != nil {
		return nil, err
	}
	notes := SIMDNotes(s)
	g.p("// Code generated by %s from %s; DO NOT EDIT.", g.cfg.Command, g.cfg.Source)
	g.p("")
	g.p("//go:build goexperiment.simd && amd64")
	g.p("")
	g.p("package %s", g.cfg.Package)
	g.p("")
	g.p("// The SIMD variants of the declared systems of %s (docs/schema.md,", g.cfg.Source)
	g.p("// SIMD variants); the command prints why the others have none.")
	g.p("")
	var ys []*schema.System
	for i, y := range s.Systems {
		if notes[i].SIMD {
			ys = append(ys, y)
		}
	}
	if len(ys) > 0 {
		mark := g.b.Len()
		g.p(`import "simd/archsimd"`)
		g.p("")
		imp := g.b.Len()
		g.p("func init() {")
		for _, y := range ys {
			sg := newSysGen(g, y)
			for _, w := range simdWidths {
				g.p("%s = (*%s).simd%d", sg.simdVar(w.w), sg.name, w.w)
			}
		}
		g.p("}")
		g.p("")
		for _, y := range ys {
			sg := newSysGen(g, y)
			for _, w := range simdWidths {
				sg.simdFunc(w.w)
			}
		}
		if !g.archsimd {
			// Every variant stores nothing it did not load (set t.X =
			// t.X): none names archsimd, and an unused import does not
			// compile.
			b := g.b.Bytes()
			g.b.Truncate(copy(b[mark:], b[imp:]) + mark)
		}
	}
	out, err := format.Source(g.b.Bytes())
	if err != nil {
		return nil, formatError(err)
	}
	return out, nil
}

// vkind is the kind of a vector value.
type vkind uint8

const (
	vFloat vkind = iota // Float32xW
	vInt                // Int32xW
	vMask               // Mask32xW
)

// vdef is one statement of a variant's loop (or of its prelude): name :=
// code, using the values uses; a store has no name and is always kept.
type vdef struct {
	name, code string
	uses       []string
	load       string // a store: the load of its column, if any
}

// vgen generates one variant: straight-line vector code, every value a
// local defined once, matches as blends (see simdFunc).
type vgen struct {
	sg     *sysGen
	w      int
	loc    *locals
	pre    []vdef // before the loop: broadcasts
	body   []vdef // the loop's statements, in order
	stores []vdef
	consts map[string]string         // broadcast code -> its local
	defs   map[string]string         // a loop statement's code -> its value's name
	loaded map[*schema.Column]string // a column's value at the row's start
	spans  map[*schema.Column]string // a column's span local
	order  []*schema.Column          // the used columns, in declaration order
	env    map[*schema.Column]string // current values of written columns (top level)
	kinds  map[schema.TypeKind]vkind // float32 -> vFloat, int32 -> vInt
	names  map[vkind]string          // Go type names
}

func (v *vgen) typeName(k vkind) string { return v.names[k] }

// def adds a loop statement and returns its value's name; a statement
// already there (every one is pure) gives its value again.
func (v *vgen) def(base string, k vkind, code string, uses ...string) string {
	if n, ok := v.defs[code]; ok {
		return n
	}
	n := v.loc.name(base)
	v.body = append(v.body, vdef{name: n, code: code, uses: uses})
	v.defs[code] = n
	return n
}

// konst returns the local holding a broadcast (hoisted before the loop).
func (v *vgen) konst(base string, code string) string {
	if n, ok := v.consts[code]; ok {
		return n
	}
	n := v.loc.name(base)
	v.consts[code] = n
	v.pre = append(v.pre, vdef{name: n, code: code})
	return n
}

// value returns the current value of column c in env: written, else its
// load (emitted once, at first use).
func (v *vgen) value(env map[*schema.Column]string, c *schema.Column) string {
	if n, ok := env[c]; ok {
		return n
	}
	if n, ok := v.loaded[c]; ok {
		return n
	}
	span := v.spans[c]
	k := v.kinds[c.Type.Kind]
	code := fmt.Sprintf("archsimd.Load%s(%s)", strings.TrimPrefix(v.typeName(k), "archsimd."), v.vector(span, c))
	n := v.def(unexported(v.sg.y.From.Name)+goCol(c), k, code, span)
	v.loaded[c] = n
	return n
}

// expr returns the value of e in env.
func (v *vgen) expr(env map[*schema.Column]string, e schema.Expr) string {
	switch e := e.(type) {
	case *schema.Lit:
		k := v.kinds[e.T.Kind]
		s := literal(e)
		if e.Const != nil {
			s = exported(e.Const.Name)
		}
		return v.konst("lit", fmt.Sprintf("archsimd.Broadcast%s(%s)", strings.TrimPrefix(v.typeName(k), "archsimd."), s))
	case *schema.ColRef:
		return v.value(env, e.Column)
	case *schema.ResRef:
		k := v.kinds[e.Type().Kind]
		return v.konst("res", fmt.Sprintf("archsimd.Broadcast%s(k.%s%s)", strings.TrimPrefix(v.typeName(k), "archsimd."), v.sg.resField(e.Resource), resGo(e)))
	case *schema.EnvRef:
		return v.konst("dt", fmt.Sprintf("archsimd.Broadcast%s(k.%s)", strings.TrimPrefix(v.typeName(vFloat), "archsimd."), v.sg.field["dt32"]))
	case *schema.Unary:
		x := v.expr(env, e.X)
		switch {
		case e.Op == schema.Not:
			return v.def("m", vMask, fmt.Sprintf("%s.To%s().Not().ToMask()", x, v.intName()), x)
		case e.T.Kind == schema.Float32:
			return v.neg(x)
		default:
			zero := v.konst("zero", v.typeName(vInt)+"{}")
			return v.def("t", vInt, fmt.Sprintf("%s.Sub(%s)", zero, x), zero, x)
		}
	case *schema.Binary:
		if e.Op == schema.Mul && e.T.Kind == schema.Float32 {
			return v.mul(env, v.expr(env, e.X), e.X, e.Y)
		}
		x, y := v.expr(env, e.X), v.expr(env, e.Y)
		method := map[schema.BinaryOp]string{schema.Add: "Add", schema.Sub: "Sub", schema.Mul: "Mul", schema.Div: "Div",
			schema.Eq: "Equal", schema.Ne: "NotEqual", schema.Lt: "Less", schema.Le: "LessEqual", schema.Gt: "Greater",
			schema.Ge: "GreaterEqual", schema.And: "And", schema.Or: "Or"}[e.Op]
		k, base := v.kinds[e.T.Kind], "t"
		if e.T.Kind == schema.Bool {
			k, base = vMask, "m"
		}
		// Mul and Add stay two instructions, each rounding once: never
		// MulAdd (docs/schema.md, the arithmetic rule).
		return v.def(base, k, fmt.Sprintf("%s.%s(%s)", x, method, y), x, y)
	case *schema.Convert:
		x := v.expr(env, e.X)
		if e.X.Type().Kind == e.T.Kind {
			return x
		}
		// int32 -> float32, rounding to nearest as Go's conversion does.
		return v.def("t", vFloat, x+".ConvertToFloat32()", x)
	}
	panic(fmt.Sprintf("codegen: expression %T outside the SIMD subset (a generator bug)", e))
}

// mul is the float32 product of ex (whose value is x) and ey. Mul and Add
// stay two instructions, each rounding once: never MulAdd (docs/schema.md,
// the arithmetic rule). A factor of exactly 1 or -1 is what the Go
// compiler makes of it in the scalar loop (it rewrites x*1 to x and x*-1
// to -x, which differ from a multiply in the bits of a NaN): the other
// factor, or its sign flipped.
func (v *vgen) mul(env map[*schema.Column]string, x string, ex, ey schema.Expr) string {
	if u, ok := unit(ex); ok {
		return v.signed(v.expr(env, ey), u)
	}
	if u, ok := unit(ey); ok {
		return v.signed(x, u)
	}
	y := v.expr(env, ey)
	return v.def("t", vFloat, fmt.Sprintf("%s.Mul(%s)", x, y), x, y)
}

// unit reports whether e is the float constant 1 (+1) or -1 (-1).
func unit(e schema.Expr) (int, bool) {
	l, ok := e.(*schema.Lit)
	if !ok || l.T.Kind != schema.Float32 {
		return 0, false
	}
	switch f, _ := constant.Float64Val(l.Value); f {
	case 1:
		return 1, true
	case -1:
		return -1, true
	}
	return 0, false
}

// signed is x (u = 1) or x with its sign bit flipped (u = -1).
func (v *vgen) signed(x string, u int) string {
	if u > 0 {
		return x
	}
	return v.neg(x)
}

// neg flips the sign bit of the float32 vector x, as Go's unary minus does
// (-(+0) is -0).
func (v *vgen) neg(x string) string {
	sign := v.konst("sign", fmt.Sprintf("archsimd.Broadcast%s(-1 << 31)", v.intName()))
	return v.def("t", vFloat, fmt.Sprintf("%s.As%s().Xor(%s).As%s()", x, v.intName(), sign, v.floatName()), x, sign)
}

// vector is the array pointer of the vector at row i of span, a column
// of c's type: (*[W]float32)(span[i : i+W]).
func (v *vgen) vector(span string, c *schema.Column) string {
	return fmt.Sprintf("(*[%d]%s)(%s[i : i+%d])", v.w, goType(c.Type), span, v.w)
}

func (v *vgen) intName() string   { return strings.TrimPrefix(v.typeName(vInt), "archsimd.") }
func (v *vgen) floatName() string { return strings.TrimPrefix(v.typeName(vFloat), "archsimd.") }

// block runs statements in env, updating it.
func (v *vgen) block(env map[*schema.Column]string, ss []schema.Stmt) {
	for _, s := range ss {
		switch s := s.(type) {
		case *schema.SetStmt:
			for _, a := range s.Assigns {
				c := a.Target.Column
				k := v.kinds[c.Type.Kind]
				if a.Op == schema.MulAssign && k == vFloat {
					env[c] = v.mul(env, v.value(env, c), a.Target, a.Value)
					continue
				}
				x := v.expr(env, a.Value)
				switch a.Op {
				case schema.Assign:
					env[c] = x
				default:
					cur := v.value(env, c)
					method := map[schema.AssignOp]string{schema.AddAssign: "Add", schema.SubAssign: "Sub", schema.MulAssign: "Mul"}[a.Op]
					env[c] = v.def("t", k, fmt.Sprintf("%s.%s(%s)", cur, method, x), cur, x)
				}
			}
		case *schema.MatchStmt:
			v.match(env, s)
		}
	}
}

// match writes a match as blends. Every arm's condition is computed from
// the values before the match (an arm runs only after the conditions
// before it failed, so none has run when a condition is tested), every
// arm's statements on a copy of env, and then each column an arm writes
// gets c1 ? v1 : (c2 ? v2 : ... (else's value, or the value before)),
// built from the last arm to the first: the first true arm wins, as in
// the scalar switch.
func (v *vgen) match(env map[*schema.Column]string, s *schema.MatchStmt) {
	type arm struct {
		cond string // "" for else
		env  map[*schema.Column]string
	}
	arms := make([]arm, len(s.Arms))
	for i, a := range s.Arms {
		if a.Cond != nil {
			arms[i].cond = v.expr(env, a.Cond)
		}
	}
	var cols []*schema.Column
	for i, a := range s.Arms {
		e := make(map[*schema.Column]string, len(env))
		for c, n := range env {
			e[c] = n
		}
		v.block(e, a.Body)
		arms[i].env = e
		for c, n := range e {
			if env[c] != n && !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	slices.SortFunc(cols, func(a, b *schema.Column) int { return a.Index - b.Index })
	for _, c := range cols {
		before := v.value(env, c)
		at := func(a arm) string {
			if n, ok := a.env[c]; ok {
				return n
			}
			return before
		}
		cur := before
		last := len(arms) - 1
		if arms[last].cond == "" {
			cur = at(arms[last])
			last--
		}
		// Adjacent arms giving the same value blend once, on the union of
		// their conditions: c1 ? v : (c2 ? v : r) is (c1 or c2) ? v : r.
		val, mask := "", ""
		flush := func() {
			if val != "" {
				cur = v.def("t", v.kinds[c.Type.Kind], fmt.Sprintf("%s.Merge(%s, %s)", val, cur, mask), val, cur, mask)
			}
			val, mask = "", ""
		}
		for i := last; i >= 0; i-- {
			x, cond := at(arms[i]), arms[i].cond
			switch {
			case x == val:
				mask = v.def("m", vMask, fmt.Sprintf("%s.Or(%s)", cond, mask), cond, mask)
			case val == "" && x == cur:
				// the arm keeps the value its successors give
			default:
				flush()
				val, mask = x, cond
			}
		}
		flush()
		env[c] = cur
	}
}

// simdFunc writes the variant of width w: a method of the kernel state
// that runs the body on rows lo.. in whole vectors and returns the first
// row it did not run (the scalar loop does the rest, so nothing past hi
// is read or written).
func (sg *sysGen) simdFunc(w int) {
	g, y := sg.g, sg.y
	// The kernel state's field names, in the order kernelType asks for
	// them (a system in the subset has no join, recorder or emitter).
	for _, u := range sg.fromUses() {
		colField(sg, u.v, u.c)
	}
	if sg.y.Access.DTFloat32 {
		sg.stateField("dt32", "dt32")
	}
	for _, r := range sg.y.Access.Resources {
		sg.resField(r)
	}
	for _, ix := range sg.maintained() {
		sg.markField(ix)
	}
	v := &vgen{sg: sg, w: w, loc: newLocals(append([]string{"k", "lo", "hi", "n", "i", "archsimd"}, g.top...)...),
		consts: map[string]string{}, defs: map[string]string{}, loaded: map[*schema.Column]string{}, spans: map[*schema.Column]string{},
		env:   map[*schema.Column]string{},
		kinds: map[schema.TypeKind]vkind{schema.Float32: vFloat, schema.Int32: vInt},
		names: map[vkind]string{vFloat: fmt.Sprintf("archsimd.Float32x%d", w), vInt: fmt.Sprintf("archsimd.Int32x%d", w),
			vMask: fmt.Sprintf("archsimd.Mask32x%d", w)}}
	var spanDefs []string
	for _, u := range sg.fromUses() {
		s := v.loc.name(unexported(y.From.Name) + goCol(u.c) + "s")
		v.spans[u.c] = s
		spanDefs = append(spanDefs, fmt.Sprintf("k.%s[lo:n:n]", colField(sg, u.v, u.c)))
		v.order = append(v.order, u.c)
	}
	v.block(v.env, y.Body)
	for _, c := range v.order {
		if n, ok := v.env[c]; ok && n != v.loaded[c] {
			v.stores = append(v.stores, vdef{code: fmt.Sprintf("%s.Store(%s)", n, v.vector(v.spans[c], c)), uses: []string{n, v.spans[c]}, load: v.loaded[c]})
		}
	}
	if sg.vectorMarks() {
		for _, ix := range sg.fromMaintained() {
			v.marks(ix)
		}
	}
	// Keep what the stores use, transitively (the defs are in order, so
	// one backward pass finds them all).
	used := map[string]bool{}
	for _, d := range v.stores {
		for _, u := range d.uses {
			used[u] = true
		}
	}
	for i := len(v.body) - 1; i >= 0; i-- {
		if d := v.body[i]; used[d.name] {
			for _, u := range d.uses {
				used[u] = true
			}
		}
	}
	lanes := map[int]string{8: "AVX2", 16: "AVX-512"}[w]
	g.p("// simd%d runs %s's body in %s (%s) on the whole vectors of rows lo..hi-1.", w, sg.name, lanes, v.floatName())
	g.p("func (k *%s) simd%d(lo, hi int) int {", sg.name, w)
	first := ""
	for _, c := range v.order {
		if used[v.spans[c]] {
			first = v.spans[c]
			break
		}
	}
	if first == "" { // the body stores nothing it did not load
		g.p("return lo")
		g.p("}")
		g.p("")
		return
	}
	g.archsimd = true
	g.p("n := lo + (hi-lo)&^%d", w-1)
	// The spans end at n (capacity too), so no access reaches past it;
	// the others are as long as the first, which lets the compiler drop
	// their loads' checks but one.
	var lhs, rhs []string
	for i, d := range spanDefs {
		switch span := v.spans[v.order[i]]; {
		case span == first:
			g.p("%s := %s", span, d)
		case used[span]:
			lhs, rhs = append(lhs, span), append(rhs, d+"[:len("+first+")]")
		}
	}
	g.defs(lhs, rhs)
	lhs, rhs = nil, nil
	for _, d := range v.pre {
		if used[d.name] {
			lhs, rhs = append(lhs, d.name), append(rhs, d.code)
		}
	}
	g.defs(lhs, rhs)
	g.p("for i := 0; i < len(%s); i += %d {", first, w)
	for _, d := range nest(v.schedule(used)) {
		if d.name == "" {
			g.p("%s", d.code)
		} else {
			g.p("%s := %s", d.name, d.code)
		}
	}
	g.p("}")
	g.p("return n")
	g.p("}")
	g.p("")
}

// nest writes each pure value used once, up to 80 columns of code, into
// the statement that uses it (a load stays a statement, so that loads and
// stores keep their order):
// the same operations on the same operands, so the same bits, in fewer
// lines.
func nest(ds []vdef) []vdef {
	count := map[string]int{}
	for _, d := range ds {
		for _, u := range d.uses {
			count[u]++
		}
	}
	code := map[string]string{}
	var out []vdef
	for _, d := range ds {
		for _, u := range d.uses {
			if c, ok := code[u]; ok {
				d.code = replaceIdent(d.code, u, c)
			}
		}
		if d.name != "" && count[d.name] == 1 && !strings.HasPrefix(d.code, "archsimd.Load") && len(d.code) <= 80 {
			code[d.name] = d.code
			continue
		}
		out = append(out, d)
	}
	return out
}

// replaceIdent replaces the identifier name in Go code s (not a selector's
// name, not part of a longer identifier) by r.
func replaceIdent(s, name, r string) string {
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	var out strings.Builder
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], name)
		if j < 0 {
			out.WriteString(s[i:])
			break
		}
		j += i
		end := j + len(name)
		if (j == 0 || !word(s[j-1]) && s[j-1] != '.') && (end == len(s) || !word(s[end])) {
			out.WriteString(s[i:j])
			out.WriteString(r)
		} else {
			out.WriteString(s[i:end])
		}
		i = end
	}
	return out.String()
}

// schedule orders the loop's statements for few live vectors (the Go
// compiler keeps the order, and spills what does not fit in the 16
// registers): column by column, each store right after what it needs
// that is not yet written, the columns taken in the order of the first
// statement each needs (so that columns computed together stay together).
// A column's load comes before its store when anything uses it (a later
// column may need the value before). What no store needs is left out.
func (v *vgen) schedule(used map[string]bool) []vdef {
	at := map[string]int{}
	for i, d := range v.body {
		at[d.name] = i
	}
	first := func(d vdef) int {
		lo := len(v.body)
		seen := map[string]bool{}
		var walk func(uses []string)
		walk = func(uses []string) {
			for _, u := range uses {
				if i, ok := at[u]; ok && !seen[u] {
					seen[u] = true
					lo = min(lo, i)
					walk(v.body[i].uses)
				}
			}
		}
		walk(d.uses)
		return lo
	}
	stores := slices.Clone(v.stores)
	slices.SortStableFunc(stores, func(a, b vdef) int { return first(a) - first(b) })
	var out []vdef
	done := map[string]bool{}
	var emit func(uses []string)
	emit = func(uses []string) {
		for _, u := range uses {
			if i, ok := at[u]; ok && !done[u] {
				done[u] = true
				emit(v.body[i].uses)
				out = append(out, v.body[i])
			}
		}
	}
	for _, d := range stores {
		emit(d.uses)
		if used[d.load] {
			emit([]string{d.load}) // read before it is overwritten
		}
		out = append(out, d)
	}
	return out
}

// marks adds the statement that marks, for index ix the system maintains
// through its from row, the rows of the vector whose key may have changed
// (index_upkeep.go, Fused upkeep): a key column's lanes by Equal (a NaN
// is unequal, so marked), a grid's (of a power-of-two cell) by the
// truncation of v*(1/cell) in float32, exact there, with the lanes whose
// product is negative, NaN or at least 2^31 marked (the sync decides). A
// column the body does not write is left out.
func (v *vgen) marks(ix *schema.Index) {
	var ok string
	and := func(m string) {
		if ok == "" {
			ok = m
			return
		}
		ok = v.def("ok", vMask, ok+".And("+m+")", ok, m)
	}
	f := v.floatName()
	for _, c := range ix.Columns {
		nw, written := v.env[c]
		if !written || nw == v.loaded[c] {
			continue
		}
		old := v.value(map[*schema.Column]string{}, c)
		if ix.Kind != schema.GridIndex {
			and(v.def("same", vMask, old+".Equal("+nw+")", old, nw))
			continue
		}
		inv := v.konst("inv", fmt.Sprintf("archsimd.Broadcast%s(%s)", f, invLiteral(ix)))
		zero := v.konst("lit", fmt.Sprintf("archsimd.Broadcast%s(0)", f))
		lim := v.konst("lim", fmt.Sprintf("archsimd.Broadcast%s(2147483648)", f))
		var ps []string
		for _, x := range []string{old, nw} {
			p := v.def("cell", vFloat, x+".Mul("+inv+")", x, inv)
			and(v.def("in", vMask, p+".GreaterEqual("+zero+").And("+p+".Less("+lim+"))", p, zero, lim))
			ps = append(ps, p)
		}
		and(v.def("same", vMask, ps[0]+".ConvertToInt32().Equal("+ps[1]+".ConvertToInt32())", ps[0], ps[1]))
	}
	if ok == "" {
		return
	}
	m := "k." + v.sg.markField(ix)
	code := fmt.Sprintf("if %s.On() {\nif bits := ^%s.ToBits(); bits != 0 {\n%s.MarkBits(lo+i, uint64(bits))\n}\n}", m, ok, m)
	v.stores = append(v.stores, vdef{code: code, uses: []string{ok}})
}
