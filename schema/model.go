package schema

import (
	"go/constant"
)

// Schema is a checked schema: every name resolved, every expression
// typed, constant subexpressions folded, each system's access derived.
// The Pos of a declaration is that of its name.
// Check builds it; the generator reads it. Declarations keep the order of
// the text. Read-only once built; safe for concurrent reads.
type Schema struct {
	File       string
	Consts     []*Const
	Structs    []*Struct
	Resources  []*Resource
	Domains    []*Domain
	Tables     []*Table
	Events     []*EventTable
	Externs    []*Extern
	Systems    []*System
	Queries    []*Query
	Indexes    []*Index // in text order
	Lifecycles []*Lifecycle
	// Subscriptions are the kept results of declared queries, in text
	// order (docs/schema.md, Subscriptions).
	Subscriptions []*Subscription
}

// Const is a named constant: `const NAME: TYPE = EXPR`, its value folded,
// or `const NAME = EXPR`, whose type is EXPR's: an untyped constant
// (UntypedInt, UntypedFloat: exact, typed by each use, as a literal) when
// EXPR is built of literals and untyped constants.
type Const struct {
	Pos   Pos
	Name  string
	Type  Type
	Value constant.Value // exact for integers and untyped floats; for floats the value of Type (float32 values are exact float32s)
}

// Struct is a declared struct type: `struct NAME { FIELD: TYPE ... }`. A
// table column of a struct type is stored as one engine column per field
// (a [StructColumn]); fields are int32, int64, float32, float64, bool or
// ref, never structs.
type Struct struct {
	Pos    Pos
	Name   string
	Fields []*StructField
}

// StructField is a field of a struct type.
type StructField struct {
	Pos   Pos
	Name  string
	Type  Type
	Index int // position in its struct
}

// StructColumn is a table column of a struct type, `Pos: Vec2`: one
// Column of its table per field of the struct, in field order, named
// "Pos.X", "Pos.Y" (the engine's column names and the body's VAR.Pos.X).
type StructColumn struct {
	Pos    Pos
	Name   string
	Struct *Struct
	Table  *Table
	Fields []*Column
}

// Resource is a declared world resource, `resource NAME { FIELD: TYPE =
// EXPR ... }`: one value of a struct of its fields, which declared bodies
// read (NAME.FIELD) and never write; a hand-written system or the host
// writes it.
type Resource struct {
	Pos    Pos
	Name   string
	Fields []*ResourceField
}

// ResourceField is a field of a resource: a basic type or a struct, with
// its initial value (Value, of Type; nil: the zero value).
type ResourceField struct {
	Pos   Pos
	Name  string
	Type  Type
	Value constant.Value
	Index int
}

// Domain is an entity domain: a handle space shared by its tables.
type Domain struct {
	Pos       Pos
	Name      string
	Capacity  int // entities
	ChunkRows int // rows per chunk of every member table; 0 = the engine's default
	Tables    []*Table
}

// Table is a table of rows with typed columns.
type Table struct {
	Pos       Pos
	Name      string
	Domain    *Domain   // nil for a standalone table
	Capacity  int       // rows; the domain's for a member table
	ChunkRows int       // 0 = the engine's default; the domain's for a member table
	Columns   []*Column // the engine's columns: plain ones and the fields of struct columns, in declaration order
	Structs   []*StructColumn
}

// Column is a column of a table or a field of an event table. A field of
// a struct column is a column of its own, named "COLUMN.FIELD".
type Column struct {
	Pos   Pos
	Name  string
	Type  Type
	Table *Table        // nil for an event field
	Event *EventTable   // nil for a table column
	Index int           // position in its table or event table
	Group *StructColumn // the struct column it is a field of; nil for a plain column
	Field *StructField  // its field of Group.Struct
	// Unique: declared `unique` (an int32, int64 or ref table column): a
	// query's `where v.C == x` is a lookup that stops at the first match
	// (docs/schema.md, Queries).
	Unique bool
}

// Lifetime says when events are readable (the engine's events.Lifetime).
type Lifetime uint8

