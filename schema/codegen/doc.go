// Package codegen is the schema language's generator: it turns a checked
// [schema.Schema] into one Go file of typed tables, declarations,
// declared systems with their manifests and kernels, and declared queries
// (a row type, a query type with its scratch, NewQ, DeclareQ, Run and Plan
// each; docs/schema.md, Queries; query.go a function per family,
// query_window.go the window functions, keyset pages and unique key
// lookups, query_index.go the declared indexes and the index-served
// queries' walks, index_upkeep.go the declared systems' marks of the
// indexes they maintain: docs/schema.md, Indexes), and declared
// subscriptions (subscribe.go: a row struct, a type over the engine's kept
// result, SubscribeS and Result; docs/schema.md, Subscriptions). What it writes, and
// why, is documented once, in docs/schema.md (Generated code).
//
// # Outline
//
//   - Generate: [Generate] with a [Config] (package, command line,
//     source name) returns the gofmt'd file; a pure function.
//   - SIMD variants (docs/schema.md, SIMD variants): [GenerateSIMD]
//     returns the second file, built with GOEXPERIMENT=simd on amd64;
//     [SIMDNotes] says which systems got a variant and why the others did
//     not ([SIMDNote]).
//   - The command: [Command] computes the main file `tickwork-gen ARGS`
//     writes and where, [Files] both files ([File]) and the notes; [Main]
//     is cmd/tickwork-gen (exit status 0, 1, 2; the notes on stderr);
//     [Usage], [ErrUsage].
//   - Errors: schema names that collide as Go names come back as a
//     schema.ErrorList (errors.Is schema.ErrDuplicate).
//
// Every function is safe for concurrent use.
package codegen
