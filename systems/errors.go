package systems

import (
	"errors"
	"strconv"
)

// Sentinel errors of the package. Every error returned by systems matches
// one of them with errors.Is.
var (
	// ErrDefinition: a bad system or manifest definition. Returned as a
	// *DefinitionError whose Unwrap gives one of the precise sentinels below.
	ErrDefinition = errors.New("systems: bad definition")
	// ErrEmptyName: a system without a name.
	ErrEmptyName = errors.New("system name must not be empty")
	// ErrNoRun: a system without a Run function.
	ErrNoRun = errors.New("system has no Run function")
	// ErrBadPhase: a phase outside FrameStart..FrameEnd.
	ErrBadPhase = errors.New("phase must be one of FrameStart, FixedUpdate, Update, LateUpdate, FrameEnd")
	// ErrBadManifest: a manifest entry that names nothing (nil table or
	// event table, empty or unknown column, empty resource name).
	ErrBadManifest = errors.New("bad manifest entry")
	// ErrNotDeclared: a system asked its Context for data its manifest does
	// not declare. Returned as an *AccessError.
	ErrNotDeclared = errors.New("systems: access not declared in the manifest")
)

// DefinitionError reports a bad system definition. errors.Is(err,
// ErrDefinition) is true, and so is errors.Is(err, Err) for the precise
// sentinel (ErrEmptyName, ErrNoRun, ErrBadPhase or ErrBadManifest).
type DefinitionError struct {
	System string // system name, possibly empty
	Err    error  // precise sentinel
	Detail string // the offending entry, such as "Writes[2]: nil table"
}

func (e *DefinitionError) Error() string {
	s := "systems: system " + strconv.Quote(e.System) + ": " + e.Err.Error()
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// Is reports whether target is ErrDefinition.
func (e *DefinitionError) Is(target error) bool { return target == ErrDefinition }

// Unwrap returns the precise sentinel.
func (e *DefinitionError) Unwrap() error { return e.Err }

// Access kinds named by an AccessError.
const (
	AccessLease    = "lease"    // Context.Lease of a table
	AccessRead     = "read"     // Read of a column
	AccessWrite    = "write"    // Write of a column
	AccessRecorder = "recorder" // Context.Recorder or WorkerRecorders of a table
	AccessEmit     = "emit"     // NewEmitter or ParallelEmitter of an event table
	AccessConsume  = "consume"  // Reader of an event table
	AccessResource = "resource" // Context.Resource
)

// AccessError reports an acquisition outside the system's manifest: the
// system, the kind of access (AccessLease, AccessRead, ...) and what it asked
// for ("Body.x", a table, event or resource name). errors.Is(err,
// ErrNotDeclared) is true. Fix it by declaring the access in the manifest.
type AccessError struct {
	System string // the system's name
	Access string // AccessLease, AccessRead, AccessWrite, ...
	What   string // "table.column", a table, event table or resource name ("NAME (write)" for a resource write)
}

func (e *AccessError) Error() string {
	return "systems: system " + strconv.Quote(e.System) + " may not " + e.Access + " " +
		strconv.Quote(e.What) + ": not declared in its manifest"
}

// Is reports whether target is ErrNotDeclared.
func (e *AccessError) Is(target error) bool { return target == ErrNotDeclared }
