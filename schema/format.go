package schema

import (
	"strings"
)

// Format prints f in canonical form: one declaration per paragraph, tabs
// for indentation, one space around operators, comments dropped. Parsing
// the result gives a tree that Format prints the same (FuzzParse checks
// it). Safe for concurrent use.
func Format(f *File) []byte {
	p := &printer{}
	for i, d := range f.Decls {
		if i > 0 {
			p.s("\n")
		}
		p.decl(d)
	}
	return []byte(p.b.String())
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) s(parts ...string) {
	for _, s := range parts {
		p.b.WriteString(s)
	}
}

func (p *printer) line(parts ...string) {
	p.b.WriteString(strings.Repeat("\t", p.indent))
	p.s(parts...)
	p.b.WriteByte('\n')
}

func (p *printer) decl(d *synDecl) {
	switch {
	case d.Const != nil:
		if d.Const.Type == nil {
			p.line("const ", d.Const.Name.Name, " = ", exprString(d.Const.Value))
			break
		}
		p.line("const ", d.Const.Name.Name, ": ", typeText(d.Const.Type), " = ", exprString(d.Const.Value))
	case d.Struct != nil:
		p.fields("struct "+d.Struct.Name.Name, d.Struct.Fields)
	case d.Resource != nil:
		p.line("resource ", d.Resource.Name.Name, " {")
		p.indent++
		for _, f := range d.Resource.Fields {
			if f.Value == nil {
				p.line(f.Name.Name, ": ", typeText(f.Type))
				continue
			}
			p.line(f.Name.Name, ": ", typeText(f.Type), " = ", exprString(f.Value))
		}
		p.indent--
		p.line("}")
	case d.Domain != nil:
		p.line("domain ", d.Domain.Name.Name, optsText(d.Domain.Opts))
	case d.Table != nil:
		p.fields("table "+d.Table.Name.Name+optsText(d.Table.Opts), d.Table.Columns)
	case d.Event != nil:
		p.fields("event table "+d.Event.Name.Name+optsText(d.Event.Opts), d.Event.Fields)
	case d.Extern != nil:
		p.line("extern system ", d.Extern.Name.Name)
	case d.System != nil:
		s := d.System
		p.line("system ", s.Name.Name, optsText(s.Opts), " {")
		p.indent++
		p.line("from ", s.Body.From.Table.Name, " ", s.Body.From.Var.Name, changesText(s.Body.Where))
		for _, j := range s.Body.Joins {
			p.line("join ", j.Table.Name, " ", j.Var.Name, " on ", colText(j.On))
		}
		p.stmts(s.Body.Stmts)
		p.indent--
		p.line("}")
	case d.Query != nil:
		p.query(d.Query)
	case d.Index != nil:
		x := d.Index
		cols := make([]string, len(x.Cols))
		for i, c := range x.Cols {
			cols[i] = c.Name
		}
		p.line("index ", x.Name.Name, " on ", x.Table.Name, "(", strings.Join(cols, ", "), ") ", x.Kind.Name, optsText(x.Opts))
	case d.Life != nil:
		l := d.Life
		cols := make([]string, len(l.Columns))
		for i, c := range l.Columns {
			cols[i] = c.Name
		}
		body := " { }"
		if len(cols) > 0 {
			body = " { " + strings.Join(cols, ", ") + " }"
		}
		p.line("lifecycle ", l.Name.Name, " of ", l.Table.Name, optsText(l.Opts), body)
	case d.Sub != nil:
		p.line("subscription ", d.Sub.Name.Name, " of ", d.Sub.Query.Name)
	}
}

func (p *printer) query(q *synQueryDecl) {
	params := make([]string, len(q.Params))
	for i, a := range q.Params {
		params[i] = a.Name.Name + ": " + typeText(a.Type)
	}
	p.line("query ", q.Name.Name, "(", strings.Join(params, ", "), ") {")
	p.indent++
	if q.Set != nil {
		p.setQuery(q.Set)
	} else {
		p.queryBody(q.Body)
	}
	p.indent--
	p.line("}")
}

