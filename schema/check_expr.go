package schema

import (
	"go/constant"
	"go/token"
	"math"
	"slices"
	"strconv"
	"strings"
)

// scope is what an expression may name: constants always; in a system
// body its row variables, the joins known to have hit (guard) and the
// body's access record.
type scope struct {
	c     *checker
	b     *bodyState // nil in a constant expression
	guard uint64     // bit i: join i is known to have hit here
	// In the value of an assignment to a struct column, checked once per
	// field: the field, which a struct-typed operand (VAR.COLUMN,
	// RESOURCE.FIELD of the struct) stands for.
	proj       *StructField
	projStruct *Struct
	// In a query: where an aggregate would stand if one were named here
	// ("where", "a group key", ...), for the error that refuses it.
	aggAt string
}

// bad is the expression of an error already reported.
func bad(p Pos) Expr { return &Lit{Pos: p, T: Type{Kind: Invalid}, Value: constant.MakeUnknown()} }

func invalid(e Expr) bool { return e.Type().Kind == Invalid }

// expr checks an expression: `or` of ands.
func (c *checker) expr(sc *scope, e *synExpr) Expr {
	x := c.andExpr(sc, e.Left)
	for _, r := range e.Right {
		rs := *sc
		rs.guard |= facts(x, false) // y runs only when x is false
		x = c.logical(Or, c.pos(r.Pos), x, c.andExpr(&rs, r))
	}
	return x
}

func (c *checker) andExpr(sc *scope, e *synAndExpr) Expr {
	x := c.notExpr(sc, e.Left)
	for _, r := range e.Right {
		rs := *sc
		rs.guard |= facts(x, true) // y runs only when x is true
		x = c.logical(And, c.pos(r.Pos), x, c.notExpr(&rs, r))
	}
	return x
}

func (c *checker) notExpr(sc *scope, e *synNotExpr) Expr {
	if e.Not == nil {
		return c.cmpExpr(sc, e.Cmp)
	}
	p := c.pos(e.Pos)
	x := c.notExpr(sc, e.Not)
	if invalid(x) {
		return x
	}
	if x.Type().Kind != Bool {
		c.errorf(p, KindType, "not needs a bool operand, not %s", describeExpr(x))
		return bad(p)
	}
	if l, ok := x.(*Lit); ok {
		return &Lit{Pos: p, T: l.T, Value: constant.MakeBool(!constant.BoolVal(l.Value))}
	}
	return &Unary{Pos: p, Op: Not, X: x, T: x.Type()}
}

// logical checks `x and y` or `x or y`.
func (c *checker) logical(op BinaryOp, p Pos, x, y Expr) Expr {
	if invalid(x) || invalid(y) {
		return bad(p)
	}
	for _, o := range []Expr{x, y} {
		if o.Type().Kind != Bool {
			c.errorf(o.Position(), KindType, "%s needs bool operands, not %s", op, describeExpr(o))
			return bad(p)
		}
	}
	lx, okx := x.(*Lit)
	ly, oky := y.(*Lit)
	if okx && oky {
		a, b := constant.BoolVal(lx.Value), constant.BoolVal(ly.Value)
		v := a && b
		if op == Or {
			v = a || b
		}
		return &Lit{Pos: x.Position(), T: Type{Kind: Bool}, Value: constant.MakeBool(v)}
	}
	return &Binary{Pos: x.Position(), Op: op, X: x, Y: y, T: Type{Kind: Bool}}
}

var cmpOps = map[string]BinaryOp{"==": Eq, "!=": Ne, "<": Lt, "<=": Le, ">": Gt, ">=": Ge}

func (c *checker) cmpExpr(sc *scope, e *synCmpExpr) Expr {
	x := c.addExpr(sc, e.Left)
	if e.Op == "" {
		return x
	}
	y := c.addExpr(sc, e.Right)
	return c.binary(cmpOps[e.Op], c.pos(e.Right.Pos), x, y)
}

func (c *checker) addExpr(sc *scope, e *synAddExpr) Expr {
	x := c.mulExpr(sc, e.Left)
	for _, r := range e.Right {
		op := Add
		if r.Op == "-" {
			op = Sub
		}
		x = c.binary(op, c.pos(r.Pos), x, c.mulExpr(sc, r.Right))
	}
	return x
}

func (c *checker) mulExpr(sc *scope, e *synMulExpr) Expr {
	x := c.unary(sc, e.Left)
	for _, r := range e.Right {
		op := map[string]BinaryOp{"*": Mul, "/": Div, "%": Rem}[r.Op]
		x = c.binary(op, c.pos(r.Pos), x, c.unary(sc, r.Right))
	}
	return x
}