// The lifetimes.
const (
	NextFrame Lifetime = iota // readable from the next frame, once per consumer
	ThisFrame                 // readable later in the frame they are emitted in
)

func (l Lifetime) String() string {
	if l == ThisFrame {
		return "this_frame"
	}
	return "next_frame"
}

// EventTable is an event table: a bounded queue of typed events.
type EventTable struct {
	Pos      Pos
	Name     string
	Capacity int // events held at once
	Lifetime Lifetime
	Fields   []*Column
}

// Lifecycle is a table's lifecycle event table, `lifecycle NAME of
// TABLE(capacity: N, on: [CHANGE, ...]) { COLUMN ... }`: the engine's
// tickwork.Lifecycle, whose events a hand-written system consumes
// (docs/schema.md, Lifecycle event tables).
type Lifecycle struct {
	Pos      Pos
	Name     string
	Table    *Table
	Capacity int // events held at once
	// On lists the changes recorded, in the order created, attached,
	// deleted, detached: all four when the declaration has no on option.
	On []string
	// Columns are the table's columns whose last values a delete or
	// detach event keeps, in the declaration's order.
	Columns []*Column
}

// LifecycleChanges are the changes a lifecycle event table may record,
// in their order (Lifecycle.On).
var LifecycleChanges = []string{"created", "attached", "deleted", "detached"}

// Extern is a hand-written system that declared systems order against.
type Extern struct {
	Pos  Pos
	Name string
}

// Phase is the part of a frame a system runs in (the engine's
// systems.Phase, in running order).
type Phase uint8

// The phases.
const (
	FrameStart Phase = iota
	FixedUpdate
	Update
	LateUpdate
	FrameEnd
)

