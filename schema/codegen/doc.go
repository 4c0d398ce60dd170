// Package codegen is the schema language's generator: it turns a checked
// [schema.Schema] into one Go file of typed tables, declarations and
// declared systems with their manifests and kernels. What it writes, and
// why, is documented once, in docs/schema.md (Generated code).
//
// # Outline
//
//   - Generate: [Generate] with a [Config] (package, command line,
//     source name) returns the gofmt'd file; a pure function.
//   - The command: [Command] computes what `tickwork-gen ARGS` writes and
//     where; [Main] is cmd/tickwork-gen (exit status 0, 1, 2); [Usage],
//     [ErrUsage].
//   - Errors: schema names that collide as Go names come back as a
//     schema.ErrorList (errors.Is schema.ErrDuplicate).
//
// Every function is safe for concurrent use.
package codegen