func (c *checker) unary(sc *scope, e *synUnary) Expr {
	if e.Neg == nil {
		return c.primary(sc, e.Primary)
	}
	p := c.pos(e.Pos)
	x := c.unary(sc, e.Neg)
	if invalid(x) {
		return x
	}
	t := x.Type()
	if !t.IsNumeric() {
		c.errorf(p, KindType, "unary - needs a number, not %s", describeExpr(x))
		return bad(p)
	}
	if l, ok := x.(*Lit); ok {
		v := constant.UnaryOp(token.SUB, l.Value, 0)
		if t.IsFloat() && constant.Sign(l.Value) == 0 {
			v = l.Value // -0.0 is a zero constant, as in Go
		}
		return c.typedConst(p, t, v, "-"+describeExpr(x))
	}
	return &Unary{Pos: p, Op: Neg, X: x, T: t}
}

func (c *checker) primary(sc *scope, e *synPrimary) Expr {
	p := c.pos(e.Pos)
	switch {
	case e.Int != nil:
		v := constant.MakeFromLiteral(*e.Int, token.INT, 0)
		if v.Kind() == constant.Unknown {
			c.errorf(p, KindSyntax, "bad integer literal %s", *e.Int)
			return bad(p)
		}
		return &Lit{Pos: p, T: Type{Kind: UntypedInt}, Value: v}
	case e.Float != nil:
		v := constant.MakeFromLiteral(*e.Float, token.FLOAT, 0)
		if v.Kind() == constant.Unknown {
			c.errorf(p, KindValue, "float literal %s is out of range", *e.Float)
			return bad(p)
		}
		return &Lit{Pos: p, T: Type{Kind: UntypedFloat}, Value: v}
	case e.Bool != nil:
		return &Lit{Pos: p, T: Type{Kind: Bool}, Value: constant.MakeBool(*e.Bool == "true")}
	case e.At != nil:
		return c.env(sc, p, *e.At)
	case e.Count:
		c.misplacedAggregate(sc, p, "count")
		return bad(p)
	case e.Paren != nil:
		return c.expr(sc, e.Paren)
	}
	n := e.Name
	switch {
	case n.Column != nil:
		return c.column(sc, n.Name, n.Column, n.Field, n.Index, false)
	case n.Call && n.Sub != nil:
		return c.subquery(sc, p, n.Name, n.Sub)
	case n.Call && (n.Over != nil || n.Name.Name == "row_number"):
		c.misplacedWindow(sc, p, n.Name.Name)
		return bad(p)
	case n.Call:
		return c.call(sc, p, n.Name, n.Args)
	}
	return c.name(sc, n.Name)
}

func (c *checker) env(sc *scope, p Pos, name string) Expr {
	var e Env
	switch name {
	case "@dt":
		e = DT
	case "@tick":
		e = Tick
	default:
		c.errorf(p, KindUnknown, "unknown %s; the world values are @dt (seconds) and @tick", name)
		return bad(p)
	}
	if sc.b == nil {
		c.errorf(p, KindValue, "%s is not constant; a constant expression uses literals and constants only", name)
		return bad(p)
	}
	if sc.b.query != nil {
		c.errorf(p, KindAccess, "query %s cannot read %s: a query reads the tables and its parameters only; pass the value as a parameter", sc.b.query.Name, name)
		return bad(p)
	}
	if e == DT {
		sc.b.access.DT = true
		return &EnvRef{Pos: p, Env: DT, T: Type{Kind: UntypedFloat}}
	}
	sc.b.access.Tick = true
	return &EnvRef{Pos: p, Env: Tick, T: Type{Kind: Int64}}
}

// name resolves a bare name: a row variable (its handle) or a constant.
func (c *checker) name(sc *scope, id *synIdent) Expr {
	p := c.pos(id.Pos)
	if sc.b != nil {
		if sc.b.broken[id.Name] {
			return bad(p)
		}
		if pr := sc.b.params[id.Name]; pr != nil {
			return &ParamRef{Pos: p, Param: pr}
		}
		if v := sc.b.vars[id.Name]; v != nil {
			if v.Kind == EventVar {
				c.errorf(p, KindType, "%s is an event of %s, not a row: name one of its fields (%s)", v.Name, v.Event.Name, fieldNames(v.Event.Fields))
				return bad(p)
			}
			if v.Kind == RowVar {
				sc.b.access.Handle = true
			}
			return &VarRef{Pos: p, Var: v}
		}
	}
	d, ok := c.names[id.Name]
	switch {
	case !ok:
		what := "constant or row variable"
		switch {
		case sc.b == nil:
			what = "constant"
		case sc.b.query != nil:
			what = "parameter, constant or row variable"
		}
		c.errorf(p, KindUnknown, "unknown %s %q%s", what, id.Name, c.hint(id.Name, "constant"))
		return bad(p)
	case d.res != nil:
		c.errorf(p, KindType, "%s is a resource, not a value; name one of its fields (%s.%s)", id.Name, id.Name, d.res.Fields[0].Name)
		return bad(p)
	case d.cnst == nil:
		c.errorf(p, KindType, "%s is %s, not a value; name a column as VAR.COLUMN", id.Name, article(d.what))
		return bad(p)
	}
	k := c.resolveConst(d.cnst)
	if k == nil {
		return bad(p)
	}
	return &Lit{Pos: p, T: k.Type, Value: k.Value, Const: k}
}

