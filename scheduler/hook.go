package scheduler

import (
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/systems"
)

// Hook is what a hook function sees at Seal: every registered system, by
// name. Host code uses it to order its own systems against a package's
// systems it did not write, and to substitute a system's implementation.
// A Hook is valid only during the hook call: afterwards Add, Order and
// Substitute return ErrHookDone and change nothing.
type Hook struct {
	s    *Scheduler
	done bool // the hooks have run: Seal set it when they returned
}

// Names returns the names of the registered systems in registration order
// (duplicates included). It allocates.
func (h *Hook) Names() []string {
	out := make([]string, len(h.s.entries))
	for i, e := range h.s.entries {
		out[i] = e.sys.Name
	}
	return out
}

// Lookup returns a copy of the system named name (with the constraints of
// its declaration and those added so far) and true, or false when no
// system has that name.
// Exported for host hooks (runtime.Builder.Hook).
func (h *Hook) Lookup(name string) (systems.System, bool) {
	e, ok := h.s.byName[name]
	if !ok {
		return systems.System{}, false
	}
	sys := e.sys
	sys.Before = append([]string(nil), sys.Before...)
	sys.After = append([]string(nil), sys.After...)
	return sys, true
}

// Add registers one more system, as Scheduler.Add (a
// *systems.DefinitionError for a bad system). Hooks registered later see
// it.
func (h *Hook) Add(sys systems.System) error {
	if h.done {
		return ErrHookDone
	}
	return h.s.Add(sys)
}

// Order constrains system first to run before system then (both by name),
// as first's Before would. They must be registered (*UnknownSystemError,
// errors.Is ErrUnknownSystem, otherwise); when they are in different
// phases, Seal checks the constraint against the phase order
// (*PhaseOrderError). After the hook returned it returns ErrHookDone.
// Exported for host hooks (runtime.Builder.Hook).
func (h *Hook) Order(first, then string) error {
	if h.done {
		return ErrHookDone
	}
	a, ok := h.s.byName[first]
	if !ok {
		return &UnknownSystemError{Relation: "Order", Name: first}
	}
	if _, ok := h.s.byName[then]; !ok {
		return &UnknownSystemError{Relation: "Order", Name: then}
	}
	a.sys.Before = append(a.sys.Before, then)
	return nil
}

// manifest returns the manifest of the system named name, derived from its
// declaration (what it reads, writes, records, emits, consumes and which
// resources it uses), and true; false when no system has that name. The
// manifest is the scheduler's: do not modify it. The runtime reaches it
// through frame.HookManifest (plumbing.go): a manifest is engine plumbing,
// no user type.
func (h *Hook) manifest(name string) (*frame.Manifest, bool) {
	e, ok := h.s.byName[name]
	if !ok {
		return nil, false
	}
	return &e.man, true
}

// Substitute replaces the implementation of the system named name with
// the one declare declares. The substitute must declare the same manifest
// (the same columns read and written, tables recorded, event tables
// emitted and consumed and resources used, as sets), since the
// graph was checked against it; a different manifest is refused with a
// *SubstituteError (errors.Is ErrManifestMismatch), an unknown name with an
// *UnknownSystemError, and a bad declaration with its
// *systems.DefinitionError. The name, phase and constraints stay the
// system's (constraints the substitute's declaration adds are ignored).
// After the hook returned it returns ErrHookDone.
// Exported for host hooks (runtime.Builder.Hook).
func (h *Hook) Substitute(name string, declare systems.DeclareFunc) error {
	if h.done {
		return ErrHookDone
	}
	e, ok := h.s.byName[name]
	if !ok {
		return &UnknownSystemError{Relation: "Substitute", Name: name}
	}
	sub := e.sys
	sub.Declare = declare
	run := &frame.Run{}
	d, err := frame.Declare(sub, run)
	if err != nil {
		return err
	}
	if !e.man.Equal(&d.Manifest) {
		return &SubstituteError{System: name}
	}
	e.sys.Declare, e.run = declare, run
	return nil
}
