package schema

import "github.com/alecthomas/participle/v2/lexer"

// The syntax tree: what Parse returns, the grammar itself (participle
// struct tags; the EBNF is in docs/schema.md). Check turns it into a
// [*Schema]. Every node records the position of its first token.

// File is a parsed schema file.
type File struct {
	Decls []*synDecl `parser:"@@*"`
}

// synDecl is one top-level declaration; exactly one field is set.
type synDecl struct {
	Const    *synConstDecl    `parser:"  @@"`
	Domain   *synDomainDecl   `parser:"| @@"`
	Table    *synTableDecl    `parser:"| @@"`
	Event    *synEventDecl    `parser:"| @@"`
	Extern   *synExternDecl   `parser:"| @@"`
	System   *synSystemDecl   `parser:"| @@"`
	Struct   *synStructDecl   `parser:"| @@"`
	Resource *synResourceDecl `parser:"| @@"`
	Query    *synQueryDecl    `parser:"| @@"`
	Index    *synIndexDecl    `parser:"| @@"`
	Life     *synLifeDecl     `parser:"| @@"`
	Sub      *synSubDecl      `parser:"| @@"`
}

// synSubDecl is `subscription NAME of QUERY`, a kept result of a declared
// query (docs/schema.md, Subscriptions). The word subscription is not
// reserved.
type synSubDecl struct {
	Pos   lexer.Position
	Name  *synIdent `parser:"'subscription' @@ 'of'"`
	Query *synIdent `parser:"@@"`
}

// synLifeDecl is `lifecycle NAME of TABLE(OPTIONS) { COLUMN ... }`, a
// table's lifecycle event table (docs/schema.md, Lifecycle event
// tables). The words lifecycle and of are not reserved.
type synLifeDecl struct {
	Pos     lexer.Position
	Name    *synIdent    `parser:"'lifecycle' @@ 'of'"`
	Table   *synIdent    `parser:"@@"`
	Opts    []*synOption `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
	Columns []*synIdent  `parser:"'{' ( @@ ','? )* '}'"`
}

// synIndexDecl is `index NAME on TABLE(COLUMN, ...) KIND`, KIND one of
// hash, unique, sorted, grid(cell: NUMBER) (docs/schema.md, Indexes). The
// words index, hash, sorted, grid and cell are not reserved.
type synIndexDecl struct {
	Pos   lexer.Position
	Name  *synIdent    `parser:"'index' @@ 'on'"`
	Table *synIdent    `parser:"@@"`
	Cols  []*synIdent  `parser:"'(' @@ ( ',' @@ )* ')'"`
	Kind  *synIdent    `parser:"@@"`
	Opts  []*synOption `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
}

// synUsing is a query's forcing clause after its from: `using index
// NAME` or `using scan` (docs/schema.md, Indexes).
type synUsing struct {
	Pos   lexer.Position
	Scan  bool      `parser:"'using' ( @'scan'"`
	Index *synIdent `parser:"| 'index' @@ )"`
}

// synIdent is a name with its position.
type synIdent struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

// synConstDecl is `const NAME: TYPE = EXPR` or `const NAME = EXPR` (its
// type inferred).
type synConstDecl struct {
	Pos   lexer.Position
	Name  *synIdent    `parser:"'const' @@"`
	Type  *synTypeExpr `parser:"( ':' @@ )?"`
	Value *synExpr     `parser:"'=' @@"`
}

// synStructDecl is `struct NAME { FIELD: TYPE ... }`: a type of table
// columns, stored as one column per field.
type synStructDecl struct {
	Pos    lexer.Position
	Name   *synIdent   `parser:"'struct' @@"`
	Fields []*synField `parser:"'{' ( @@ ','? )* '}'"`
}

// synResourceDecl is `resource NAME { FIELD: TYPE = EXPR ... }`: a world
// resource, read-only in declared bodies.
type synResourceDecl struct {
	Pos    lexer.Position
	Name   *synIdent      `parser:"'resource' @@"`
	Fields []*synResField `parser:"'{' ( @@ ','? )* '}'"`
}

// synResField is a resource field, `NAME: TYPE` or `NAME: TYPE = EXPR`
// (its initial value).
type synResField struct {
	Pos   lexer.Position
	Name  *synIdent    `parser:"@@ ':'"`
	Type  *synTypeExpr `parser:"@@"`
	Value *synExpr     `parser:"( '=' @@ )?"`
}

// synOption is `KEY: VALUE` in a declaration's parentheses.
type synOption struct {
	Pos   lexer.Position
	Key   *synOptKey   `parser:"@@ ':'"`
	Value *synOptValue `parser:"@@"`
}

// synOptKey is an option's name; it may be a keyword (domain).
type synOptKey struct {
	Pos  lexer.Position
	Name string `parser:"@( Ident | Keyword )"`
}

