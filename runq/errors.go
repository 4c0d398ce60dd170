package runq

import (
	"errors"

	"github.com/tickwork/tickwork/schema"
)

// The sentinels of package runq, for errors.Is. A Prepare error is an
// [*Error] (its Pos in the query text); a schema error found in the text
// also matches its schema sentinel (schema.ErrSyntax, schema.ErrUnknown,
// ...).
var (
	// ErrQuery: the text is not a query the interpreter accepts (too long,
	// not one query declaration, refused by the schema checker).
	ErrQuery = errors.New("runq: bad query")
	// ErrUnsupported: a valid query of a family the interpreter does not
	// run yet (docs/architecture.md, Run-time queries).
	ErrUnsupported = errors.New("runq: query family not supported by the interpreter")
	// ErrBudget: Run visited more rows than the query's budget.
	ErrBudget = errors.New("runq: row budget exceeded")
	// ErrArgs: Run's arguments do not match the query's parameters.
	ErrArgs = errors.New("runq: bad arguments")
	// ErrCatalog: a binding does not match the catalog's schema, or the
	// catalog is nil.
	ErrCatalog = errors.New("runq: bad catalog binding")
	// ErrBuilder: Subscribe was given a Builder that had already failed
	// (Builder.Err); the *Error wraps that earlier error.
	ErrBuilder = errors.New("runq: the Builder had already failed")
)

// Error is a typed Prepare, Run or binding error: where (Pos, a line and
// column of the query text, file "query"; zero for a Run or binding error),
// what and the fix (Msg), and its sentinel (Kind: one of the Err values
// above). Errors.Is matches Kind, and the schema error it came from (or,
// for ErrBuilder, the Builder's earlier error) if any.
type Error struct {
	Pos   schema.Pos
	Msg   string
	Kind  error
	cause error
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Unwrap returns the sentinel and, for a schema error, the *schema.Error
// (for ErrBuilder, the Builder's earlier error).
func (e *Error) Unwrap() []error {
	if e.cause != nil {
		return []error{e.Kind, e.cause}
	}
	return []error{e.Kind}
}
