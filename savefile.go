package tickwork

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"syscall"

	"github.com/tickwork/tickwork/internal/atomicfile"
	"github.com/tickwork/tickwork/runtime"
)

// Save files: SaveFile, LoadFile (how a save survives a crash and which
// files LoadFile refuses before reading them: docs/state.md, "Save games").

// FileError reports a refused SaveFile or LoadFile: Op is "save" or
// "load", Path the file, Err the cause: an os error (errors.Is reaches
// fs.ErrNotExist, fs.ErrPermission, ...) or a *SnapshotError (errors.Is
// reaches ErrSnapshot and its sentinels, ErrTruncated, ErrCorrupt,
// ErrVersion, ErrOtherWorld, ErrUnsupported), or ErrZeroWorld, ErrClosed,
// runtime.ErrRunning, or the refusal of a world a panic poisoned (errors.Is
// ErrPoisoned and ErrSnapshot: docs/state.md, "Not of a poisoned world");
// a path that is empty (errors.Is fs.ErrInvalid)
// or names no regular file (errors.Is ErrNotRegularFile). Step is the step
// of a save that failed writing the file ("check target", "create
// temporary file", "write", "sync", "close", "rename" or "sync directory":
// before "sync directory" path is untouched), "" for every other refusal.
type FileError struct {
	Op   string
	Path string
	Step string
	Err  error
}

func (e *FileError) Error() string {
	if e.Step != "" {
		return "tickwork: " + e.Op + " " + e.Path + ": " + e.Step + ": " + e.Err.Error()
	}
	return "tickwork: " + e.Op + " " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *FileError) Unwrap() error { return e.Err }

// SaveFile writes w's snapshot (World.Snapshot) to the file at path,
// atomically and durably: a temporary file in path's directory, synced,
// renamed over path, the directory synced, so that a crash at any point
// leaves path holding the previous save or the new one (docs/state.md,
// "Save games"); the file gets mode 0644. Only a regular file is
// replaced: an empty path, and a path naming a directory, a named pipe, a
// device or a socket are refused (Step "check target"); a symbolic link is
// followed, and the file it names gets the save (docs/state.md, "Which
// paths a save and a load take"). It returns, as a *FileError,
// Snapshot's errors (nothing is written) or the file system's (path is
// untouched, unless only the final directory sync failed: then the new
// save is in place but may not survive a power loss). It allocates the
// snapshot. Call it between frames, from the goroutine that calls Frame
// (not from a system: errors.Is runtime.ErrRunning); concurrent SaveFiles
// to one path from several worlds each complete, and path holds one of
// their saves.
func SaveFile(w *World, path string) error {
	b, err := w.Snapshot(nil)
	if err != nil {
		return &FileError{Op: "save", Path: path, Err: err}
	}
	if err := atomicfile.WriteFile(path, b, 0o644); err != nil {
		fe := &FileError{Op: "save", Path: path, Err: err}
		if ae, ok := err.(*atomicfile.Error); ok { // its step, and the os error: no internal type reaches the host
			fe.Step, fe.Err = ae.Step.String(), ae.Err
		}
		return fe
	}
	return nil
}

// LoadFile makes w hold the save in the file at path (SaveFile), as
// World.Restore does. It reads the file's 40-byte header before anything
// else and refuses, before reading the payload, a file whose header is no
// snapshot's (ErrCorrupt), of another format version (ErrVersion), whose
// payload length is not the file's (ErrTruncated when the file is
// shorter, ErrCorrupt when it is longer), or whose size is past what w's
// declarations can produce (ErrCorrupt, naming the bound,
// World.MaxSnapshotSize; docs/state.md, "Sizes"); a path that is empty or
// names no regular file (a directory, a named pipe, even one no process
// writes, a device) is refused without reading; then it reads the
// payload into one buffer of the file's size and calls Restore, whose
// checks follow. A refused file leaves w as it was. Errors are a
// *FileError wrapping a *SnapshotError, the os error, ErrZeroWorld,
// ErrClosed or runtime.ErrRunning. It allocates the file's size (at most
// MaxSnapshotSize) and nothing else of note. Call it between frames,
// from the goroutine that calls Frame.
func LoadFile(w *World, path string) error {
	if err := loadFile(w, path); err != nil {
		return &FileError{Op: "load", Path: path, Err: err}
	}
	return nil
}