// synOptValue is a list of names `[A, B]` or one expression.
type synOptValue struct {
	Pos    lexer.Position
	IsList bool        `parser:"(  @'['"`
	List   []*synIdent `parser:"   ( @@ ( ',' @@ )* )? ']'"`
	Expr   *synExpr    `parser:" | @@ )"`
}

// synDomainDecl is `domain NAME(OPTIONS)`.
type synDomainDecl struct {
	Pos  lexer.Position
	Name *synIdent    `parser:"'domain' @@"`
	Opts []*synOption `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
}

// synTableDecl is `table NAME(OPTIONS) { COLUMN: TYPE ... }`.
type synTableDecl struct {
	Pos     lexer.Position
	Name    *synIdent    `parser:"'table' @@"`
	Opts    []*synOption `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
	Columns []*synField  `parser:"'{' ( @@ ','? )* '}'"`
}

// synEventDecl is `event table NAME(OPTIONS) { FIELD: TYPE ... }`.
type synEventDecl struct {
	Pos    lexer.Position
	Name   *synIdent    `parser:"'event' 'table' @@"`
	Opts   []*synOption `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
	Fields []*synField  `parser:"'{' ( @@ ','? )* '}'"`
}

// synField is a column or event field, `NAME: TYPE`, or `NAME: TYPE
// unique` (a declared unique key: table columns only, docs/schema.md,
// Queries).
type synField struct {
	Pos    lexer.Position
	Name   *synIdent    `parser:"@@ ':'"`
	Type   *synTypeExpr `parser:"@@"`
	Unique bool         `parser:"@'unique'?"`
}

// synTypeExpr is a type name, `ref TABLE` or `[N]TYPE` (an array: a
// resource field's type only).
type synTypeExpr struct {
	Pos  lexer.Position
	Ref  *synIdent `parser:"  'ref' @@"`
	Len  *synExpr  `parser:"| '[' @@ ']'"`
	Elem *synIdent `parser:"  @@"`
	Name *synIdent `parser:"| @@"`
}

// synExternDecl is `extern system NAME`: a hand-written system that declared
// systems may order themselves against.
type synExternDecl struct {
	Pos  lexer.Position
	Name *synIdent `parser:"'extern' 'system' @@"`
}

// synSystemDecl is `system NAME(OPTIONS) { BODY }`.
type synSystemDecl struct {
	Pos  lexer.Position
	Name *synIdent    `parser:"'system' @@"`
	Opts []*synOption `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
	Body *synBody     `parser:"'{' @@ '}'"`
}

// synBody is a system's body: one from clause, its change filters, its
// joins, then statements.
type synBody struct {
	Pos   lexer.Position
	From  *synFromClause   `parser:"@@"`
	Where []*synChange     `parser:"( 'where' @@ ( 'or' @@ )* )?"`
	Joins []*synJoinClause `parser:"@@*"`
	Stmts []*synStmt       `parser:"@@*"`
}

// synFromClause is `from TABLE VAR`.
type synFromClause struct {
	Pos   lexer.Position
	Table *synIdent `parser:"'from' @@"`
	Var   *synIdent `parser:"@@"`
}

// synChange is a change filter of a system's from row: `changed(VAR.COLUMN)`
// (or `VAR.COLUMN.FIELD`) or `added(VAR)`.
type synChange struct {
	Pos   lexer.Position
	Kind  string    `parser:"@( 'changed' | 'added' )"`
	Var   *synIdent `parser:"'(' @@"`
	Col   *synIdent `parser:"( '.' @@"`
	Field *synIdent `parser:"( '.' @@ )? )? ')'"`
}

// synJoinClause is `join TABLE VAR on VAR.COLUMN`.
type synJoinClause struct {
	Pos   lexer.Position
	Table *synIdent   `parser:"'join' @@"`
	Var   *synIdent   `parser:"@@"`
	On    *synColExpr `parser:"'on' @@"`
}

// synStmt is one statement; exactly one field is set.
type synStmt struct {
	Pos    lexer.Position
	Set    *synSetStmt    `parser:"  @@"`
	Match  *synMatchStmt  `parser:"| @@"`
	Emit   *synEmitStmt   `parser:"| @@"`
	Delete *synDeleteStmt `parser:"| @@"`
	Count  *synCountStmt  `parser:"| @@"`
}

// synSetStmt is `set TARGET OP EXPR, ...`.
type synSetStmt struct {
	Pos     lexer.Position
	Assigns []*synAssign `parser:"'set' @@ ( ',' @@ )*"`
}

// synAssign is one `VAR.COLUMN OP EXPR` of a set, OP one of = += -= *=.
type synAssign struct {
	Pos    lexer.Position
	Target *synColExpr `parser:"@@"`
	Op     string      `parser:"@( '=' | '+=' | '-=' | '*=' )"`
	Value  *synExpr    `parser:"@@"`
}

// synMatchStmt is `match { COND => { STMTS } ... }`.
type synMatchStmt struct {
	Pos  lexer.Position
	Arms []*synArm `parser:"'match' '{' ( @@ ','? )* '}'"`
}

// synArm is one `COND => { STMTS }` or `else => { STMTS }` of a match.
type synArm struct {
	Pos   lexer.Position
	Else  bool       `parser:"( @'else'"`
	Cond  *synExpr   `parser:"| @@ ) '=>'"`
	Stmts []*synStmt `parser:"'{' @@* '}'"`
}

// synEmitStmt is `emit EVENT { FIELD: EXPR, ... }`.
type synEmitStmt struct {
	Pos    lexer.Position
	Event  *synIdent       `parser:"'emit' @@"`
	Fields []*synFieldInit `parser:"'{' ( @@ ','? )* '}'"`
}

// synFieldInit is one `FIELD: EXPR` of an emit.
type synFieldInit struct {
	Pos   lexer.Position
	Name  *synIdent `parser:"@@ ':'"`
	Value *synExpr  `parser:"@@"`
}

// synDeleteStmt is `delete VAR` (the row) or `delete entity VAR`.
type synDeleteStmt struct {
	Pos    lexer.Position
	Entity bool      `parser:"'delete' @'entity'?"`
	Var    *synIdent `parser:"@@"`
}

// synCountStmt is `count NAME`.
type synCountStmt struct {
	Pos  lexer.Position
	Name *synIdent `parser:"'count' @@"`
}

// synColExpr is `VAR.COLUMN` or `VAR.COLUMN.FIELD` (a field of a struct
// column).
type synColExpr struct {
	Pos    lexer.Position
	Var    *synIdent `parser:"@@ '.'"`
	Column *synIdent `parser:"@@"`
	Field  *synIdent `parser:"( '.' @@ )?"`
}

// synExpr is an expression: `or` binds loosest, then `and`, `not`,
// comparisons, + -, * / %, unary minus.
type synExpr struct {
	Pos   lexer.Position
	Left  *synAndExpr   `parser:"@@"`
	Right []*synAndExpr `parser:"( 'or' @@ )*"`
}

// synAndExpr is `NOT and NOT ...`.
type synAndExpr struct {
	Pos   lexer.Position
	Left  *synNotExpr   `parser:"@@"`
	Right []*synNotExpr `parser:"( 'and' @@ )*"`
}

// synNotExpr is `not NOT` or a comparison.
type synNotExpr struct {
	Pos lexer.Position
	Not *synNotExpr `parser:"  'not' @@"`
	Cmp *synCmpExpr `parser:"| @@"`
}

// synCmpExpr is `ADD [CMPOP ADD]`; comparisons do not chain.
type synCmpExpr struct {
	Pos   lexer.Position
	Left  *synAddExpr `parser:"@@"`
	Op    string      `parser:"( @( '==' | '!=' | '<=' | '>=' | '<' | '>' )"`
	Right *synAddExpr `parser:"  @@ )?"`
}

// synAddExpr is `MUL { (+|-) MUL }`.
type synAddExpr struct {
	Pos   lexer.Position
	Left  *synMulExpr `parser:"@@"`
	Right []*synOpMul `parser:"@@*"`
}

// synOpMul is one `+ MUL` or `- MUL`.
type synOpMul struct {
	Pos   lexer.Position
	Op    string      `parser:"@( '+' | '-' )"`
	Right *synMulExpr `parser:"@@"`
}

// synMulExpr is `UNARY { (*|/|%) UNARY }`.
type synMulExpr struct {
	Pos   lexer.Position
	Left  *synUnary     `parser:"@@"`
	Right []*synOpUnary `parser:"@@*"`
}

// synOpUnary is one `* UNARY`, `/ UNARY` or `% UNARY`.
type synOpUnary struct {
	Pos   lexer.Position
	Op    string    `parser:"@( '*' | '/' | '%' )"`
	Right *synUnary `parser:"@@"`
}

// synUnary is `- UNARY` or a primary expression.
type synUnary struct {
	Pos     lexer.Position
	Neg     *synUnary   `parser:"  '-' @@"`
	Primary *synPrimary `parser:"| @@"`
}

// synPrimary is a literal, @dt/@tick, count() (a query's aggregate), a name (a constant, a column VAR.COLUMN,
// a call NAME(ARGS)) or a parenthesised expression; exactly one field is
// set.
type synPrimary struct {
	Pos   lexer.Position
	Float *string      `parser:"  @Float"`
	Int   *string      `parser:"| @Int"`
	Bool  *string      `parser:"| @( 'true' | 'false' )"`
	At    *string      `parser:"| @At"`
	Count bool         `parser:"| @'count' '(' ')'"`
	Name  *synNameExpr `parser:"| @@"`
	Paren *synExpr     `parser:"| '(' @@ ')'"`
}

// synNameExpr is NAME, VAR.COLUMN, VAR.COLUMN.FIELD, RESOURCE.FIELD[INDEX]
// or NAME(ARGS): a constant or row variable, a column (or a resource's
// field), a field of a struct column, an element of a resource's array,
// or a conversion or built-in function; NAME(ARGS) over (...) is a
// query's window function (a whole select item only).
type synNameExpr struct {
	Pos    lexer.Position
	Name   *synIdent    `parser:"@@"`
	Column *synIdent    `parser:"( '.' @@"`
	Field  *synIdent    `parser:"  ( '.' @@ )?"`
	Index  *synExpr     `parser:"  ( '[' @@ ']' )?"`
	Call   bool         `parser:"| @'(' "`
	Sub    *synSubquery `parser:"  ( @@"`
	Args   []*synExpr   `parser:"  | @@ ( ',' @@ )* )? ')'"`
	Over   *synWindow   `parser:"  @@? )?"`
}

// synWindow is `over ([partition by EXPR, ...] [order by EXPR [asc|desc],
// ...])`: the window of row_number() or sum(EXPR) in a query's select.
type synWindow struct {
	Pos       lexer.Position
	Over      bool            `parser:"@'over' '('"`
	Partition []*synExpr      `parser:"( 'partition' 'by' @@ ( ',' @@ )* )?"`
	Order     []*synOrderItem `parser:"( 'order' 'by' @@ ( ',' @@ )* )? ')'"`
}

// synQueryDecl is `query NAME(PARAM: TYPE, ...) { from ... }`: a declared
// query (docs/schema.md, Queries): one body, or a set operation of two
// (syntax_semi.go). Its clause words (where, group, by, select,
// distinct, order, asc, desc, after, limit, left, as, over, partition,
// union, intersect, except) and the attribute unique are not reserved:
// they are words of the grammar only.
type synQueryDecl struct {
	Pos    lexer.Position
	Name   *synIdent     `parser:"'query' @@"`
	Params []*synParam   `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	Body   *synQueryBody `parser:"'{' ( @@"`
	Set    *synSetQuery  `parser:"  | @@ ) '}'"` // a set operation of two bodies (Body nil)
}

// synParam is a query parameter, `NAME: TYPE`.
type synParam struct {
	Pos  lexer.Position
	Name *synIdent    `parser:"@@ ':'"`
	Type *synTypeExpr `parser:"@@"`
}

// synQueryBody is a query's clauses in their logical order. Stmts are
// parsed only to be refused (a query reads only).
type synQueryBody struct {
	Pos      lexer.Position
	From     *synFromClause   `parser:"@@"`
	Using    *synUsing        `parser:"@@?"`
	Joins    []*synQueryJoin  `parser:"@@*"`
	Stmts    []*synStmt       `parser:"@@*"`
	Where    *synExpr         `parser:"( 'where' @@ )?"`
	Group    []*synExpr       `parser:"( 'group' 'by' @@ ( ',' @@ )* )?"`
	Distinct bool             `parser:"'select' @'distinct'?"`
	Select   []*synSelectItem `parser:"@@ ( ',' @@ )*"`
	Order    []*synOrderItem  `parser:"( 'order' 'by' @@ ( ',' @@ )* )?"`
	After    *synAfter        `parser:"@@?"`
	Limit    *synExpr         `parser:"( 'limit' @@ )?"`
}

// synAfter is `after (EXPR, ...)`: keyset pagination, the rows whose order
// by keys come after these values (docs/schema.md, Queries).
type synAfter struct {
	Pos    lexer.Position
	Values []*synExpr `parser:"'after' '(' @@ ( ',' @@ )* ')'"`
}

// synQueryJoin is `[left] join TABLE VAR on VAR.COLUMN` (through a ref
// column) or `[left] join TABLE VAR on VAR` (the same entity's row).
type synQueryJoin struct {
	Pos    lexer.Position
	Left   bool      `parser:"@'left'? 'join'"`
	Table  *synIdent `parser:"@@"`
	Var    *synIdent `parser:"@@ 'on'"`
	On     *synIdent `parser:"@@"`
	Column *synIdent `parser:"( '.' @@"`
	Field  *synIdent `parser:"  ( '.' @@ )? )?"`
}

// synSelectItem is `EXPR [as NAME]`.
type synSelectItem struct {
	Pos  lexer.Position
	Expr *synExpr  `parser:"@@"`
	As   *synIdent `parser:"( 'as' @@ )?"`
}

// synOrderItem is `EXPR [asc|desc]`.
type synOrderItem struct {
	Pos  lexer.Position
	Expr *synExpr `parser:"@@"`
	Dir  string   `parser:"@( 'asc' | 'desc' )?"`
}
