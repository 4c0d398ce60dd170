package systems

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/tickwork/tickwork/internal/plumb"
)

// Sentinel errors of the package. Every error returned by systems matches
// one of them with errors.Is.
var (
	// ErrDefinition: a bad system or declaration. Returned as a
	// *DefinitionError whose Unwrap gives a precise sentinel (below, or
	// errEmptyName for an empty name).
	ErrDefinition = errors.New("systems: bad definition")
	// ErrNoDeclare: a system without a Declare function.
	ErrNoDeclare = errors.New("system has no Declare function")
	// ErrNoRun: a Declare function that returned a nil body.
	ErrNoRun = errors.New("the Declare function returned a nil RunFunc; return the system's body")
	// ErrBadPhase: a phase outside FrameStart..FrameEnd.
	ErrBadPhase = errors.New("phase must be one of FrameStart, FixedUpdate, Update, LateUpdate, FrameEnd")
	// ErrBadDeclaration: an accessor asked for something that does not
	// exist (a nil column, table, event table or resource: the declaration
	// that made it failed) or that does not fit (a query or spawner over
	// columns of different tables).
	ErrBadDeclaration = errors.New("bad declaration")
	// ErrConditionAccess: a run condition's declaration (Decl.RunIf) asked
	// for an accessor that writes, records, emits, counts or runs a chunk
	// kernel; a condition only reads (docs/architecture.md, Run
	// conditions).
	ErrConditionAccess = errors.New("a run condition may only read")
	// ErrDeclarePanic: a DeclareFunc that panicked. Returned as a
	// *DefinitionError whose Cause is a *DeclarePanicError.
	ErrDeclarePanic = errors.New("the DeclareFunc panicked")
)

// DeclarePanicError is the panic of a system's DeclareFunc, the Cause of
// the *DefinitionError (errors.Is ErrDeclarePanic) that the scheduler's Add,
// and so Build, returns: System names the system, Value is the panic value
// and Stack the goroutine stack at the panic. errors.Is(err,
// ErrDeclarePanic) is true, and Unwrap gives Value when it is an error.
type DeclarePanicError struct {
	System string
	Value  any
	Stack  []byte
}

func (e *DeclarePanicError) Error() string {
	return "systems: system " + strconv.Quote(e.System) + ": the DeclareFunc panicked: " + fmt.Sprint(e.Value)
}

// Is reports whether target is ErrDeclarePanic.
func (e *DeclarePanicError) Is(target error) bool { return target == ErrDeclarePanic }

// Unwrap returns Value when it is an error, else nil.
func (e *DeclarePanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// errEmptyName: a system without a name, the Err of a *DefinitionError
// (errors.Is ErrDefinition); the one value every empty name is
// (plumb.ErrEmptyName), which the face exports as ErrEmptyName.
var errEmptyName = plumb.ErrEmptyName

// DefinitionError reports a bad system definition or declaration.
// errors.Is(err, ErrDefinition) is true, and so is errors.Is(err, Err) for
// the precise sentinel (errEmptyName, ErrNoDeclare, ErrNoRun, ErrBadPhase,
// ErrBadDeclaration, ErrConditionAccess or ErrDeclarePanic, whose Cause is a
// *DeclarePanicError); for a query over columns of different tables,
// errors.As reaches the *ephemeral.DefinitionError too.
type DefinitionError struct {
	System string // system name, possibly empty
	Err    error  // precise sentinel
	Detail string // the offending call, such as "Write: nil column (...)"
	Cause  error  // the error of a lower layer, or nil
}

func (e *DefinitionError) Error() string {
	if e.Err == errEmptyName && e.System == "" {
		return "systems: system " + e.Err.Error() // "systems: system name must not be empty"
	}
	if e.System == "" && e.Detail != "" { // a face call that adds a system, named in Detail (tickwork.Observe)
		return "systems: " + e.Detail
	}
	s := "systems: system " + strconv.Quote(e.System) + ": " + e.Err.Error()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Is reports whether target is ErrDefinition.
func (e *DefinitionError) Is(target error) bool { return target == ErrDefinition }

// Unwrap returns the precise sentinel and the cause.
func (e *DefinitionError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}
