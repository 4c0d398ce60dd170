package atomicfile

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
)

// Step is the part of WriteFile that failed.
type Step uint8

// The steps of WriteFile, in order.
const (
	StepCreate  Step = iota // create the temporary file in the target's directory
	StepWrite               // write the contents (and set the mode)
	StepSync                // sync the temporary file to stable storage
	StepClose               // close it
	StepRename              // rename it over the target
	StepSyncDir             // sync the directory, so that the rename is durable
)

var stepNames = [...]string{"create temporary file", "write", "sync", "close", "rename", "sync directory"}

// String names the step ("rename").
func (s Step) String() string {
	if int(s) < len(stepNames) {
		return stepNames[s]
	}
	return "Step(" + strconv.Itoa(int(s)) + ")"
}

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
// complete, and the file then holds one of their data; a directory at
// path is refused at StepRename, and a symbolic link at path is replaced
// by the file, not followed. It allocates the temporary file's name and handle.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	fail := func(s Step, e error) error { return &Error{Step: s, Path: path, Err: e} }
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
	if err := os.Rename(tmp, path); err != nil {
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
