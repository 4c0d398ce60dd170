package schema

import "github.com/alecthomas/participle/v2/lexer"

// The syntax of semi-/anti-joins and set operations in queries
// (docs/schema.md, Queries: exists and set operations).

// synSubquery is the argument of exists: `from TABLE VAR [where EXPR]`.
// It parses wherever a call's arguments may stand; the checker refuses it
// anywhere but in exists(...) of a query's where.
type synSubquery struct {
	Pos   lexer.Position
	Table *synIdent `parser:"'from' @@"`
	Var   *synIdent `parser:"@@"`
	Where *synExpr  `parser:"( 'where' @@ )?"`
}

// synSetQuery is `(BODY) union (BODY)`, `intersect` or `except`: the body
// of a query that combines two results. The words union, intersect and
// except are words of the query grammar, not reserved.
type synSetQuery struct {
	Pos   lexer.Position
	Left  *synQueryBody `parser:"'(' @@ ')'"`
	Op    string        `parser:"@( 'union' | 'intersect' | 'except' )"`
	Right *synQueryBody `parser:"'(' @@ ')'"`
}
