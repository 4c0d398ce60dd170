// Package memory is the memory budget that Tickwork's definitions are
// checked against before they allocate: a table's pages, its columns, an
// entity domain's handle pages, an event table's buffers and its per-worker
// staging, and command buffers' initial records. A definition that does not fit fails with a typed error instead
// of ending the process in Go's fatal "out of memory".
//
// What counts, the default and who shares a budget are stated once, in
// docs/architecture.md ("Choices where the issues were silent", memory
// budget).
//
// Who calls it: a host that shares one budget among tables and event
// tables it makes without a world (ephemeral.TableSpec.Budget,
// events.Spec.Budget), or that reads a refusal ([*BudgetError]); a world
// makes its own (runtime.WithMemoryBudget).
//
// # Budgets
//
// [NewBudget] makes a [Budget] of a limit in bytes; [Budget.Charge] adds a
// definition's bytes (named by a [Definition]) or refuses it. [DefaultBudget] is the limit a world
// ([runtime.WithMemoryBudget]) and a standalone table or event table get
// when none is given. A budget knows its [Owner] (the host's, a private
// one, a world's: [NewOwnedBudget]), so that a refusal says which limit to
// raise.
//
// # Sizes
//
// [Size], [SizeOf] and [Sum] compute byte counts that saturate at math.MaxInt64
// instead of wrapping, so a huge capacity times a huge element is refused,
// never mistaken for a small one.
//
// # Errors
//
// A refused charge is a [*BudgetError] (errors.Is [ErrBudget]) naming the
// definition, the bytes it asked for, the bytes already charged, the
// limit and the budget's owner; its message advises what to lower (the
// capacity, the records per command buffer, the worker count for
// per-worker definitions) and which budget to raise. Packages ephemeral
// and events return it as it is; runtime re-exports it as ErrMemoryBudget
// (tickwork.ErrMemoryBudget).
//
// # Concurrency
//
// A Budget is safe for concurrent use; charges are atomic.
//
// [runtime.WithMemoryBudget]: https://pkg.go.dev/github.com/tickwork/tickwork/runtime#WithMemoryBudget
package memory
