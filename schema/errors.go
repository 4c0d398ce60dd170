package schema

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an [*Error]. Each kind has a sentinel (ErrSyntax ..
// ErrAccess) that errors.Is matches.
type Kind uint8

// The kinds of schema errors.
const (
	KindSyntax    Kind = iota + 1 // the text does not parse
	KindDuplicate                 // a name declared twice in one scope
	KindUnknown                   // a name that is not declared (table, column, constant, system, type, phase, option, ...)
	KindType                      // operands or values of the wrong type
	KindValue                     // a bad value: capacity, chunk rows, constant overflow, division by zero
	KindMissing                   // something required is absent: an option, an event field
	KindAccess                    // a read or write the language does not allow (joined rows, event fields, unguarded joins)
)

// Sentinels of the kinds, for errors.Is.
var (
	ErrSyntax    = errors.New("schema: syntax error")
	ErrDuplicate = errors.New("schema: duplicate name")
	ErrUnknown   = errors.New("schema: unknown name")
	ErrType      = errors.New("schema: type mismatch")
	ErrValue     = errors.New("schema: bad value")
	ErrMissing   = errors.New("schema: missing declaration")
	ErrAccess    = errors.New("schema: access not allowed")
)

var kindErrs = [...]error{KindSyntax: ErrSyntax, KindDuplicate: ErrDuplicate, KindUnknown: ErrUnknown,
	KindType: ErrType, KindValue: ErrValue, KindMissing: ErrMissing, KindAccess: ErrAccess}

// String is the kind's name ("syntax", "duplicate", ...).
func (k Kind) String() string {
	switch k {
	case KindSyntax:
		return "syntax"
	case KindDuplicate:
		return "duplicate"
	case KindUnknown:
		return "unknown"
	case KindType:
		return "type"
	case KindValue:
		return "value"
	case KindMissing:
		return "missing"
	case KindAccess:
		return "access"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Pos is a place in a schema file: line and column count from 1 (columns
// in bytes); a zero Line means the whole file.
type Pos struct {
	File string
	Line int
	Col  int
}

// String is "file:line:col", or "file" for a zero Line.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is one syntax or semantic error of a schema. Its text is
// "file:line:col: message", the message naming what to fix. errors.Is
// matches the sentinel of its Kind.
type Error struct {
	Pos  Pos
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Unwrap returns the sentinel of e's Kind.
func (e *Error) Unwrap() error {
	if int(e.Kind) < len(kindErrs) {
		return kindErrs[e.Kind]
	}
	return nil
}

// ErrorList is every error of one schema, in the order of the text. Its
// text is one error a line, the first [MaxErrors] of them, then, when
// there are more, a last line "... and N more errors"; errors.As finds
// its first *Error, errors.Is any of their kinds (all of them, not only
// the printed ones).
type ErrorList []*Error

// MaxErrors bounds the errors an ErrorList prints.
const MaxErrors = 20

func (l ErrorList) Error() string {
	n := min(len(l), MaxErrors)
	lines := make([]string, n, n+1)
	for i, e := range l[:n] {
		lines[i] = e.Error()
	}
	switch more := len(l) - n; {
	case more == 1:
		lines = append(lines, "... and 1 more error")
	case more > 1:
		lines = append(lines, fmt.Sprintf("... and %d more errors", more))
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the errors of l.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}
