package codegen

import (
	"fmt"
	"go/constant"
	"math/big"
	"strconv"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// use is how a body uses one column of one row variable.
type use struct {
	read, write bool
	always      bool // written by a top-level statement (not only inside match arms)
}

// sysGen generates one declared system.
type sysGen struct {
	g      *gen
	y      *schema.System
	name   string // Go type name
	lower  string // prefix of its unexported types
	uses   map[*schema.Var]map[*schema.Column]*use
	order  []colKey // uses in first-use order (deterministic)
	fields *locals  // kernel state field names
	field  map[string]string
	env    map[string]string // names of a body's values: see body
}

type colKey struct {
	v *schema.Var
	c *schema.Column
}

func newSysGen(g *gen, y *schema.System) *sysGen {
	sg := &sysGen{g: g, y: y, name: exported(y.Name), lower: unexported(y.Name),
		uses: map[*schema.Var]map[*schema.Column]*use{}, field: map[string]string{}}
	// The checker's access analysis, in declaration order (schema.Use).
	for _, u := range y.Access.Uses {
		m := sg.uses[u.Var]
		if m == nil {
			m = map[*schema.Column]*use{}
			sg.uses[u.Var] = m
		}
		m[u.Column] = &use{read: u.Read, write: u.Write, always: u.Every}
		sg.order = append(sg.order, colKey{u.Var, u.Column})
	}
	sg.fields = newLocals("t", "lane", "simd", "scan")
	return sg
}

// fromUses lists the from row's used columns in first-use order.
func (sg *sysGen) fromUses() []colKey {
	var out []colKey
	for _, k := range sg.order {
		if k.v == sg.y.From {
			out = append(out, k)
		}
	}
	return out
}

// joinUses lists a join's used columns in first-use order.
func (sg *sysGen) joinUses(v *schema.Var) []colKey {
	var out []colKey
	for _, k := range sg.order {
		if k.v == v {
			out = append(out, k)
		}
	}
	return out
}

// stateField returns the kernel-state field holding key's value.
func (sg *sysGen) stateField(key, base string) string {
	if f, ok := sg.field[key]; ok {
		return f
	}
	f := sg.fields.name(base)
	sg.field[key] = f
	return f
}

func colField(sg *sysGen, v *schema.Var, c *schema.Column) string {
	return sg.stateField("col:"+v.Name+"."+c.Name, v.Name+goCol(c))
}

// wrapIndex is the Go index of an array of n elements at integer ix:
// the Euclidean remainder of ix by n (docs/schema.md, Resources), a mask
// for a power of two.
func (sg *sysGen) wrapIndex(ix schema.Expr, n int) string {
	if l, ok := ix.(*schema.Lit); ok {
		v, _ := constant.Int64Val(l.Value)
		return strconv.FormatInt(((v%int64(n))+int64(n))%int64(n), 10)
	}
	x := sg.code(ix)
	if n&(n-1) == 0 {
		u := "uint32"
		if ix.Type().Kind == schema.Int64 {
			u = "uint64"
		}
		return fmt.Sprintf("%s(%s)&%d", u, x, n-1)
	}
	return fmt.Sprintf("(int64(%s)%%%d+%d)%%%d", x, n, n, n)
}

// usesFloor says whether a body of s calls floor.
func usesFloor(s *schema.Schema) bool {
	for _, y := range s.Systems {
		found := false
		walkExprs(y.Body, func(e schema.Expr) {
			if _, ok := e.(*schema.Floor); ok {
				found = true
			}
		})
		if found {
			return true
		}
	}
	return false
}

// walkExprs calls fn on every expression of statements ss and on their
// subexpressions.
func walkExprs(ss []schema.Stmt, fn func(schema.Expr)) {
	var expr func(e schema.Expr)
	expr = func(e schema.Expr) {
		fn(e)
		switch e := e.(type) {
		case *schema.ResRef:
			if e.Index != nil {
				expr(e.Index)
			}
		case *schema.Unary:
			expr(e.X)
		case *schema.Binary:
			expr(e.X)
			expr(e.Y)
		case *schema.Convert:
			expr(e.X)
		case *schema.Floor:
			expr(e.X)
		case *schema.IndexOf:
			expr(e.X)
		}
	}
	for _, s := range ss {
		switch s := s.(type) {
		case *schema.SetStmt:
			for _, a := range s.Assigns {
				expr(a.Value)
			}
		case *schema.MatchStmt:
			for _, a := range s.Arms {
				if a.Cond != nil {
					expr(a.Cond)
				}
				walkExprs(a.Body, fn)
			}
		case *schema.EmitStmt:
			for _, v := range s.Values {
				expr(v)
			}
		}
	}
}

// resKey names the resource field a ResRef reads: "R.F" or "R.F.S" (an
// array's: "R.F", whatever its index).
func resKey(e *schema.ResRef) string {
	if e.Sub != nil {
		return e.Resource.Name + "." + e.Field.Name + "." + e.Sub.Name
	}
	return e.Resource.Name + "." + e.Field.Name
}

// resGo is the Go selector of a ResRef's value in its resource's struct:
// ".F" or ".F.S".
func resGo(e *schema.ResRef) string {
	if e.Sub != nil {
		return "." + exported(e.Field.Name) + "." + exported(e.Sub.Name)
	}
	return "." + exported(e.Field.Name)
}

// resRefs lists the resource fields statements ss read, once each, in
// first-use order.
func resRefs(ss []schema.Stmt) []*schema.ResRef {
	var out []*schema.ResRef
	seen := map[string]bool{}
	walkExprs(ss, func(e schema.Expr) {
		if r, ok := e.(*schema.ResRef); ok && !seen[resKey(r)] {
			seen[resKey(r)] = true
			out = append(out, r)
		}
	})
	return out
}

// maxDeletes bounds the deletes one item's run of ss records into table t.
func maxDeletes(ss []schema.Stmt, t *schema.Table) int {
	n := 0
	for _, s := range ss {
		switch s := s.(type) {
		case *schema.DeleteStmt:
			if s.Var.Table == t {
				n++
			}
		case *schema.MatchStmt:
			arm := 0
			for _, a := range s.Arms {
				arm = max(arm, maxDeletes(a.Body, t))
			}
			n += arm
		}
	}
	return n
}

// ---- statements and expressions ----

// body writes statements. env maps the values a body names:
//
//	"col:v.C"   the Go expression of column C of row variable v
//	"colw:v.C"  (optional) a slice element to store conditional writes to
//	"handle:v"  the handle of v's row
//	"row:v"     the row local of join v: its row, -1 when it missed
//	"rec:T"     the recorder of table T
//	"emit:E"    the emitter of event table E
//	"count:N"   the local counter N
//	"dt32", "dt64", "tick"
func (sg *sysGen) body(ss []schema.Stmt) {
	for _, s := range ss {
		sg.stmt(s)
	}
}

func (sg *sysGen) stmt(s schema.Stmt) {
	g := sg.g
	switch s := s.(type) {
	case *schema.SetStmt:
		for _, a := range s.Assigns {
			sg.assign(a)
		}
	case *schema.MatchStmt:
		g.p("switch {")
		for _, a := range s.Arms {
			if a.Cond == nil {
				g.p("default:")
			} else {
				g.p("case %s:", sg.code(a.Cond))
			}
			sg.body(a.Body)
		}
		g.p("}")
	case *schema.EmitStmt:
		fields := make([]string, len(s.Values))
		for i, v := range s.Values {
			fields[i] = exported(s.Event.Fields[i].Name) + ": " + sg.code(v)
		}
		ev := exported(s.Event.Name)
		if out, ok := sg.env["out"]; ok {
			g.p("tickwork.EmitChunk(%s, k.%s, %s{%s})", out, sg.field["emit:"+s.Event.Name], ev, strings.Join(fields, ", "))
			return
		}
		g.p("%s.Emit(%s{%s}) // a full table drops it, and Frame reports the overflow", sg.env["emit:"+s.Event.Name], ev, strings.Join(fields, ", "))
	case *schema.DeleteStmt:
		v, op := s.Var, deleteMethod(s)
		if out, ok := sg.env["out"]; ok {
			if row, ok := sg.env["row"]; ok && v.Kind == schema.RowVar {
				// The row's handle is taken out of line, with the record.
				g.p("%s.%sRow(k.%s, %s)", out, op, sg.field["rec:"+v.Table.Name], row)
				return
			}
			g.p("%s.%s(k.%s, %s)", out, op, sg.field["rec:"+v.Table.Name], sg.handle(v))
			return
		}
		g.p("%s.%s(%s)", sg.env["rec:"+v.Table.Name], op, sg.handle(v))
	case *schema.CountStmt:
		g.p("%s", sg.env["count:"+s.Name])
	}
}

func (sg *sysGen) assign(a *schema.AssignStmt) {
	target := sg.env["col:"+a.Target.Var.Name+"."+a.Target.Column.Name]
	value, pv := sg.codePrec(a.Value)
	t := a.Target.Column.Type
	switch {
	case a.Op == schema.MulAssign && (t.Kind == schema.Float32 || t.Kind == schema.Float64):
		// x *= y is x = x*y: a product, rounded on its own (docs/schema.md, Arithmetic).
		sg.g.p("%s = %s(%s * %s)", target, goType(t), target, paren(value, pv, precMul, true))
	case a.Op == schema.Assign && value == target:
		// A no-op (set t.X = t.X): no Go self-assignment, which go vet
		// refuses; the manifest keeps the write (schema.Access).
	default:
		sg.g.p("%s %s %s", target, a.Op, value)
	}
	if w, ok := sg.env["colw:"+a.Target.Var.Name+"."+a.Target.Column.Name]; ok {
		sg.g.p("%s = %s", w, target)
	}
	sg.markAssign(a)
}

// handle is the Go expression of a row variable's handle.
func (sg *sysGen) handle(v *schema.Var) string {
	if h, ok := sg.env["handle:"+v.Name]; ok && v.Kind == schema.JoinVar {
		return h // a query's join
	}
	if v.Kind == schema.JoinVar {
		return sg.env["col:"+sg.y.From.Name+"."+v.Join.Via.Name]
	}
	return sg.env["handle:"+v.Name]
}

// Go operator precedences (the spec's, plus primary = 6).
const (
	precOr = iota + 1
	precAnd
	precCmp
	precAdd
	precMul
	precUnary
	precPrimary
)

var goOps = map[schema.BinaryOp]string{schema.Add: "+", schema.Sub: "-", schema.Mul: "*", schema.Div: "/", schema.Rem: "%",
	schema.Eq: "==", schema.Ne: "!=", schema.Lt: "<", schema.Le: "<=", schema.Gt: ">", schema.Ge: ">=",
	schema.And: "&&", schema.Or: "||"}

func precOf(op schema.BinaryOp) int {
	switch {
	case op == schema.Or:
		return precOr
	case op == schema.And:
		return precAnd
	case op.IsComparison():
		return precCmp
	case op == schema.Add || op == schema.Sub:
		return precAdd
	}
	return precMul
}

// paren wraps s (an expression of precedence p) for a context needing at
// least min; right operands of a left-associative operator need more, so
// that a - (b - c) keeps its grouping (float arithmetic is not
// associative).
func paren(s string, p, min int, right ...bool) string {
	if p < min || (len(right) > 0 && right[0] && p == min) {
		return "(" + s + ")"
	}
	return s
}

// code returns the Go source of e.
func (sg *sysGen) code(e schema.Expr) string {
	s, _ := sg.codePrec(e)
	return s
}

// codePrec returns the Go source of e and its precedence.
func (sg *sysGen) codePrec(e schema.Expr) (string, int) {
	switch e := e.(type) {
	case *schema.Lit:
		if e.Const != nil {
			return exported(e.Const.Name), precPrimary
		}
		s := literal(e)
		if strings.HasPrefix(s, "-") {
			return s, precUnary
		}
		return s, precPrimary
	case *schema.ColRef:
		return sg.env["col:"+e.Var.Name+"."+e.Column.Name], precPrimary
	case *schema.ResRef:
		if e.Index != nil {
			return sg.env["res:"+resKey(e)] + "[" + sg.wrapIndex(e.Index, e.Field.Type.Len) + "]", precPrimary
		}
		return sg.env["res:"+resKey(e)], precPrimary
	case *schema.Floor:
		x := sg.code(e.X)
		if e.X.Type().Kind == schema.Float32 {
			x = "float64(" + x + ")" // exact
		}
		return "floorInt32(" + x + ")", precPrimary
	case *schema.VarRef:
		return sg.handle(e.Var), precPrimary
	case *schema.EnvRef:
		switch {
		case e.Env == schema.Tick:
			return sg.env["tick"], precPrimary
		case e.T.Kind == schema.Float32:
			return sg.env["dt32"], precPrimary
		}
		return sg.env["dt64"], precPrimary
	case *schema.Unary:
		x, p := sg.codePrec(e.X)
		op := "-"
		if e.Op == schema.Not {
			op = "!"
		}
		if strings.HasPrefix(x, "-") {
			x = "(" + x + ")" // not --x
		}
		return op + paren(x, p, precUnary), precUnary
	case *schema.Binary:
		pr := precOf(e.Op)
		x, px := sg.codePrec(e.X)
		y, py := sg.codePrec(e.Y)
		s := paren(x, px, pr) + " " + goOps[e.Op] + " " + paren(y, py, pr, true)
		if e.Op == schema.Mul && (e.T.Kind == schema.Float32 || e.T.Kind == schema.Float64) {
			// Every float product is rounded on its own, so no compiler
			// fuses it into a multiply-add (docs/schema.md, Arithmetic).
			return goType(e.T) + "(" + s + ")", precPrimary
		}
		return s, pr
	case *schema.Convert:
		x, _ := sg.codePrec(e.X)
		return goType(e.T) + "(" + x + ")", precPrimary
	case *schema.Probe:
		row := sg.env["row:"+e.Var.Name]
		if e.Found {
			return row + " >= 0", precCmp
		}
		return row + " < 0", precCmp
	case *schema.IndexOf:
		if v, ok := e.X.(*schema.VarRef); ok {
			if ix, ok := sg.env["index:"+v.Var.Name]; ok {
				return ix, precPrimary // a query's scan: the row is the index
			}
		}
		x, p := sg.codePrec(e.X)
		return "int32(" + paren(x, p, precPrimary) + ".Index())", precPrimary
	case *schema.ParamRef:
		return sg.env["param:"+e.Param.Name], precPrimary
	case *schema.Has:
		if x, ok := sg.env["has:"+e.Var.Name+"."+e.Table.Name]; ok {
			return x, precPrimary
		}
		return sg.env["lease:"+e.Table.Name] + ".Find(" + sg.handle(e.Var) + ") >= 0", precCmp
	case *schema.Exists:
		return sg.env[fmt.Sprintf("exists:%d", e.Index)], precCmp
	}
	panic(fmt.Sprintf("codegen: expression %T (a generator bug)", e))
}

// untypedFloat is the Go text of an untyped float constant, exact as the
// schema's: a decimal when it has one (0.5, 2.0), else a quotient of
// integers (1.0 / 3).
func untypedFloat(v constant.Value) string {
	r, ok := constant.Val(constant.ToFloat(v)).(*big.Rat)
	if !ok { // a huge or tiny value go/constant keeps as a *big.Float
		f, _ := constant.Float64Val(v)
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	den := new(big.Int).Set(r.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		n := 0
		q, m := new(big.Int), new(big.Int)
		for {
			q.QuoRem(den, big.NewInt(p), m)
			if m.Sign() != 0 {
				break
			}
			den.Set(q)
			n++
		}
		digits = max(digits, n)
	}
	if den.Cmp(big.NewInt(1)) != 0 {
		return r.Num().String() + ".0 / " + r.Denom().String()
	}
	return r.FloatString(max(digits, 1))
}

// literal is the Go text of a constant: exact for integers, the shortest
// decimal that reads back as the same float32 or float64.
func literal(l *schema.Lit) string {
	v := l.Value
	switch l.T.Kind {
	case schema.Bool:
		return strconv.FormatBool(constant.BoolVal(v))
	case schema.Int32, schema.Int64:
		return v.ExactString()
	case schema.Float32:
		f, _ := constant.Float64Val(v)
		return strconv.FormatFloat(f, 'g', -1, 32)
	case schema.Float64:
		f, _ := constant.Float64Val(v)
		return strconv.FormatFloat(f, 'g', -1, 64)
	case schema.UntypedInt:
		return v.ExactString()
	case schema.UntypedFloat:
		return untypedFloat(v)
	}
	panic(fmt.Sprintf("codegen: constant of type %s (a generator bug)", l.T))
}
