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
	// ErrBadManifest: a manifest entry that names nothing: a nil table
	// (in Creates, Deletes, or a zero ColumnRef, as Col(nil) gives), a nil
	// or typed-nil event table (a nil *events.Table[T] in Emits or
	// Consumes), an empty or unknown column, an empty resource name.
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
	AccessLease         = "lease"          // Context.Lease of a table
	AccessRead          = "read"           // Read of a column
	AccessWrite         = "write"          // Write of a column
	AccessRecorder      = "recorder"       // Context.Recorder or WorkerRecorders of a table
	AccessEmit          = "emit"           // NewEmitter or ParallelEmitter of an event table
	AccessConsume       = "consume"        // Reader of an event table
	AccessResource      = "resource"       // Context.Resource, for reading
	AccessResourceWrite = "resource write" // Context.Resource, for writing
)

// AccessError reports an acquisition outside the system's manifest: the
// system, the kind of access (AccessLease, AccessRead, ...) and what it asked
// for ("Body.x", a table, event or resource name; empty when the system
// passed a nil column, table or event table, which no manifest can declare:
// typically the result of a declaration whose error was ignored).
// errors.Is(err, ErrNotDeclared) is true. Fix it by declaring the access in
// the manifest (a recorder needs the table in Creates or Deletes).
type AccessError struct {
	System string // the system's name
	Access string // AccessLease, AccessRead, AccessWrite, ...
	What   string // "table.column", a table, event table or resource name; "" for nil
}

// accessPhrases completes "may not ..." for each access kind, with the noun
// of what is asked for.
var accessPhrases = map[string][2]string{
	AccessLease:         {"take a lease of table", "table"},
	AccessRead:          {"read column", "column"},
	AccessWrite:         {"write column", "column"},
	AccessRecorder:      {"take a recorder of table", "table"},
	AccessEmit:          {"emit into event table", "event table"},
	AccessConsume:       {"consume event table", "event table"},
	AccessResource:      {"use resource", "resource"},
	AccessResourceWrite: {"write resource", "resource"},
}

// Error reads, for instance, `systems: system "move" may not write column
// "Body.x": not declared in its manifest`.
func (e *AccessError) Error() string {
	p, ok := accessPhrases[e.Access]
	if !ok {
		p = [2]string{"use " + e.Access, e.Access}
	}
	s := "systems: system " + strconv.Quote(e.System) + " may not " + p[0] + " "
	if e.What == "" {
		return s + "<nil>: a nil " + p[1] + " is never declared (check the error of the call that made it)"
	}
	s += strconv.Quote(e.What) + ": not declared in its manifest"
	if e.Access == AccessRecorder {
		s += " (a recorder needs the table in Creates or Deletes; write columns with systems.Write)"
	}
	return s
}

// Is reports whether target is ErrNotDeclared.
func (e *AccessError) Is(target error) bool { return target == ErrNotDeclared }