// queryBody prints a query's clauses, one a line.
func (p *printer) queryBody(b *synQueryBody) {
	switch {
	case b.Using == nil:
		p.line("from ", b.From.Table.Name, " ", b.From.Var.Name)
	case b.Using.Scan:
		p.line("from ", b.From.Table.Name, " ", b.From.Var.Name, " using scan")
	default:
		p.line("from ", b.From.Table.Name, " ", b.From.Var.Name, " using index ", b.Using.Index.Name)
	}
	for _, j := range b.Joins {
		on := j.On.Name
		if j.Column != nil {
			on += "." + j.Column.Name
			if j.Field != nil {
				on += "." + j.Field.Name
			}
		}
		left := ""
		if j.Left {
			left = "left "
		}
		p.line(left, "join ", j.Table.Name, " ", j.Var.Name, " on ", on)
	}
	p.stmts(b.Stmts)
	if b.Where != nil {
		p.line("where ", exprString(b.Where))
	}
	if len(b.Group) > 0 {
		keys := make([]string, len(b.Group))
		for i, k := range b.Group {
			keys[i] = exprString(k)
		}
		p.line("group by ", strings.Join(keys, ", "))
	}
	items := make([]string, len(b.Select))
	for i, it := range b.Select {
		items[i] = exprString(it.Expr)
		if it.As != nil {
			items[i] += " as " + it.As.Name
		}
	}
	distinct := ""
	if b.Distinct {
		distinct = "distinct "
	}
	p.line("select ", distinct, strings.Join(items, ", "))
	if len(b.Order) > 0 {
		keys := make([]string, len(b.Order))
		for i, k := range b.Order {
			keys[i] = exprString(k.Expr)
			if k.Dir != "" {
				keys[i] += " " + k.Dir
			}
		}
		p.line("order by ", strings.Join(keys, ", "))
	}
	if b.After != nil {
		vals := make([]string, len(b.After.Values))
		for i, v := range b.After.Values {
			vals[i] = exprString(v)
		}
		p.line("after (", strings.Join(vals, ", "), ")")
	}
	if b.Limit != nil {
		p.line("limit ", exprString(b.Limit))
	}
}

func (p *printer) fields(head string, fs []*synField) {
	p.line(head, " {")
	p.indent++
	for i, f := range fs {
		attr := ""
		if f.Unique {
			attr = " unique"
		}
		if i+1 < len(fs) && fs[i+1].Name.Name == "unique" {
			attr += "," // else the next column's name reads as this one's attribute
		}
		p.line(f.Name.Name, ": ", typeText(f.Type), attr)
	}
	p.indent--
	p.line("}")
}

func (p *printer) stmts(ss []*synStmt) {
	for _, s := range ss {
		switch {
		case s.Set != nil:
			parts := make([]string, len(s.Set.Assigns))
			for i, a := range s.Set.Assigns {
				parts[i] = colText(a.Target) + " " + a.Op + " " + exprString(a.Value)
			}
			p.line("set ", strings.Join(parts, ", "))
		case s.Match != nil:
			p.line("match {")
			p.indent++
			for _, a := range s.Match.Arms {
				cond := "else"
				if !a.Else {
					cond = exprString(a.Cond)
				}
				if len(a.Stmts) == 0 {
					p.line(cond, " => {}")
					continue
				}
				p.line(cond, " => {")
				p.indent++
				p.stmts(a.Stmts)
				p.indent--
				p.line("}")
			}
			p.indent--
			p.line("}")
		case s.Emit != nil:
			parts := make([]string, len(s.Emit.Fields))
			for i, f := range s.Emit.Fields {
				parts[i] = f.Name.Name + ": " + exprString(f.Value)
			}
			p.line("emit ", s.Emit.Event.Name, " { ", strings.Join(parts, ", "), " }")
		case s.Delete != nil:
			if s.Delete.Entity {
				p.line("delete entity ", s.Delete.Var.Name)
			} else {
				p.line("delete ", s.Delete.Var.Name)
			}
		case s.Count != nil:
			p.line("count ", s.Count.Name.Name)
		}
	}
}

// colText prints VAR.COLUMN or VAR.COLUMN.FIELD.
func colText(c *synColExpr) string {
	if c.Field != nil {
		return c.Var.Name + "." + c.Column.Name + "." + c.Field.Name
	}
	return c.Var.Name + "." + c.Column.Name
}

func typeText(t *synTypeExpr) string {
	switch {
	case t.Ref != nil:
		return "ref " + t.Ref.Name
	case t.Len != nil:
		return "[" + exprString(t.Len) + "]" + t.Elem.Name
	}
	return t.Name.Name
}