var phaseNames = [...]string{"frame_start", "fixed_update", "update", "late_update", "frame_end"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// System is a declared system: it runs its body once for each row of a
// table (or each readable event of an event table), in phase Phase.
type System struct {
	Pos    Pos
	Name   string
	Phase  Phase
	Before []string // systems that run after this one
	After  []string // systems that run before this one
	Grain  int      // the parallel kernel's least chunks per worker (option grain); 0: the world's policy
	From   *Var
	// Changed and Added are the from clause's change filters (`where
	// changed(x.C) or added(x)`): the body runs only on the chunks of the
	// from table holding a change of one of the Changed columns or an
	// added row since the system's last run (docs/architecture.md, Change
	// detection). Both empty: every chunk.
	Changed  []*Column
	Added    bool
	Joins    []*Join
	Body     []Stmt
	Counters []string // count names, in order of first use
	Access   Access
	// When is the system's run condition (option when), a bool expression
	// over resources, constants, @tick and @dt; nil when it has none.
	// WhenAccess is what it reads (Resources, DT, Tick): the generated
	// system declares it in its tickwork.Decl.RunIf (docs/architecture.md,
	// Run conditions).
	When       Expr
	WhenAccess Access
	WhenSource string // the condition as written, normalised (a comment of the generated code)
	// Dense: the body only sets the from row's columns, so running it on
	// the holes of a chunk (dead rows) is harmless; the generator may run
	// straight loops over whole chunk spans.
	Dense bool
}

// VarKind says what a row variable ranges over.
type VarKind uint8

// The kinds of variables.
const (
	RowVar   VarKind = iota // the from row of a table
	EventVar                // the from event of an event table
	JoinVar                 // a row probed through a ref column
	SubVar                  // the row of a query's exists subquery (Exists.Var)
)

// Var is a row variable: the from row or event, or a joined row.
type Var struct {
	Pos   Pos
	Name  string
	Kind  VarKind
	Table *Table      // RowVar, JoinVar
	Event *EventTable // EventVar
	Join  *Join       // JoinVar
}

// Join probes table Table with the handle in the from row's column Via: a
// generation-checked lookup whose miss the body tests with missing(v).
type Join struct {
	Pos   Pos
	Var   *Var
	Table *Table
	Via   *Column // nil for an entity join (a query's join T w on v)
	Index int     // among the system's or query's joins
	// A query's join only: Kind, Left (a left join keeps the row when the
	// join misses; missing(w) tells, w's columns read as zero values) and
	// On (the variable an entity join follows).
	Kind JoinKind
	Left bool
	On   *Var
}

// Access is what a system's body touches, derived from it: the manifest
// of the generated system. Lists keep the order of the schema's
// declarations (tables, then columns).
type Access struct {
	Reads     []*Column     // table columns read and not written
	Writes    []*Column     // table columns written (and read)
	Probes    []*Table      // tables joined (generation-checked lookups)
	Deletes   []*Table      // tables rows or entities are deleted from
	Emits     []*EventTable // event tables emitted into
	Consumes  []*EventTable // the event table the system runs over
	Resources []*Resource   // resources read (declared bodies never write one)
	DT, Tick  bool          // reads @dt, @tick
	Handle    bool          // needs the from row's handle (delete, a ref value)
	// @dt as the float types its contexts take it as (DT: either)
	DTFloat32, DTFloat64 bool
	// Uses are the columns and event fields the body uses, per row
	// variable: the from variable's, then each join's, in declaration
	// order (Use). Reads and Writes are their table columns.
	Uses []Use
}

// Stmt is a statement of a system body: *SetStmt, *MatchStmt, *EmitStmt,
// *DeleteStmt or *CountStmt.
type Stmt interface {
	Position() Pos
	stmt()
}

// AssignOp is the operator of an assignment.
type AssignOp uint8

// The assignment operators.
const (
	Assign    AssignOp = iota // =
	AddAssign                 // +=
	SubAssign                 // -=
	MulAssign                 // *=
)

func (o AssignOp) String() string { return [...]string{"=", "+=", "-=", "*="}[o] }

// SetStmt assigns columns of the current rows, in order: a later
// assignment sees an earlier one's value.
type SetStmt struct {
	Pos     Pos
	Assigns []*AssignStmt
}

// AssignStmt is one `VAR.COLUMN OP EXPR`.
type AssignStmt struct {
	Pos    Pos
	Target *ColRef
	Op     AssignOp
	Value  Expr // of Target's type
}

// MatchStmt runs the body of its first arm whose condition is true.
type MatchStmt struct {
	Pos  Pos
	Arms []*Arm
}

// Arm is one arm of a match; Cond is nil for else.
type Arm struct {
	Pos  Pos
	Cond Expr
	Body []Stmt
}

// EmitStmt emits one event; Values has one expression per field of Event,
// in field order.
type EmitStmt struct {
	Pos    Pos
	Event  *EventTable
	Values []Expr
}

// DeleteStmt deletes the row of Var from its table (Entity false) or its
// entity with every row of its domain (Entity true), at the next playback.
type DeleteStmt struct {
	Pos    Pos
	Var    *Var
	Entity bool
}

// CountStmt adds one to the system's counter Counters[Index].
type CountStmt struct {
	Pos   Pos
	Name  string
	Index int
}

func (s *SetStmt) Position() Pos    { return s.Pos }
func (s *MatchStmt) Position() Pos  { return s.Pos }
func (s *EmitStmt) Position() Pos   { return s.Pos }
func (s *DeleteStmt) Position() Pos { return s.Pos }
func (s *CountStmt) Position() Pos  { return s.Pos }
func (*SetStmt) stmt()              {}
func (*MatchStmt) stmt()            {}
func (*EmitStmt) stmt()             {}
func (*DeleteStmt) stmt()           {}
func (*CountStmt) stmt()            {}

// Expr is a typed expression: *Lit, *ColRef, *ResRef, *VarRef, *EnvRef,
// *Unary, *Binary, *Convert, *Floor, *Probe or *IndexOf; in a query also
// *ParamRef and *Has.
type Expr interface {
	Position() Pos
	Type() Type
}

// Lit is a constant: a literal, a named constant or a folded constant
// subexpression. Const is the named constant it is, if any.
type Lit struct {
	Pos   Pos
	T     Type
	Value constant.Value
	Const *Const
}

// ColRef reads column Column of row variable Var.
type ColRef struct {
	Pos    Pos
	Var    *Var
	Column *Column
}

// ResRef reads field Field of resource Resource, or of a struct field its
// field Sub, or of an array field its element Index (an integer; an index
// outside 0..Len-1 wraps: the Euclidean remainder by Len).
type ResRef struct {
	Pos      Pos
	Resource *Resource
	Field    *ResourceField
	Sub      *StructField // nil unless Field is a struct
	Index    Expr         // nil unless Field is an array
}

// Floor is floor(X): the greatest integer at most X (a float), as an
// int32, saturated at the int32 limits; NaN gives 0. The same on every
// machine (a float to integer conversion is not).
type Floor struct {
	Pos Pos
	X   Expr
}

// VarRef is the handle of a row variable's row (type ref of its table).
type VarRef struct {
	Pos Pos
	Var *Var
}

// Env names a value of the running world.
type Env uint8

// The world values.
const (
	DT   Env = iota // @dt: the fixed step in fixed_update, the frame's delta elsewhere, seconds
	Tick            // @tick: the fixed ticks run before this one (int64)
)

// EnvRef is @dt or @tick. @dt takes the float type its context asks for
// (converted once per run).
type EnvRef struct {
	Pos Pos
	Env Env
	T   Type
}

// UnaryOp is a unary operator.
type UnaryOp uint8

// The unary operators.
const (
	Neg UnaryOp = iota // -x
	Not                // not x
)

// Unary is `-X` or `not X`.
type Unary struct {
	Pos Pos
	Op  UnaryOp
	X   Expr
	T   Type
}

// BinaryOp is a binary operator.
type BinaryOp uint8

// The binary operators.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div
	Rem
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	And
	Or
)

