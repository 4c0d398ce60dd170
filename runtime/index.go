package runtime

import (
	"slices"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/systems"
)

// AddIndex registers a declared secondary index (package tickwork's
// AddHashIndex .. AddEventIndex build ix and call it): from Build on, the
// world keeps ix consistent by the rule of docs/architecture.md, Indexes.
// Its table, event table and key columns must be b's. It returns false,
// recording nothing, when b cannot declare (an earlier error, after Build)
// and records a *ForeignError for a table or event table of another
// Builder (the caller checks names and columns). Set-up only.
func AddIndex(b *Builder, ix systems.Index) bool {
	if !b.usable() {
		return false
	}
	if t := ix.IndexTable(); t != nil && !slices.Contains(b.tables, t) {
		b.fail(&ForeignError{Where: "index " + ix.IndexName(), Kind: "table", Name: t.Name()})
		return false
	}
	if ev := ix.IndexEvents(); ev != nil && !slices.Contains(b.events, ev) {
		b.fail(&ForeignError{Where: "index " + ix.IndexName(), Kind: "event table", Name: ev.Name()})
		return false
	}
	if b.cfg.noIndex {
		b.offIndexes = append(b.offIndexes, ix.IndexName())
		return true
	}
	b.indexes = append(b.indexes, ix)
	return true
}

// IndexesOff reports whether b was made WithoutIndexes: AddIndex then
// records each index's name (IndexNames) and the world keeps none.
func (b *Builder) IndexesOff() bool { return b != nil && b.cfg.noIndex }

// IndexNames lists the names of the indexes b took, kept or not
// (WithoutIndexes), in declaration order.
func (b *Builder) IndexNames() []string {
	out := make([]string, 0, len(b.indexes)+len(b.offIndexes))
	for _, ix := range b.indexes {
		out = append(out, ix.IndexName())
	}
	return append(out, b.offIndexes...)
}

// Built reports whether b has built (or tried to): declarations after it
// are refused with ErrBuilt.
func (b *Builder) Built() bool { return b != nil && b.built }

// indexGroup is the indexes of one table and the table's dirty-row marks.
type indexGroup struct {
	t     *ephemeral.Table
	marks *ephemeral.Marks
	ixs   []systems.Index
}

// upkeep is a world's systems.IndexUpkeep.
type upkeep struct {
	pending error // an error of a sync at an accessor's first use, for the next frame
	all     []systems.Index
	groups  []indexGroup
	events  []systems.Index
}

func newUpkeep(ixs []systems.Index) *upkeep {
	u := &upkeep{all: ixs}
	for _, ix := range ixs {
		t := ix.IndexTable()
		if t == nil {
			u.events = append(u.events, ix)
			continue
		}
		i := slices.IndexFunc(u.groups, func(g indexGroup) bool { return g.t == t })
		if i < 0 {
			m := ephemeral.NewMarks(t.Chunks() * t.ChunkRows())
			t.SetMarks(m)
			u.groups = append(u.groups, indexGroup{t: t, marks: m})
			i = len(u.groups) - 1
		}
		u.groups[i].ixs = append(u.groups[i].ixs, ix)
	}
	return u
}

func (u *upkeep) Indexes() []systems.Index { return u.all }

func (u *upkeep) Changed(who string, boundary bool) error {
	first := u.pending
	u.pending = nil
	keep := func(err error) {
		if first == nil {
			first = err
		}
	}
	for i := range u.groups {
		g := &u.groups[i]
		if !g.marks.Any() {
			continue
		}
		words, summary := g.marks.Words()
		for _, ix := range g.ixs {
			keep(ix.SyncRows(who, words, summary))
		}
		g.marks.Reset()
	}
	for _, ix := range u.events {
		keep(ix.SyncEvents(who, boundary))
	}
	return first
}

// reindex syncs every index after raw writes (a diff of every key), or
// rebuilds them all (after a restore); the first error.
func (u *upkeep) reindex(who string, rebuild bool) error {
	var first error
	keep := func(err error) {
		if first == nil {
			first = err
		}
	}
	for i := range u.groups {
		g := &u.groups[i]
		words, summary := g.marks.Words()
		for _, ix := range g.ixs {
			switch {
			case rebuild:
				keep(ix.Rebuild(who))
			default:
				if g.marks.Any() {
					keep(ix.SyncRows(who, words, summary))
				}
				keep(ix.SyncAll(who))
			}
		}
		g.marks.Reset()
	}
	for _, ix := range u.events {
		if rebuild {
			keep(ix.Rebuild(who))
		} else {
			keep(ix.SyncEvents(who, true))
		}
	}
	return first
}

// Reindex brings every index of the world up to date after the host
// wrote key columns through raw slices (Column.All, Span, Ptr), which the
// world cannot see: it syncs the dirty rows, then diffs every live row's
// key against the index (the rule: docs/architecture.md, Indexes). It
// returns the first index error (a unique index refusing a duplicate, an
// error wrapping *index.DuplicateError); nil for a world without
// indexes. It allocates nothing; between frames only (from a system it
// returns ErrRunning and syncs nothing).
func (w *World) Reindex() error {
	w = w.made()
	if w.sched.Running() {
		return ErrRunning
	}
	if w.upkeep == nil {
		return nil
	}
	return w.upkeep.reindex("Reindex", false)
}

// SyncIndexes syncs the indexes whose tables the host changed through
// typed accessors since the last sync, as a frame's start does; the
// indexes' accessors (package tickwork) call it at their first use. It
// returns the first index error, which the next Frame returns too (a
// duplicate a unique index refused is never silent); nil without
// indexes.
func (w *World) SyncIndexes() error {
	if w == nil || w.upkeep == nil {
		return nil
	}
	err := w.upkeep.Changed("host", false)
	if err != nil && w.upkeep.pending == nil {
		w.upkeep.pending = err // the next frame returns it too: never silent
	}
	return err
}

// rebuildIndexes rebuilds every index (after a restore or a rollback).
func (w *World) rebuildIndexes() error {
	if w.upkeep == nil {
		return nil
	}
	return w.upkeep.reindex("Restore", true)
}

// Fail records err as the Builder's error unless it has one already:
// for a declaration of a higher layer that checks its own arguments
// (package tickwork's indexes). Build returns it.
func (b *Builder) Fail(err error) {
	if b != nil && b.made {
		b.fail(err)
	}
}

// Tables lists the tables declared so far; the slice is the Builder's
// own: do not modify it. Set-up only.
func (b *Builder) Tables() []*ephemeral.Table { return b.tables }

// Indexes lists the indexes registered so far (AddIndex); the slice is
// the Builder's own. Set-up only.
func (b *Builder) Indexes() []systems.Index { return b.indexes }

// Running reports whether a frame runs (from a system, or another
// goroutine during Frame): the indexes' accessors sync only between
// frames. One atomic load.
func (w *World) Running() bool { return w.made().sched.Running() }

// RunSync runs fn(worker, chunk) for every chunk in 0..chunks-1 on the
// world's kernel pool under its policy, for an index's sync between
// systems (the diff of a grid's cells: docs/architecture.md, Indexes):
// the pool is idle there, during a frame or between frames. Inline on a
// closed world. fn must not call Frame or RunSync; allocates nothing.
func (w *World) RunSync(chunks int, fn func(worker, chunk int)) {
	if w.closed {
		for c := range chunks {
			fn(0, c)
		}
		return
	}
	w.pool.Run(chunks, fn)
}
