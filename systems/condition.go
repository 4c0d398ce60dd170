package systems

import (
	"strconv"
	"strings"

	"github.com/tickwork/tickwork/internal/engine/frame"
)

// CondFunc is a run condition's test (Decl.RunIf): it returns whether the
// system runs now. It runs on the frame's goroutine at the system's slot,
// once before each run (each fixed tick in FixedUpdate), and reads only
// through the accessors its condition declaration asked for; what it may
// not do is docs/architecture.md, Run conditions.
type CondFunc func(ctx *Context) bool

// RunIf adds a run condition to the system: declare runs at once with a
// condition Decl c, asks c for what the condition reads (Read,
// ReadResource, ReadIndex, Consume, queries and joins over those) and
// returns the test. Those reads enter the system's manifest, so an
// unordered writer of what a condition reads is a conflict that Build
// refuses, naming both systems (docs/architecture.md, Access rules). With
// several RunIf calls the system runs only when every test holds, asked in
// declaration order (the first false stops). An accessor that writes,
// records, emits, counts or runs a chunk kernel, asked of c, fails the
// declaration with a *DefinitionError (errors.Is ErrConditionAccess); so
// does a nil test. RunIf panics on a nil declare and when called on a
// condition Decl (programmer misuse). Call it in the DeclareFunc; it
// allocates.
func (d *Decl) RunIf(declare func(c *Decl) CondFunc) {
	d = d.use("RunIf")
	if d.cond {
		panic("systems: RunIf inside a run condition's declaration of system " + strconv.Quote(d.name) +
			": call RunIf on the system's Decl, once per condition")
	}
	if declare == nil {
		panic("systems: RunIf(nil) in system " + strconv.Quote(d.name) +
			": pass a function that declares the condition's reads on its Decl and returns the test")
	}
	c := &Decl{name: d.name, phase: d.phase, run: d.run, ctx: d.ctx, cond: true}
	test := declare(c)
	c.done = true
	d.before, d.after = append(d.before, c.before...), append(d.after, c.after...)
	if c.err != nil {
		if d.err == nil {
			d.err = c.err
		}
		return
	}
	if test == nil {
		d.fail("RunIf", "the condition's declaration returned a nil test: return a func(ctx *Context) bool")
		return
	}
	d.mergeCond(&c.man)
	ctx := d.ctx
	d.run.Conds = append(d.run.Conds, func() bool { return test(ctx) })
}

// mergeCond adds the reads of a condition's manifest m to d's, naming
// them in CondReads.
func (d *Decl) mergeCond(m *frame.Manifest) {
	for _, r := range m.Reads {
		d.man.Read(r)
		d.man.CondReads = frame.AddNew(d.man.CondReads, r.String())
	}
	for _, u := range m.Resources {
		d.man.Use(u.Resource, false)
		d.man.CondReads = frame.AddNew(d.man.CondReads, "resource "+u.Resource.Name())
	}
	for _, b := range m.Consumes {
		d.man.Consumes = frame.AddNew(d.man.Consumes, b)
	}
	for _, t := range m.Presence {
		d.man.Presence = frame.AddNew(d.man.Presence, t)
	}
	for _, ix := range m.Indexes {
		d.man.Indexes = frame.AddNew(d.man.Indexes, ix)
	}
}

// condRefused reports whether call is an accessor a run condition may not
// ask for: one that writes, records, emits, counts or runs a kernel.
func condRefused(call string) bool {
	switch call {
	case "Write", "WriteResource", "Record", "Emit", "EmitParallel", "MaintainIndex", "Counter", "ChunkKernel":
		return true
	}
	return strings.HasPrefix(call, "NewSpawner")
}

// condFail fails a condition's declaration for the refused accessor call.
func (d *Decl) condFail(call string) {
	if d.err == nil {
		d.err = &DefinitionError{System: d.name, Err: ErrConditionAccess, Detail: call + " in a run condition (RunIf)" +
			": a condition only reads (Read, ReadResource, ReadIndex, Consume, queries and joins over reads);" +
			" write, record, emit and count in the system's body (docs/architecture.md, Run conditions)"}
	}
}