// column resolves VAR.COLUMN or VAR.COLUMN.FIELD (fid non-nil), for
// reading or (write) as a set target, or RESOURCE.FIELD[.FIELD] for
// reading. A struct column named whole stands for the field of the
// projection (sc.proj) and is an error elsewhere.
func (c *checker) column(sc *scope, vid, cid, fid *synIdent, idx *synExpr, write bool) Expr {
	p := c.pos(vid.Pos)
	text := vid.Name + "." + cid.Name
	if fid != nil {
		text += "." + fid.Name
	}
	if idx != nil {
		text += "[" + exprText(idx) + "]"
	}
	if sc.b == nil {
		c.errorf(p, KindValue, "%s is not constant; a constant expression uses literals and constants only", text)
		return bad(p)
	}
	v := sc.b.vars[vid.Name]
	if v == nil && sc.b.broken[vid.Name] {
		return bad(p)
	}
	if v == nil {
		d := c.names[vid.Name]
		switch {
		case d.res != nil && sc.b.query != nil:
			c.errorf(p, KindAccess, "query %s cannot read %s: a query reads the tables and its parameters only; pass the resource's value as a parameter", sc.b.query.Name, text)
			return bad(p)
		case d.res != nil && write:
			c.errorf(p, KindAccess, "cannot set %s: %s is a resource, read-only in declared bodies; a hand-written system writes it (tickwork.WriteResource), or the host between frames (Resource.Get)", text, vid.Name)
			return bad(p)
		case d.res != nil:
			return c.resource(sc, p, d.res, cid, fid, idx)
		case d.cnst != nil:
			verb := "read"
			if write {
				verb = "set"
			}
			c.errorf(p, KindType, "cannot %s %s: %s is a constant, which has no columns or fields; constants are read by name (%s)", verb, text, vid.Name, vid.Name)
			return bad(p)
		}
		if sc.b.when && d.what == "" && !slices.Contains(sc.b.rows, vid.Name) {
			c.errorf(p, KindUnknown, "unknown resource %q in the when condition of system %s%s", vid.Name, sc.b.sys.Name, c.hint(vid.Name, "resource"))
			return bad(p)
		}
		if sc.b.when {
			c.errorf(p, KindAccess, "the when condition of system %s reads %s: a condition reads resources (RESOURCE.FIELD), constants, @tick and @dt, not rows; test the row in the body with match",
				sc.b.sys.Name, text)
			return bad(p)
		}
		c.errorf(p, KindUnknown, "unknown row variable %q%s", vid.Name, suggest(vid.Name, sc.b.varNames(), "the row variables"))
		return bad(p)
	}
	cols, of := v.columns()
	var group *StructColumn
	if v.Kind != EventVar {
		for _, g := range v.Table.Structs {
			if g.Name == cid.Name {
				group = g
			}
		}
	}
	var col *Column
	cp := c.pos(cid.Pos)
	switch {
	case group != nil:
		f := sc.proj
		switch {
		case fid != nil:
			f = nil
			for _, sf := range group.Struct.Fields {
				if sf.Name == fid.Name {
					f = sf
				}
			}
			if f == nil {
				c.errorf(c.pos(fid.Pos), KindUnknown, "unknown field %q in %s (%s.%s is a %s)%s", fid.Name, text, v.Name, cid.Name, group.Struct.Name,
					suggest(fid.Name, structFieldNames(group.Struct), "its fields"))
				return bad(p)
			}
		case f == nil:
			c.errorf(p, KindType, "%s.%s is a %s struct: name one of its fields (%s), or set it whole with set %s.%s = ...",
				v.Name, cid.Name, group.Struct.Name, qualified(v.Name+"."+cid.Name, structFieldNames(group.Struct)), v.Name, cid.Name)
			return bad(p)
		case group.Struct != sc.projStruct:
			c.errorf(p, KindType, "mismatched struct types: %s.%s is a %s, and the assignment sets a %s", v.Name, cid.Name, group.Struct.Name, sc.projStruct.Name)
			return bad(p)
		}
		col = group.Fields[f.Index]
	default:
		for _, k := range cols {
			if k.Name == cid.Name {
				col = k
			}
		}
		if col == nil {
			c.errorf(cp, KindUnknown, "unknown column %q in %s.%s (%s is a row of %s)%s", cid.Name, v.Name, cid.Name, v.Name, of, suggest(cid.Name, v.memberNames(), "its columns"))
			return bad(p)
		}
		if fid != nil && col.Type.Kind != Invalid {
			c.errorf(c.pos(fid.Pos), KindType, "%s.%s is %s, not a struct: it has no field %q", v.Name, cid.Name, col.Type, fid.Name)
			return bad(p)
		}
	}
	if col.Type.Kind == Invalid {
		return bad(p)
	}
	if idx != nil {
		c.errorf(c.pos(idx.Pos), KindType, "%s.%s is a column, not an array: it has no elements; only a resource's fields are arrays", v.Name, col.Name)
		return bad(p)
	}
	ref := &ColRef{Pos: p, Var: v, Column: col}
	if v.Kind == JoinVar && sc.guard&(1<<v.Join.Index) == 0 {
		verb := "read"
		if write {
			verb = "set"
		}
		c.errorf(p, KindAccess, "%s.%s is %s where join %s may have missed; test missing(%s) in an earlier match arm, or found(%s) and ... in this arm's condition",
			v.Name, col.Name, verb+"", v.Name, v.Name, v.Name)
		return bad(p)
	}
	sc.b.use(ref, write)
	return ref
}

