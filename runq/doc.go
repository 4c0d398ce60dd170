// Package runq runs the schema language's queries given at run time (a
// console, a mod, a server's dashboard): the text is parsed, checked and
// planned by the schema front end against the world's schema, as if it
// were declared in the .tw file, then compiled once into typed closures
// over the world's column slices and run many times with new arguments,
// with the compiled (generated) query's result bit for bit. What it
// accepts, the parity rule and the budget are docs/architecture.md,
// Run-time queries; the query language is docs/schema.md, Queries, and
// the order of a result docs/schema.md, Query results.
//
// # Outline
//
//   - The catalog: [NewCatalog] (a schema's text) then [Catalog.BindTable]
//     and [BindColumn] per table and column, or [NewCatalogOf] with the
//     generated Tables.BindCatalog (tickwork-gen -catalog; the catalog is
//     a tickwork.CatalogBinder: [Catalog.BindInt32] ...).
//   - Prepare: [Prepare] returns a [*Query] or an [*Error] positioned in
//     the text (limits: [MaxText], and the schema's nesting and operator
//     limits).
//   - Run: [Query.Run] appends the rows, [Query.Columns] wide, as
//     [Value]s ([I32], [I64], [F32], [F64], [Bool], [Ref]); arguments in
//     [Query.Params] order; [Query.SetBudget] bounds the rows visited,
//     [Query.Visited] tells them; [Query.Plan] says how it runs.
//   - Subscribe: [Subscribe], before Build, keeps a query's result from
//     the frames' changes ([SubFilter], [SubCount], [SubGroupSum],
//     [SubTopN]); [Subscription.Read] hands out a [Delta] of [Rows],
//     [Subscription.Result] the result (docs/architecture.md, Run-time
//     queries: Subscribing).
//   - Errors: [Error] with the sentinels [ErrQuery], [ErrUnsupported],
//     [ErrCatalog], [ErrArgs], [ErrBudget] (errors.Is), and the schema
//     sentinel of a checker error.
//
// A Catalog is read-only once bound (concurrent Prepare calls are safe);
// a Query is used by one goroutine at a time.
package runq
