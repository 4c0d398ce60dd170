//go:build !tickwork_debug

package systems

// debugChecks is false in the normal build: every `if debugChecks` branch
// is removed by the compiler (docs/architecture.md, Debug build).
const debugChecks = false

// inRun is the debug build's check that an accessor is used inside its
// system's run (debug_on.go).
func (c *columnAccess[T]) inRun(string) {}