// resource resolves RESOURCE.FIELD, RESOURCE.FIELD.SUB or
// RESOURCE.FIELD[INDEX] for reading.
func (c *checker) resource(sc *scope, p Pos, r *Resource, fid, sub *synIdent, idx *synExpr) Expr {
	var f *ResourceField
	for _, k := range r.Fields {
		if k.Name == fid.Name {
			f = k
		}
	}
	if f == nil {
		names := make([]string, len(r.Fields))
		for i, k := range r.Fields {
			names[i] = k.Name
		}
		c.errorf(c.pos(fid.Pos), KindUnknown, "unknown field %q of resource %s%s", fid.Name, r.Name, suggest(fid.Name, names, "its fields"))
		return bad(p)
	}
	if f.Type.Kind == Invalid {
		return bad(p)
	}
	ref := &ResRef{Pos: p, Resource: r, Field: f}
	switch {
	case f.Type.Kind == ArrayKind && (sub != nil || idx == nil):
		c.errorf(p, KindType, "%s.%s is an array %s: read one element, %s.%s[INDEX] (an integer; outside 0..%d it wraps)", r.Name, f.Name, f.Type, r.Name, f.Name, f.Type.Len-1)
		return bad(p)
	case f.Type.Kind == ArrayKind:
		ix := c.expr(sc, idx)
		if invalid(ix) {
			return ix
		}
		if ix.Type().IsUntyped() {
			ix = c.convertTo(ix, Type{Kind: Int64}, "the index of "+r.Name+"."+f.Name)
			if invalid(ix) {
				return ix
			}
		}
		if ix.Type().Kind != Int32 && ix.Type().Kind != Int64 {
			c.errorf(ix.Position(), KindType, "the index of %s.%s must be an integer, not %s (%s); floor(x) is the int32 cell of a float x", r.Name, f.Name, describeExpr(ix), ix.Type())
			return bad(p)
		}
		ref.Index = ix
	case idx != nil:
		c.errorf(c.pos(idx.Pos), KindType, "%s.%s is %s, not an array: it has no elements", r.Name, f.Name, describeType(f.Type))
		return bad(p)
	case f.Type.Kind == StructKind && sub != nil:
		for _, sf := range f.Type.Struct.Fields {
			if sf.Name == sub.Name {
				ref.Sub = sf
			}
		}
		if ref.Sub == nil {
			c.errorf(c.pos(sub.Pos), KindUnknown, "unknown field %q in %s.%s.%s (%s.%s is a %s)%s", sub.Name, r.Name, f.Name, sub.Name, r.Name, f.Name,
				f.Type.Struct.Name, suggest(sub.Name, structFieldNames(f.Type.Struct), "its fields"))
			return bad(p)
		}
	case f.Type.Kind == StructKind && sc.proj == nil:
		c.errorf(p, KindType, "%s.%s is a %s struct: name one of its fields (%s)", r.Name, f.Name, f.Type.Struct.Name, qualified(r.Name+"."+f.Name, structFieldNames(f.Type.Struct)))
		return bad(p)
	case f.Type.Kind == StructKind && f.Type.Struct != sc.projStruct:
		c.errorf(p, KindType, "mismatched struct types: %s.%s is a %s, and the assignment sets a %s", r.Name, f.Name, f.Type.Struct.Name, sc.projStruct.Name)
		return bad(p)
	case f.Type.Kind == StructKind:
		ref.Sub = sc.proj
	case sub != nil:
		c.errorf(c.pos(sub.Pos), KindType, "%s.%s is %s, not a struct: it has no field %q", r.Name, f.Name, f.Type, sub.Name)
		return bad(p)
	}
	if !slices.Contains(sc.b.access.Resources, r) {
		sc.b.access.Resources = append(sc.b.access.Resources, r)
	}
	return ref
}

