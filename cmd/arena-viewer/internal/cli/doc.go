// Package cli is the viewer's command line: the flags, their ranges and the
// checks that can fail before a window opens (a bad -screenshot path among
// them).
//
// It knows nothing of ebiten, on purpose: ebiten opens the X display in
// its package initialization, before main runs, and panics when there is
// none. Package preflight calls [Parse] from its own initialization, which
// runs before ebiten's, so that -h, a bad flag or a missing display get an
// answer and an exit status instead of that panic. The viewer's run calls
// [Parse] again for the options it uses.
//
// # Errors
//
// [Parse] writes its diagnostics (and the usage, for -h or an unknown flag)
// to the writer it is given, prefixed "arena-viewer: ", and returns
// flag.ErrHelp for -h or an error for anything else: the command exits
// with status 0 for the first and 2 for the second.
//
// # Concurrency
//
// Parse and CheckScreenshot are safe for concurrent use; they touch the
// file system only to check the -screenshot path.
package cli
