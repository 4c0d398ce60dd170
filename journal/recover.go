package journal

import (
	"encoding/binary"
	"math"

	"github.com/tickwork/tickwork"
)

// recover is Open's recovery (docs/journal.md, Recovery): the first
// checkpoint of an empty store, or the checkpoint restored and the
// durable frames after it re-run.
func (j *Journal) recover() error {
	cp, ok, err := j.store.LoadCheckpoint()
	if err != nil {
		return &StoreError{Op: "load checkpoint", Store: j.store.String(), Err: err}
	}
	if !ok {
		return j.first()
	}
	if err := j.w.Restore(cp.Snapshot); err != nil {
		return &RestoreError{Frame: cp.Frame, Err: err}
	}
	if j.w.Frames() != cp.Frame {
		return &CorruptError{Position: cp.Position, Reason: "the checkpoint's frame is not its snapshot's"}
	}
	j.durable, j.lastUpTo = cp.Position, cp.Position
	err = j.store.Read(cp.Position, func(p Position, rec []byte) error { return j.replay(p, rec) })
	if err != nil {
		if _, corrupt := err.(*CorruptError); corrupt || tickwork.IsFatal(err) {
			return err
		}
		return &StoreError{Op: "read", Store: j.store.String(), Err: err}
	}
	j.lastMark = j.durable
	return nil
}

// first writes the checkpoint of a new journal: w as it is, position 0.
func (j *Journal) first() error {
	var any bool
	err := j.store.Read(0, func(Position, []byte) error { any = true; return errStop })
	if err != nil && err != errStop {
		return &StoreError{Op: "read", Store: j.store.String(), Err: err}
	}
	if any {
		return &CorruptError{Position: 1, Reason: "records without a checkpoint"}
	}
	snap, err := j.w.Snapshot(nil)
	if err != nil {
		return err
	}
	if err := j.store.WriteCheckpoint(Checkpoint{Frame: j.w.Frames(), Snapshot: snap}); err != nil {
		return &StoreError{Op: "checkpoint", Store: j.store.String(), Err: err}
	}
	j.cpBuf = snap
	return nil
}

// replay takes one record after the checkpoint: an input is queued, a
// frame mark of the world's next frame feeds the frame its inputs and
// runs it.
func (j *Journal) replay(p Position, rec []byte) error {
	if p != j.durable+1 {
		return &CorruptError{Position: p, Reason: "positions not consecutive"}
	}
	j.durable = p
	switch {
	case len(rec) >= 3 && rec[0] == kindInput:
		id := int(rec[1]) | int(rec[2])<<8
		if id >= len(j.tables) {
			return &CorruptError{Position: p, Reason: "input of an input table this journal was not opened with"}
		}
		return j.tables[id].queue(p, rec[3:])
	case len(rec) == markSize && rec[0] == kindMark:
		frame := binary.LittleEndian.Uint64(rec[1:])
		dt := math.Float64frombits(binary.LittleEndian.Uint64(rec[9:]))
		upTo := Position(binary.LittleEndian.Uint64(rec[17:]))
		next := j.w.Frames()
		if frame < next {
			return nil // a frame the checkpoint holds
		}
		if frame > next || upTo < j.lastUpTo || upTo >= p {
			return &CorruptError{Position: p, Reason: "frame mark out of order"}
		}
		if got := j.feed(frame, upTo); got != upTo {
			return &CorruptError{Position: p, Reason: "a frame's inputs do not fit its input tables as they did"}
		}
		j.lastUpTo = upTo
		j.stats.Replayed++
		if err := j.w.Frame(dt); err != nil && tickwork.IsFatal(err) {
			return err
		}
		return nil
	default:
		return &CorruptError{Position: p, Reason: "unknown record"}
	}
}
