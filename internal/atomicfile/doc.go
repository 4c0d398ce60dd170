// Package atomicfile writes a file so that a crash at any point leaves the
// target holding either its old contents or the new ones, never a mix or
// a truncated file.
//
// # Outline
//
//   - Write a file: [WriteFile] (a temporary file in the target's
//     directory, written, synced, closed, renamed over the target, then
//     the directory synced).
//   - Which targets: only a regular file is replaced, or a new one made;
//     a symbolic link is followed to the file it names ([StepTarget],
//     [ErrNotRegular]).
//   - Errors: a [*Error] naming the [Step] that failed and the target;
//     errors.Is reaches the os error (fs.ErrNotExist, fs.ErrPermission,
//     syscall.ENOSPC, ...).
//   - What a crash leaves: the target, old or new, and at most one
//     temporary file per interrupted write, named "." + the target's base
//     name + ".tmp" + random digits, in the target's directory; nothing
//     reads it, and it is safe to delete.
package atomicfile