func optsText(opts []*synOption) string {
	if len(opts) == 0 {
		return ""
	}
	parts := make([]string, len(opts))
	for i, o := range opts {
		v := o.Value
		if v.IsList {
			names := make([]string, len(v.List))
			for j, id := range v.List {
				names[j] = id.Name
			}
			parts[i] = o.Key.Name + ": [" + strings.Join(names, ", ") + "]"
		} else {
			parts[i] = o.Key.Name + ": " + exprString(v.Expr)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// exprString prints a syntax-tree expression; parentheses are the
// source's, so the tree structure is kept.
func exprString(e *synExpr) string {
	var b strings.Builder
	writeOr(&b, e)
	return b.String()
}

func writeOr(b *strings.Builder, e *synExpr) {
	writeAnd(b, e.Left)
	for _, r := range e.Right {
		b.WriteString(" or ")
		writeAnd(b, r)
	}
}

func writeAnd(b *strings.Builder, e *synAndExpr) {
	writeNot(b, e.Left)
	for _, r := range e.Right {
		b.WriteString(" and ")
		writeNot(b, r)
	}
}

func writeNot(b *strings.Builder, e *synNotExpr) {
	if e.Not != nil {
		b.WriteString("not ")
		writeNot(b, e.Not)
		return
	}
	writeAdd(b, e.Cmp.Left)
	if e.Cmp.Op != "" {
		b.WriteString(" " + e.Cmp.Op + " ")
		writeAdd(b, e.Cmp.Right)
	}
}

func writeAdd(b *strings.Builder, e *synAddExpr) {
	writeMul(b, e.Left)
	for _, r := range e.Right {
		b.WriteString(" " + r.Op + " ")
		writeMul(b, r.Right)
	}
}

func writeMul(b *strings.Builder, e *synMulExpr) {
	writeUnary(b, e.Left)
	for _, r := range e.Right {
		b.WriteString(" " + r.Op + " ")
		writeUnary(b, r.Right)
	}
}

func writeUnary(b *strings.Builder, e *synUnary) {
	if e.Neg != nil {
		b.WriteString("-")
		writeUnary(b, e.Neg)
		return
	}
	x := e.Primary
	switch {
	case x.Float != nil:
		b.WriteString(*x.Float)
	case x.Int != nil:
		b.WriteString(*x.Int)
	case x.Bool != nil:
		b.WriteString(*x.Bool)
	case x.At != nil:
		b.WriteString(*x.At)
	case x.Count:
		b.WriteString("count()")
	case x.Paren != nil:
		b.WriteString("(")
		writeOr(b, x.Paren)
		b.WriteString(")")
	case x.Name != nil:
		n := x.Name
		b.WriteString(n.Name.Name)
		switch {
		case n.Column != nil:
			b.WriteString("." + n.Column.Name)
			if n.Field != nil {
				b.WriteString("." + n.Field.Name)
			}
			if n.Index != nil {
				b.WriteString("[")
				writeOr(b, n.Index)
				b.WriteString("]")
			}
		case n.Call && n.Sub != nil:
			b.WriteString("(" + subqueryText(n.Sub) + ")")
		case n.Call:
			b.WriteString("(")
			for i, a := range n.Args {
				if i > 0 {
					b.WriteString(", ")
				}
				writeOr(b, a)
			}
			b.WriteString(")")
			if n.Over != nil {
				writeWindow(b, n.Over)
			}
		}
	}
}

// writeWindow prints ` over (partition by ... order by ...)`.
func writeWindow(b *strings.Builder, w *synWindow) {
	b.WriteString(" over (")
	if len(w.Partition) > 0 {
		b.WriteString("partition by ")
		for i, k := range w.Partition {
			if i > 0 {
				b.WriteString(", ")
			}
			writeOr(b, k)
		}
	}
	if len(w.Order) > 0 {
		if len(w.Partition) > 0 {
			b.WriteString(" ")
		}
		b.WriteString("order by ")
		for i, k := range w.Order {
			if i > 0 {
				b.WriteString(", ")
			}
			writeOr(b, k.Expr)
			if k.Dir != "" {
				b.WriteString(" " + k.Dir)
			}
		}
	}
	b.WriteString(")")
}

// changesText formats a from clause's change filters, "" without any.
func changesText(fs []*synChange) string {
	if len(fs) == 0 {
		return ""
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = changeText(f)
	}
	return " where " + strings.Join(parts, " or ")
}

// changeText formats one change filter: changed(x.C) or added(x).
func changeText(f *synChange) string {
	arg := f.Var.Name
	if f.Col != nil {
		arg += "." + f.Col.Name
		if f.Field != nil {
			arg += "." + f.Field.Name
		}
	}
	return f.Kind + "(" + arg + ")"
}
