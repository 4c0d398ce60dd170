package schema

// The printing of subqueries and set operations (Format).

// setQuery prints a set operation's two bodies.
func (p *printer) setQuery(s *synSetQuery) {
	p.line("(")
	p.indent++
	p.queryBody(s.Left)
	p.indent--
	p.line(") ", s.Op, " (")
	p.indent++
	p.queryBody(s.Right)
	p.indent--
	p.line(")")
}

// subqueryText is a subquery on one line.
func subqueryText(s *synSubquery) string {
	t := "from " + s.Table.Name + " " + s.Var.Name
	if s.Where != nil {
		t += " where " + exprString(s.Where)
	}
	return t
}
