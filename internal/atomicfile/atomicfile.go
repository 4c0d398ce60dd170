package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
)

// Step is the part of WriteFile that failed.
type Step uint8

// The steps of WriteFile, in order.
const (
	StepTarget  Step = iota // check the target: a regular file, or none yet (a symbolic link is followed)
	StepCreate              // create the temporary file in the target's directory
	StepWrite               // write the contents (and set the mode)
	StepSync                // sync the temporary file to stable storage
	StepClose               // close it
	StepRename              // rename it over the target
	StepSyncDir             // sync the directory, so that the rename is durable
)

var stepNames = [...]string{"check target", "create temporary file", "write", "sync", "close", "rename", "sync directory"}

// String names the step ("rename").
func (s Step) String() string {
	if int(s) < len(stepNames) {
		return stepNames[s]
	}
	return "Step(" + strconv.Itoa(int(s)) + ")"
}

// ErrNotRegular: a path that names something other than a regular file:
// a directory, a named pipe (FIFO), a device or a socket. WriteFile
// refuses to replace one (StepTarget); the root package's LoadFile
// refuses to read one.
var ErrNotRegular = errors.New("not a regular file")

// errEmptyPath: WriteFile given "" (errors.Is fs.ErrInvalid).
var errEmptyPath = fmt.Errorf("empty path: name the file to write: %w", fs.ErrInvalid)

// Error reports a WriteFile that failed: the step, the target's path and
// the os error (Err). Before StepSyncDir nothing of the target changed and
// the temporary file is removed; at StepSyncDir the new contents are in
// place but may not survive a power loss. errors.Is and errors.As reach
// Err.
type Error struct {
	Step Step
	Path string // the target
	Err  error
}

func (e *Error) Error() string {
	return "atomicfile: " + e.Step.String() + " for " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// WriteFile writes data to the file at path so that, whatever happens to
// the process or the machine, the file holds either its old contents (or
// does not exist, as before) or data: it writes a temporary file in the
// same directory (os.CreateTemp), sets its mode to perm (as given, not
// masked by the umask), syncs and closes it, renames it over path and
// syncs the directory (not on Windows, where a directory cannot be
// synced). A failed step returns an *Error naming it; before the rename
// the temporary file is removed and path is untouched. A crash leaves the
// temporary file behind (doc.go). Concurrent WriteFiles to one path each
// complete, and the file then holds one of their data.
//
// First it checks the target (StepTarget): an empty path is refused
// (errors.Is fs.ErrInvalid), and so is a path naming a directory, a named
// pipe, a device or a socket (errors.Is ErrNotRegular), so that only a
// regular file is ever replaced. A symbolic link at path is followed, to
// its end: the file it names is the one replaced (the temporary file goes
// in that file's directory) and the link stays; a link to nothing is
// refused (errors.Is fs.ErrNotExist). The check and the rename are two
// steps: a directory entry made between them is replaced. It allocates
// the temporary file's name and handle.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	fail := func(s Step, e error) error { return &Error{Step: s, Path: path, Err: e} }
	target, err := checkTarget(path)
	if err != nil {
		return fail(StepTarget, err)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp")
	if err != nil {
		return fail(StepCreate, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil && tmp != "" {
			_ = f.Close() // a second Close returns os.ErrClosed: harmless
			_ = os.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil && goruntime.GOOS != "windows" {
		return fail(StepWrite, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(StepWrite, err)
	}
	if err := f.Sync(); err != nil {
		return fail(StepSync, err)
	}
	if err := f.Close(); err != nil {
		return fail(StepClose, err)
	}
	if err := os.Rename(tmp, target); err != nil {
		return fail(StepRename, err)
	}
	tmp = "" // renamed: nothing to remove
	if goruntime.GOOS == "windows" {
		return nil
	}
	if err := syncDir(dir); err != nil {
		return fail(StepSyncDir, err)
	}
	return nil
}

// syncDir syncs the directory dir, making a rename in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// checkTarget returns the file WriteFile replaces: path, or the end of the
// symbolic links path starts; an error for an empty path, a link to
// nothing or a target that exists and is not a regular file.
func checkTarget(path string) (string, error) {
	if path == "" {
		return "", errEmptyPath
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil // a new file
	}
	if err != nil {
		return "", err
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", fmt.Errorf("a symbolic link to a file that cannot be reached (write the file it names first, or remove the link): %w", err)
		}
		if fi, err = os.Lstat(target); err != nil {
			return "", err
		}
	}
	if !fi.Mode().IsRegular() {
		via := ""
		if target != path {
			via = "it links to " + target + ", "
		}
		return "", fmt.Errorf("%s%s (%v), %w: only a regular file is replaced; remove it or choose another path", via, Kind(fi.Mode()), fi.Mode().Type(), ErrNotRegular)
	}
	return target, nil
}

// Kind names what a file mode describes: "a directory", "a named pipe
// (FIFO)", "a device", "a socket", "a symbolic link", "an irregular file"
// or "a regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}
