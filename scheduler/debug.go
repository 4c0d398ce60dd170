package scheduler

import (
	"errors"
	"strconv"
)

// ErrUndeclaredWrite: in the checking debug build (build tag
// tickwork_debug), a system changed a column or resource that its
// manifest declares only as read (docs/architecture.md, Debug build).
// Returned as an *UndeclaredWriteError inside the frame's *SystemError;
// the normal build does not check, and never returns it.
var ErrUndeclaredWrite = errors.New("scheduler: a system wrote data it declared only to read")

// UndeclaredWriteError names the system whose run changed a column or a
// resource it declared only to read, as the debug build finds it by
// hashing that memory before and after the run: Column ("table.column")
// or Resource (its name), the other empty. The frame stops after the
// system, as after a Context.Fail (it is the Err of the frame's
// *SystemError); errors.Is(err, ErrUndeclaredWrite) holds. It is the
// system's own, reused by its next failing run (a failing frame allocates
// nothing).
type UndeclaredWriteError struct {
	System   string
	Column   string
	Resource string
}

func (e *UndeclaredWriteError) Error() string {
	if e.Resource != "" {
		return "scheduler: system " + strconv.Quote(e.System) + " changed resource " + strconv.Quote(e.Resource) +
			", which it declared only to read (ReadResource): declare it with WriteResource, " +
			"or stop writing through the pointer ReadResource gave (tickwork_debug check)"
	}
	return "scheduler: system " + strconv.Quote(e.System) + " changed column " + e.Column +
		", which it declared only to read (Read, a query's read column): declare it with Write, " +
		"or stop writing through the read accessor's memory (All, a query's pointers, Column.All or Column.Set) (tickwork_debug check)"
}

// Is reports whether target is ErrUndeclaredWrite.
func (e *UndeclaredWriteError) Is(target error) bool { return target == ErrUndeclaredWrite }

// ErrUnmarkedIndexWrite: in the checking debug build (build tag
// tickwork_debug), a system that declared MaintainIndex for an index
// changed a key of a row it did not mark, so the sync after it left the
// index stale (docs/architecture.md, Debug build). Returned as an
// *UnmarkedIndexWriteError inside the frame's *SystemError; the normal
// build does not check, and never returns it.
var ErrUnmarkedIndexWrite = errors.New("scheduler: a system changed an index key of a row it did not mark")

// UnmarkedIndexWriteError names the system that declared MaintainIndex
// for Index and, in a run, changed the key columns (Columns, each
// "table.column", comma-separated) of a live row it did not mark: Row is
// the lowest such row, as the debug build finds it by checking every live
// row of the index's table against the key the index filed, after the
// sync of the system's marks. The frame stops after the system, as after
// a Context.Fail; errors.Is(err, ErrUnmarkedIndexWrite) holds. It is the
// system's own, reused by its next failing run (a failing frame allocates
// nothing).
type UnmarkedIndexWriteError struct {
	System  string
	Index   string
	Columns string
	Row     int
}

func (e *UnmarkedIndexWriteError) Error() string {
	return "scheduler: system " + strconv.Quote(e.System) + " changed the key (" + e.Columns + ") of row " +
		strconv.Itoa(e.Row) + " of index " + strconv.Quote(e.Index) + " without marking it, " +
		"which it declared it would (MaintainIndex): mark every row whose key it changes (IndexMarks.Mark), " +
		"or drop MaintainIndex and let the sync diff the table (tickwork_debug check)"
}

// Is reports whether target is ErrUnmarkedIndexWrite.
func (e *UnmarkedIndexWriteError) Is(target error) bool { return target == ErrUnmarkedIndexWrite }