func loadFile(w *World, path string) error {
	if _, err := w.SnapshotSize(); err != nil { // ErrZeroWorld, ErrClosed, ErrRunning, a world a snapshot cannot hold
		return err
	}
	if path == "" {
		return errEmptyPath
	}
	// Non-blocking: opening a named pipe that no process writes returns at
	// once (a blocking open waits for a writer, forever), and Stat refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &runtime.SnapshotError{Err: runtime.ErrCorrupt, Section: "header", Detail: atomicfile.Kind(fi.Mode()) + " (" + fi.Mode().Type().String() + ")", Cause: ErrNotRegularFile}
	}
	size := fi.Size()
	if size < runtime.SnapshotHeader {
		b, err := io.ReadAll(io.LimitReader(f, runtime.SnapshotHeader))
		if err != nil {
			return err
		}
		return w.Restore(b) // Restore's own refusal of a short file
	}
	var head [runtime.SnapshotHeader]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return shrunk(err)
	}
	if err := checkHead(head[:], size, int64(w.MaxSnapshotSize())); err != nil {
		return err
	}
	buf := make([]byte, size)
	copy(buf, head[:])
	if _, err := io.ReadFull(f, buf[runtime.SnapshotHeader:]); err != nil {
		return shrunk(err)
	}
	if n, _ := f.Read(head[:1]); n != 0 {
		return headErr(runtime.ErrCorrupt, "the file grew while it was read")
	}
	return w.Restore(buf)
}

// errEmptyPath: LoadFile given "" (errors.Is fs.ErrInvalid).
var errEmptyPath = fmt.Errorf("empty path: name the save file: %w", fs.ErrInvalid)

// snapshotMagic opens every snapshot (docs/state.md, "Format").
var snapshotMagic = [8]byte{'T', 'I', 'C', 'K', 'S', 'N', 'A', 'P'}

// checkHead checks a save's header against the file's size and the bound,
// as LoadFile's comment says. The layout: docs/state.md, "Format" (magic
// at 0, version at 8, payload length at 24).
func checkHead(head []byte, size, bound int64) error {
	if [8]byte(head[:8]) != snapshotMagic {
		return headErr(runtime.ErrCorrupt, "not a Tickwork snapshot")
	}
	if v := binary.LittleEndian.Uint32(head[8:]); v != runtime.SnapshotVersion {
		return headErr(runtime.ErrVersion, "version "+strconv.FormatUint(uint64(v), 10)+", this build reads "+strconv.Itoa(runtime.SnapshotVersion))
	}
	n := binary.LittleEndian.Uint64(head[24:])
	payload := uint64(size - runtime.SnapshotHeader)
	switch {
	case n > payload:
		return headErr(runtime.ErrTruncated, "payload length "+strconv.FormatUint(n, 10)+", the file holds "+strconv.FormatUint(payload, 10))
	case n < payload:
		return headErr(runtime.ErrCorrupt, "payload length "+strconv.FormatUint(n, 10)+", the file holds "+strconv.FormatUint(payload-n, 10)+" bytes more")
	case size > bound:
		return headErr(runtime.ErrCorrupt, "a file of "+strconv.FormatInt(size, 10)+" bytes, past the "+strconv.FormatInt(bound, 10)+
			" this world's declarations and state allowance can produce (World.MaxSnapshotSize)")
	}
	return nil
}

func headErr(err error, detail string) error {
	return &runtime.SnapshotError{Err: err, Section: "header", Detail: detail}
}

// shrunk is the error of a read that ended before the size Stat gave.
func shrunk(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return headErr(runtime.ErrTruncated, "the file shrank while it was read")
	}
	return err
}