var binaryNames = [...]string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"}

func (o BinaryOp) String() string { return binaryNames[o] }

// IsComparison reports whether o is one of == != < <= > >=.
func (o BinaryOp) IsComparison() bool { return o >= Eq && o <= Ge }

// Binary is `X op Y`; And and Or evaluate Y only when needed.
type Binary struct {
	Pos Pos
	Op  BinaryOp
	X   Expr
	Y   Expr
	T   Type
}

// Convert converts X to type T (int and float types; float to int is not
// allowed).
type Convert struct {
	Pos Pos
	X   Expr
	T   Type
}

// Probe is found(v) (Found true) or missing(v): whether join v hit.
type Probe struct {
	Pos   Pos
	Var   *Var
	Found bool
}

// IndexOf is index(X): the entity index of handle X, int32.
type IndexOf struct {
	Pos Pos
	X   Expr
}

func (e *Lit) Position() Pos     { return e.Pos }
func (e *ColRef) Position() Pos  { return e.Pos }
func (e *ResRef) Position() Pos  { return e.Pos }
func (e *Floor) Position() Pos   { return e.Pos }
func (e *VarRef) Position() Pos  { return e.Pos }
func (e *EnvRef) Position() Pos  { return e.Pos }
func (e *Unary) Position() Pos   { return e.Pos }
func (e *Binary) Position() Pos  { return e.Pos }
func (e *Convert) Position() Pos { return e.Pos }
func (e *Probe) Position() Pos   { return e.Pos }
func (e *IndexOf) Position() Pos { return e.Pos }

func (e *Lit) Type() Type    { return e.T }
func (e *ColRef) Type() Type { return e.Column.Type }
func (e *ResRef) Type() Type {
	switch {
	case e.Sub != nil:
		return e.Sub.Type
	case e.Index != nil:
		return *e.Field.Type.Elem
	}
	return e.Field.Type
}
func (*Floor) Type() Type     { return Type{Kind: Int32} }
func (e *VarRef) Type() Type  { return Type{Kind: Ref, Table: e.Var.Table} }
func (e *EnvRef) Type() Type  { return e.T }
func (e *Unary) Type() Type   { return e.T }
func (e *Binary) Type() Type  { return e.T }
func (e *Convert) Type() Type { return e.T }
func (*Probe) Type() Type     { return Type{Kind: Bool} }
func (*IndexOf) Type() Type   { return Type{Kind: Int32} }
