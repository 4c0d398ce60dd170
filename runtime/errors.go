package runtime

import (
	"errors"
	"strconv"
)

// Sentinel errors of the package. Every error returned by runtime matches
// one of them with errors.Is, or is an error of package ephemeral, events,
// systems or scheduler passed through as it is (seal errors among them).
var (
	// ErrOption: an option with a bad value. Returned by Build as an
	// *OptionError.
	ErrOption = errors.New("runtime: bad option")
	// ErrBuilt: a Builder used after Build.
	ErrBuilt = errors.New("runtime: builder already built; make a new Builder for another world")
	// ErrClosed: Frame on a closed World.
	ErrClosed = errors.New("runtime: world is closed")
)

// OptionError reports an option with a bad value, such as WithWorkers(0).
// errors.Is(err, ErrOption) is true.
type OptionError struct {
	Option string // such as "WithWorkers"
	Value  string // the offending value
	Reason string // the accepted range
}

func (e *OptionError) Error() string {
	return "runtime: " + e.Option + "(" + e.Value + "): " + e.Reason
}

// Is reports whether target is ErrOption.
func (e *OptionError) Is(target error) bool { return target == ErrOption }

func itoa(n int) string { return strconv.Itoa(n) }
