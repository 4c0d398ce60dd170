// Package schema is the front end of Tickwork's schema language: it parses
// a schema file (tables, event tables, structs, resources, constants,
// declared systems, declared queries, indexes and lifecycle event
// tables),
// checks it and hands the generator (cmd/tickwork-gen) a typed model. The
// language itself — grammar, types, the meaning of each construct, the
// arithmetic rule — is documented once, in docs/schema.md.
//
// # Outline
//
//   - Read a schema: [Load] (= [Parse] then [Check]) returns a [*Schema]
//     or an [ErrorList]; [Format] prints a parsed [File] canonically.
//   - The model: [Schema] holds [Const], [Struct] (with [StructField]),
//     [Resource] (with [ResourceField]), [Domain], [Table] (with [Column],
//     and [StructColumn] for a column of a struct type: one Column per
//     field), [EventTable] (its [Lifetime]), [Extern] and [System] (its
//     [Phase]);
//     a system's row variables are [Var] ([VarKind]), its lookups [Join];
//     its body is a list of [Stmt] ([SetStmt] of [AssignStmt] with
//     [AssignOp], [MatchStmt] of [Arm], [EmitStmt], [DeleteStmt],
//     [CountStmt]) over typed [Expr] nodes ([Lit], [ColRef], [ResRef], [VarRef],
//     [EnvRef] of an [Env], [Floor] (its rule: [FloorInt32]), [Unary] with [UnaryOp], [Binary] with
//     [BinaryOp], [Convert], [Probe], [IndexOf]), and its [Access] is what
//     the body reads, writes ([Use], per row variable and column),
//     probes, deletes, emits, consumes and the resources it reads: the one
//     access analysis, which the generator reads.
//   - Queries (docs/schema.md, Queries; the order of a result: Query
//     results): a [Query] has its [Param]s (read as [ParamRef]), its from
//     [Var] and [Join]s (a [JoinKind]: through a ref column or the same
//     entity; Left for a left join), a where that may test [Has], at most
//     [MaxGroupKeys] group keys, its [SelectItem]s and [OrderKey]s, its
//     [Aggregate]s ([AggKind]), its [Window] functions ([WinKind]), a
//     keyset page's After values, a limit, the Probe of a point lookup or
//     the [UniqueKey] of a lookup by a unique [Column], and its
//     [QueryAccess] (what it reads, for DeclareQ's manifest); its
//     [Exists] subqueries (semi-/anti-joins, of a [SubVar] row), or, for
//     a query that combines two results, its [SetOp] ([SetKind]).
//   - Indexes (docs/schema.md, Indexes): an [Index] ([IndexKind]: hash,
//     unique, sorted, grid) on a table or an event table; a query's
//     [IndexPlan] (Query.Index, an [IndexWalk]) is the planner's choice
//     or what `using index` forced (Query.Scan: `using scan`).
//   - Lifecycle event tables (docs/schema.md, Lifecycle event tables): a
//     [Lifecycle] of a [Table], the changes it records
//     ([LifecycleChanges]) and the columns it keeps.
//   - Subscriptions (docs/schema.md, Subscriptions): a [Subscription] of
//     a [Query] whose shape a kept result holds ([SubKind]: filter,
//     count, grouped sum, top-N), with the columns its row struct reads.
//   - Types: [Type] and its [TypeKind]; ref types of one domain are
//     identical ([Type.Identical]).
//   - Errors: each is an [*Error] at a [Pos], printed "file:line:col: message"; its
//     [Kind] has a sentinel for errors.Is ([ErrSyntax], [ErrDuplicate],
//     [ErrUnknown], [ErrType], [ErrValue], [ErrMissing], [ErrAccess]).
//     An ErrorList holds every error and prints the first [MaxErrors].
//     Limits: [MaxSize], [MaxDepth], [MaxOperators], [MaxArrayLen] (a
//     resource array field); a system's grain option,
//     [MaxGrain].
//
// Every function is safe for concurrent use; a Schema is read-only once
// built.
package schema