// structFieldNames lists a struct's field names.
func structFieldNames(st *Struct) []string {
	names := make([]string, len(st.Fields))
	for i, f := range st.Fields {
		names[i] = f.Name
	}
	return names
}

// qualified is "p.A, p.B" for names A, B.
func qualified(prefix string, names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = prefix + "." + n
	}
	return strings.Join(q, ", ")
}

// memberNames lists what VAR.NAME may name in a variable's table: its
// plain columns and its struct columns (not their fields' columns).
func (v *Var) memberNames() []string {
	cols, _ := v.columns()
	var names []string
	for _, k := range cols {
		switch {
		case k.Group == nil:
			names = append(names, k.Name)
		case k.Field.Index == 0:
			names = append(names, k.Group.Name)
		}
	}
	return names
}

// columns returns the columns of a variable's table or event table and
// its name.
func (v *Var) columns() ([]*Column, string) {
	if v.Kind == EventVar {
		return v.Event.Fields, "event table " + v.Event.Name
	}
	return v.Table.Columns, "table " + v.Table.Name
}

var conversions = map[string]TypeKind{"int32": Int32, "int64": Int64, "float32": Float32, "float64": Float64}

// call checks a conversion or a built-in function.
func (c *checker) call(sc *scope, p Pos, fn *synIdent, args []*synExpr) Expr {
	want := 1
	if fn.Name == "exists" {
		return c.existsCall(p, args)
	}
	if sc.b != nil && sc.b.query != nil {
		switch fn.Name {
		case "has":
			return c.has(sc, p, args)
		case "sum", "min", "max", "avg":
			c.misplacedAggregate(sc, p, fn.Name)
			return bad(p)
		}
	}
	if _, conv := conversions[fn.Name]; !conv {
		switch fn.Name {
		case "found", "missing", "index", "floor":
		default:
			c.errorf(p, KindUnknown, "unknown function %q; the functions are found, missing, index, floor and the conversions int32, int64, float32, float64", fn.Name)
			return bad(p)
		}
	}
	if len(args) != want {
		c.errorf(p, KindType, "%s takes one argument, not %d", fn.Name, len(args))
		return bad(p)
	}
	switch fn.Name {
	case "found", "missing":
		return c.probe(sc, p, fn.Name, args[0])
	case "floor":
		return c.floor(sc, p, args[0])
	case "index":
		x := c.expr(sc, args[0])
		if invalid(x) {
			return x
		}
		if x.Type().Kind != Ref {
			c.errorf(x.Position(), KindType, "index needs a ref (a handle), not %s", describeExpr(x))
			return bad(p)
		}
		return &IndexOf{Pos: p, X: x}
	}
	x := c.expr(sc, args[0])
	if invalid(x) {
		return x
	}
	to := Type{Kind: conversions[fn.Name]}
	from := x.Type()
	switch {
	case !from.IsNumeric():
		c.errorf(x.Position(), KindType, "cannot convert %s to %s; conversions are between numbers", describeExpr(x), to)
		return bad(p)
	case from.IsUntyped():
		return c.convertTo(x, to, fn.Name+"(...)")
	case from.Kind == to.Kind:
		return x
	case from.IsFloat() && to.IsInteger():
		c.errorf(p, KindType, "cannot convert %s to %s: float to integer conversion of out-of-range values differs between machines", describeExpr(x), to)
		return bad(p)
	}
	if l, ok := x.(*Lit); ok {
		return c.typedConst(p, to, l.Value, fn.Name+"("+describeExpr(x)+")")
	}
	return &Convert{Pos: p, X: x, T: to}
}

// floor checks floor(x), folding a constant x.
func (c *checker) floor(sc *scope, p Pos, arg *synExpr) Expr {
	x := c.expr(sc, arg)
	if invalid(x) {
		return x
	}
	if !x.Type().IsFloat() {
		c.errorf(x.Position(), KindType, "floor needs a float, not %s (%s)", describeExpr(x), x.Type())
		return bad(p)
	}
	if l, ok := x.(*Lit); ok {
		f, _ := constant.Float64Val(l.Value)
		return &Lit{Pos: p, T: Type{Kind: Int32}, Value: constant.MakeInt64(int64(FloorInt32(f)))}
	}
	if x.Type().IsUntyped() {
		x = c.convertTo(x, Type{Kind: Float64}, "floor(...)")
	}
	return &Floor{Pos: p, X: x}
}

