package tickwork

import "github.com/tickwork/tickwork/ephemeral"

// DebugBuild reports whether this binary was built with the checking debug
// build's tag, tickwork_debug: true there, false in the normal build. What
// that build checks (undeclared writes, poisoned freed rows and events,
// misused accessors) and what it costs: docs/architecture.md, Debug build.
// A constant: a test whose expectation the checks change can branch on it.
const DebugBuild = ephemeral.DebugBuild
