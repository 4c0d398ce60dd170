//go:build !tickwork_debug

package events

// debugChecks is false in the normal build: every `if debugChecks` branch
// is removed by the compiler (docs/architecture.md, Debug build).
const debugChecks = false

// poison is the debug build's poison of released event slots (debug_on.go).
func (t *Table[T]) poison([]T) {}
