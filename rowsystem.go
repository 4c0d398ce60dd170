package tickwork

import "fmt"

// Row systems (Each1 .. Each15, ParallelEach1 .. ParallelEach15, generated
// in query_gen.go); the rule: the package doc, Row systems.

// Col is a column as a row system takes it, with the access it declares:
// made by Reads or Writes. A small value.
type Col[T any] struct {
	c     *Column[T]
	write bool
}

// Reads is column c read by a row system.
func Reads[T any](c *Column[T]) Col[T] { return Col[T]{c, false} }

// Writes is column c read and written by a row system.
func Writes[T any](c *Column[T]) Col[T] { return Col[T]{c, true} }

// declare declares the access in d and returns the accessor.
func (a Col[T]) declare(d *Decl) Access[T] {
	if a.write {
		return Write(d, a.c)
	}
	return Read(d, a.c)
}

// Use is what a row system declares besides its columns (the rule: the
// package doc, Row systems).
type Use interface{ declare(d *Decl) }

func declareUses(d *Decl, uses []Use) {
	for _, u := range uses {
		if u != nil {
			u.declare(d)
		}
	}
}

// nilRowFunc fails the declaration of a row system given a nil row
// function (call names the maker, "Each2"): Build returns the
// *SystemDefinitionError (ErrBadDeclaration) naming the system. The body
// it returns never runs.
func nilRowFunc(d *Decl, call string) RunFunc {
	d.e().Fail(call, "nil row function: give the function called with each row")
	return func(*Context) {}
}

// bound refuses a use given to a second system.
func bound(kind string, owner *string, d *Decl) {
	if *owner != "" {
		panic(fmt.Sprintf("tickwork: %s of system %q given to system %q too: a use is bound to one system", kind, *owner, d.Name()))
	}
	*owner = d.Name()
}

// RecordUse is a row system's recorder for one table, made by Records: its
// Recorder (Delete, Remove, Create, At, ...) is set at Build.
type RecordUse struct {
	*Recorder
	t     *Table
	owner string
}

// Records is the use that records commands for table t (as Record).
func Records(t *Table) *RecordUse { return &RecordUse{t: t} }

func (u *RecordUse) declare(d *Decl) { bound("Records", &u.owner, d); u.Recorder = Record(d, u.t) }

// EmitUse is a row system's emitter into one event table, made by Emits:
// its Emitter is set at Build.
type EmitUse[T any] struct {
	*Emitter[T]
	ev    *Events[T]
	owner string
}

// Emits is the use that emits into ev from the body (as Emit).
func Emits[T any](ev *Events[T]) *EmitUse[T] { return &EmitUse[T]{ev: ev} }

func (u *EmitUse[T]) declare(d *Decl) { bound("Emits", &u.owner, d); u.Emitter = Emit(d, u.ev) }

// ParallelEmitUse is a ParallelEach system's emitter into one event
// table, made by EmitsParallel: its ParallelEmitter (At) is set at Build.
type ParallelEmitUse[T any] struct {
	*ParallelEmitter[T]
	ev    *Events[T]
	owner string
}

// EmitsParallel is the use that emits into ev from kernel workers (as
// EmitParallel).
func EmitsParallel[T any](ev *Events[T]) *ParallelEmitUse[T] { return &ParallelEmitUse[T]{ev: ev} }

func (u *ParallelEmitUse[T]) declare(d *Decl) {
	bound("EmitsParallel", &u.owner, d)
	u.ParallelEmitter = EmitParallel(d, u.ev)
}

// ResourceUse is a row system's resource, made by ReadsResource or
// WritesResource: V points to its value from Build on.
type ResourceUse[T any] struct {
	V     *T
	r     *Resource[T]
	write bool
	owner string
}

// ReadsResource is the use that reads resource r (as ReadResource): V
// must not be written through.
func ReadsResource[T any](r *Resource[T]) *ResourceUse[T] { return &ResourceUse[T]{r: r} }

// WritesResource is the use that writes resource r (as WriteResource).
func WritesResource[T any](r *Resource[T]) *ResourceUse[T] {
	return &ResourceUse[T]{r: r, write: true}
}

func (u *ResourceUse[T]) declare(d *Decl) {
	bound("a resource use", &u.owner, d)
	if u.write {
		u.V = WriteResource(d, u.r)
	} else {
		u.V = ReadResource(d, u.r)
	}
}

// orderUse is Orders' use.
type orderUse struct{ after, before []string }

func (u orderUse) declare(d *Decl) { d.After(u.after...); d.Before(u.before...) }

// Orders is the use that runs the row system after the systems named
// (as Decl.After); Builder.Chain orders several at once.
func Orders(after ...string) Use { return orderUse{after: after} }

// condUse is RunsIf's use.
type condUse struct{ cond func(c *Decl) CondFunc }

func (u condUse) declare(d *Decl) { d.RunIf(u.cond) }

// RunsIf is the use that runs the row system only while a run condition
// holds (as Decl.RunIf, whose errors and panics it has; the rule:
// docs/architecture.md, Run conditions).
func RunsIf(declare func(c *Decl) CondFunc) Use { return condUse{cond: declare} }
