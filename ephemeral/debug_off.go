//go:build !tickwork_debug

package ephemeral

// debugChecks is false in the normal build: every `if debugChecks` branch
// is removed by the compiler (the checks: docs/architecture.md, Debug
// build; debug_on.go).
const debugChecks = false

// poisonRow is the debug build's poison of a freed row (debug_on.go).
func (t *Table) poisonRow(uint32) {}

// checkProbe is the debug build's domain check of a probe (debug_on.go).
func (l Lease) checkProbe(Handle) {}

// leaseDebug is what a Lease carries in the debug build; nothing here.
type leaseDebug struct{}

func leaseOf(*Table) leaseDebug { return leaseDebug{} }

// DebugBuild reports whether this binary was built with the checking debug
// build's tag, tickwork_debug (docs/architecture.md, Debug build): false
// here. For tests whose expectations the checks change (a freed row's
// values, a misuse that panics there).
const DebugBuild = false
