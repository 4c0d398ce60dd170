//go:build !tickwork_debug

package systems

import "github.com/tickwork/tickwork/ephemeral"

// debugChecks is false in the normal build: every `if debugChecks` branch
// is removed by the compiler (docs/architecture.md, Debug build).
const debugChecks = false

// inRun is the debug build's check that an accessor is used inside its
// system's run (debug_on.go).
func (c *columnAccess[T]) inRun(string) {}

// ownLease is the debug build's marking of a system's lease (debug_on.go).
func ownLease(l ephemeral.Lease, _ *Decl) ephemeral.Lease { return l }

// inRun is the debug build's check that a serial accessor is used inside
// its system's run (debug_on.go).
func (c *Context) inRun(string, string, string) {}

// consumerDebug is what a Consumer carries in the debug build; nothing here.
type consumerDebug struct{}

func consumerDebugOf(*Decl, string) consumerDebug { return consumerDebug{} }
func (consumerDebug) inRun()                      {}