// FloorInt32 is the schema's floor(x): the greatest integer at most x,
// saturated at the int32 limits, and 0 for NaN; the generated code has
// the same function, and package runq calls this one. Pure: safe from any
// goroutine, allocates nothing.
func FloorInt32(x float64) int32 {
	switch {
	case x != x:
		return 0
	case x >= math.MaxInt32:
		return math.MaxInt32
	case x <= math.MinInt32:
		return math.MinInt32
	}
	return int32(math.Floor(x))
}

// probe checks found(v) or missing(v).
func (c *checker) probe(sc *scope, p Pos, fn string, arg *synExpr) Expr {
	id := bareName(arg)
	var v *Var
	if id != nil && sc.b != nil {
		if sc.b.broken[id.Name] {
			return bad(p)
		}
		v = sc.b.vars[id.Name]
	}
	if v == nil || v.Kind != JoinVar {
		c.errorf(c.pos(arg.Pos), KindType, "%s needs a join variable (declared by join TABLE VAR on ...), not %s", fn, exprText(arg))
		return bad(p)
	}
	return &Probe{Pos: p, Var: v, Found: fn == "found"}
}

// binary checks an arithmetic or comparison operator and folds constants.
func (c *checker) binary(op BinaryOp, p Pos, x, y Expr) Expr {
	if invalid(x) || invalid(y) {
		return bad(p)
	}
	tx, ty := x.Type(), y.Type()
	switch {
	case op.IsComparison() && (op == Eq || op == Ne) && (tx.Kind == Bool || tx.Kind == Ref):
		if !tx.Identical(ty) {
			c.errorf(p, KindType, "mismatched types %s and %s in %s", tx, ty, op)
			return bad(p)
		}
		if lx, ok := x.(*Lit); ok {
			if ly, ok := y.(*Lit); ok {
				eq := constant.BoolVal(lx.Value) == constant.BoolVal(ly.Value)
				return &Lit{Pos: x.Position(), T: Type{Kind: Bool}, Value: constant.MakeBool(eq == (op == Eq))}
			}
		}
		return &Binary{Pos: x.Position(), Op: op, X: x, Y: y, T: Type{Kind: Bool}}
	case !tx.IsNumeric() || !ty.IsNumeric():
		o := x
		if tx.IsNumeric() {
			o = y
		}
		c.errorf(p, KindType, "%s needs numbers, not %s", op, describeExpr(o))
		return bad(p)
	}
	x, y, ok := c.unify(op, p, x, y)
	if !ok {
		return bad(p)
	}
	t := x.Type()
	if op == Rem && t.IsFloat() {
		c.errorf(p, KindType, "%% needs integers, not %s", t)
		return bad(p)
	}
	ly, yConst := y.(*Lit)
	if op == Div || op == Rem {
		switch {
		case yConst && constant.Sign(ly.Value) == 0:
			c.errorf(p, KindValue, "division by zero")
			return bad(p)
		case t.IsInteger() && !yConst:
			c.errorf(p, KindValue, "integer %s needs a constant divisor: a zero divisor at run time would panic the kernel", op)
			return bad(p)
		}
	}
	rt := t
	if op.IsComparison() {
		rt = Type{Kind: Bool}
	}
	if lx, ok := x.(*Lit); ok && yConst {
		return c.fold(op, x.Position(), t, lx.Value, ly.Value, describeExpr(x)+" "+op.String()+" "+describeExpr(y))
	}
	return &Binary{Pos: x.Position(), Op: op, X: x, Y: y, T: rt}
}

// unify gives x and y one type: an untyped operand takes the other's
// type; two untyped operands stay untyped (float if either is), unless a
// comparison needs them typed.
func (c *checker) unify(op BinaryOp, p Pos, x, y Expr) (Expr, Expr, bool) {
	tx, ty := x.Type(), y.Type()
	switch {
	case tx.IsUntyped() && ty.IsUntyped():
		_, cx := x.(*Lit)
		_, cy := y.(*Lit)
		k := UntypedInt
		if tx.Kind == UntypedFloat || ty.Kind == UntypedFloat {
			k = UntypedFloat
		}
		if cx && cy {
			setUntyped(x, k)
			setUntyped(y, k)
			return x, y, true
		}
		if op.IsComparison() || k == UntypedInt {
			t := Type{Kind: Int64}
			if k == UntypedFloat {
				t = Type{Kind: Float64}
			}
			x, y = c.convertTo(x, t, op.String()), c.convertTo(y, t, op.String())
			return x, y, !invalid(x) && !invalid(y)
		}
		setUntyped(x, k)
		setUntyped(y, k)
		return x, y, true
	case tx.IsUntyped():
		x = c.convertTo(x, ty, op.String())
	case ty.IsUntyped():
		y = c.convertTo(y, tx, op.String())
	case tx.Kind != ty.Kind:
		c.errorf(p, KindType, "mismatched types %s and %s in %s; convert one, as %s(...)", tx, ty, op, wider(tx, ty))
		return x, y, false
	}
	return x, y, !invalid(x) && !invalid(y)
}

