//go:build !tickwork_debug

package scheduler

import "github.com/tickwork/tickwork/systems"

// debugChecks is false in the normal build: every `if debugChecks` branch
// is removed by the compiler (docs/architecture.md, Debug build).
const debugChecks = false

// debugEntry is an entry's state of the debug build's checks: nothing here.
type debugEntry struct{}

func (s *Scheduler) debugSeal()    {}
func (e *entry) debugBefore()      { _ = e.dbg } // the field is the debug build's
func (e *entry) debugAfter() error { return nil }

func (e *entry) debugMarks(systems.Index) error { return nil }