// wider is the type to convert mismatched numbers to: a float over an
// integer (float to integer conversion is not allowed), 64 bits over 32.
func wider(a, b Type) Type {
	rank := func(t Type) int { return map[TypeKind]int{Int32: 0, Int64: 1, Float32: 2, Float64: 3}[t.Kind] }
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// setUntyped gives an untyped run-time expression (built on @dt) the
// untyped kind k.
func setUntyped(e Expr, k TypeKind) {
	switch e := e.(type) {
	case *Lit:
		if k == UntypedFloat && e.T.Kind == UntypedInt {
			e.T = Type{Kind: UntypedFloat}
			e.Value = constant.ToFloat(e.Value)
		}
	case *EnvRef:
		e.T = Type{Kind: k}
	case *Unary:
		setUntyped(e.X, k)
		e.T = Type{Kind: k}
	case *Binary:
		setUntyped(e.X, k)
		setUntyped(e.Y, k)
		e.T = Type{Kind: k}
	}
}

// convertTo gives e type t where context (an assignment, a field, an
// operator) asks for it: an untyped e takes t if its value fits, a typed
// e must already be of t.
func (c *checker) convertTo(e Expr, t Type, context string) Expr {
	if invalid(e) || t.Kind == Invalid {
		return bad(e.Position())
	}
	et := e.Type()
	if !et.IsUntyped() {
		if !et.Identical(t) {
			c.errorf(e.Position(), KindType, "cannot use %s (%s) as %s in %s", describeExpr(e), et, t, context)
			return bad(e.Position())
		}
		return e
	}
	if !t.IsNumeric() {
		c.errorf(e.Position(), KindType, "cannot use %s (%s) as %s in %s", describeExpr(e), et, t, context)
		return bad(e.Position())
	}
	switch e := e.(type) {
	case *Lit:
		return c.typedConst(e.Pos, t, e.Value, describeExpr(e))
	case *EnvRef:
		if !t.IsFloat() {
			c.errorf(e.Pos, KindType, "cannot use @dt (seconds, a float) as %s in %s; convert the other operand, as float32(...)", t, context)
			return bad(e.Pos)
		}
		e.T = t
		return e
	case *Unary:
		if e.X = c.convertTo(e.X, t, context); invalid(e.X) {
			return e.X
		}
		e.T = t
		return e
	case *Binary:
		e.X, e.Y = c.convertTo(e.X, t, context), c.convertTo(e.Y, t, context)
		if invalid(e.X) || invalid(e.Y) {
			return bad(e.Pos)
		}
		e.T = t
		return e
	}
	return e
}

// typedConst converts the exact constant v to type t (untyped kinds keep
// v), reporting values that do not fit.
func (c *checker) typedConst(p Pos, t Type, v constant.Value, what string) Expr {
	switch t.Kind {
	case UntypedInt, UntypedFloat:
		return &Lit{Pos: p, T: t, Value: v}
	case Int32, Int64:
		iv := constant.ToInt(v)
		if iv.Kind() != constant.Int {
			c.errorf(p, KindType, "constant %s is not an integer; it cannot be %s", what, t)
			return bad(p)
		}
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if t.Kind == Int64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		n, exact := constant.Int64Val(iv)
		if !exact || n < lo || n > hi {
			c.errorf(p, KindValue, "constant %s overflows %s", what, t)
			return bad(p)
		}
		return &Lit{Pos: p, T: t, Value: constant.MakeInt64(n)}
	case Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		if math.IsInf(float64(f), 0) {
			c.errorf(p, KindValue, "constant %s overflows float32", what)
			return bad(p)
		}
		return &Lit{Pos: p, T: t, Value: constant.MakeFloat64(float64(f))}
	case Float64:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		if math.IsInf(f, 0) {
			c.errorf(p, KindValue, "constant %s overflows float64", what)
			return bad(p)
		}
		return &Lit{Pos: p, T: t, Value: constant.MakeFloat64(f)}
	}
	c.errorf(p, KindType, "constant %s cannot be %s", what, t)
	return bad(p)
}

var foldTokens = [...]token.Token{Add: token.ADD, Sub: token.SUB, Mul: token.MUL, Div: token.QUO, Rem: token.REM,
	Eq: token.EQL, Ne: token.NEQ, Lt: token.LSS, Le: token.LEQ, Gt: token.GTR, Ge: token.GEQ}

// fold evaluates x op y for constants of type t as the generated code
// would at run time: integers exactly (an overflow is an error, as in
// Go), typed floats rounded to their type after the operation, untyped
// values exactly.
func (c *checker) fold(op BinaryOp, p Pos, t Type, x, y constant.Value, what string) Expr {
	if op.IsComparison() {
		return &Lit{Pos: p, T: Type{Kind: Bool}, Value: constant.MakeBool(constant.Compare(x, foldTokens[op], y))}
	}
	switch t.Kind {
	case Float32:
		a, _ := constant.Float32Val(x)
		b, _ := constant.Float32Val(y)
		return c.typedConst(p, t, constant.MakeFloat64(float64(float32Op(op, a, b))), what)
	case Float64:
		a, _ := constant.Float64Val(x)
		b, _ := constant.Float64Val(y)
		return c.typedConst(p, t, constant.MakeFloat64(float64Op(op, a, b)), what)
	}
	tok := foldTokens[op]
	if op == Div && t.IsInteger() {
		tok = token.QUO_ASSIGN // truncated integer division
	}
	return c.typedConst(p, t, constant.BinaryOp(x, tok, y), what)
}

// float32Op is one float32 operation, rounded on its own (the
// conversions keep the compiler from fusing anything here).
func float32Op(op BinaryOp, a, b float32) float32 {
	switch op {
	case Add:
		return float32(a + b)
	case Sub:
		return float32(a - b)
	case Mul:
		return float32(a * b)
	}
	return float32(a / b)
}

func float64Op(op BinaryOp, a, b float64) float64 {
	switch op {
	case Add:
		return float64(a + b)
	case Sub:
		return float64(a - b)
	case Mul:
		return float64(a * b)
	}
	return float64(a / b)
}

// facts returns the joins known to have hit when e evaluates to truth.
func facts(e Expr, truth bool) uint64 {
	switch e := e.(type) {
	case *Probe:
		if e.Found == truth {
			return 1 << e.Var.Join.Index
		}
	case *Unary:
		if e.Op == Not {
			return facts(e.X, !truth)
		}
	case *Binary:
		switch {
		case e.Op == And && truth, e.Op == Or && !truth:
			return facts(e.X, truth) | facts(e.Y, truth)
		case e.Op == And, e.Op == Or:
			return facts(e.X, truth) & facts(e.Y, truth)
		}
	}
	return 0
}

// describeExpr renders a checked expression for a message.
func describeExpr(e Expr) string {
	switch e := e.(type) {
	case *Lit:
		if e.Const != nil {
			return e.Const.Name
		}
		return litText(e)
	case *ColRef:
		return e.Var.Name + "." + e.Column.Name
	case *ResRef:
		switch {
		case e.Sub != nil:
			return e.Resource.Name + "." + e.Field.Name + "." + e.Sub.Name
		case e.Index != nil:
			return e.Resource.Name + "." + e.Field.Name + "[" + describeExpr(e.Index) + "]"
		}
		return e.Resource.Name + "." + e.Field.Name
	case *Floor:
		return "floor(" + describeExpr(e.X) + ")"
	case *VarRef:
		return e.Var.Name
	case *EnvRef:
		return [...]string{"@dt", "@tick"}[e.Env]
	case *Unary:
		if e.Op == Not {
			return "not " + describeExpr(e.X)
		}
		return "-" + describeExpr(e.X)
	case *Binary:
		return describeExpr(e.X) + " " + e.Op.String() + " " + describeExpr(e.Y)
	case *Convert:
		return e.T.String() + "(" + describeExpr(e.X) + ")"
	case *Probe:
		if e.Found {
			return "found(" + e.Var.Name + ")"
		}
		return "missing(" + e.Var.Name + ")"
	case *IndexOf:
		return "index(" + describeExpr(e.X) + ")"
	case *ParamRef:
		return "parameter " + e.Param.Name + " (" + e.Param.Type.String() + ")"
	case *Has:
		return "has(" + e.Var.Name + ", " + e.Table.Name + ")"
	case *Exists:
		return "exists(from " + e.Table.Name + " " + e.Var.Name + " ...)"
	}
	return "?"
}

// litText renders a constant value in schema syntax.
func litText(l *Lit) string {
	v := l.Value
	switch v.Kind() {
	case constant.Bool:
		return strconv.FormatBool(constant.BoolVal(v))
	case constant.Int:
		return v.ExactString()
	case constant.Float:
		if l.T.IsUntyped() {
			return v.String()
		}
		bits := 64
		if l.T.Kind == Float32 {
			bits = 32
		}
		f, _ := constant.Float64Val(v)
		s := strconv.FormatFloat(f, 'g', -1, bits)
		if !strings.ContainsAny(s, ".eEn") { // keep it a float literal
			s += ".0"
		}
		return s
	}
	return v.String()
}

// exprText renders a syntax-tree expression for a message.
func exprText(e *synExpr) string { return exprString(e) }

// fieldNames lists columns for a message.
func fieldNames(cols []*Column) string { return strings.Join(colNames(cols), ", ") }

func colNames(cols []*Column) []string {
	names := make([]string, len(cols))
	for i, k := range cols {
		names[i] = k.Name
	}
	return names
}
