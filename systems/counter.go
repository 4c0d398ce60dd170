package systems

import (
	"strconv"

	"github.com/tickwork/tickwork/internal/engine/frame"
)

// Counter is a named per-system counter, declared by Decl.Counter: the
// body adds to it and the frame report shows, per system, what the
// frame's runs added (see Counters in the package doc, which says who
// may call Add). A small value, copied freely within the system's body;
// the zero Counter is not declared: Add panics on it.
type Counter struct {
	run *frame.Run
	i   int // -1: the declaration failed
}

// Counter declares the counter name of the system and returns its handle.
// Names are unique within a system and not empty; a bad name fails the
// declaration (*DefinitionError, errors.Is ErrBadDeclaration) and returns
// a Counter whose Add does nothing. It allocates: call it in the
// DeclareFunc.
func (d *Decl) Counter(name string) Counter {
	d.use("Counter")
	if name == "" {
		d.fail("Counter", "empty counter name: give the counter a name for the frame report")
		return Counter{run: d.run, i: -1}
	}
	for _, c := range d.run.Counters {
		if c.Name == name {
			d.fail("Counter", "counter "+strconv.Quote(name)+" declared twice: declare each counter once and keep its Counter")
			return Counter{run: d.run, i: -1}
		}
	}
	d.run.Counters = append(d.run.Counters, frame.Counter{Name: name})
	return Counter{run: d.run, i: len(d.run.Counters) - 1}
}

// Add adds n to the counter, from its own system's body only (package
// doc, Counters): never from a kernel, another system or the host. It
// allocates nothing; it panics on a zero Counter (declare it with
// Decl.Counter) and when its system's body is not the one running (one
// compare; a kernel's call from a worker cannot be told apart and is a
// data race).
func (c Counter) Add(n int64) {
	if c.run == nil {
		panic("systems: Add on a zero Counter: declare it with Decl.Counter in the system's DeclareFunc and keep the handle")
	}
	if c.i < 0 {
		return // a failed declaration: the system never runs
	}
	if e := c.run.Env; e == nil || e.Running != c.run {
		panic("systems: Add on system " + strconv.Quote(c.run.Name) + "'s counter " + strconv.Quote(c.run.Counters[c.i].Name) +
			" outside its body: only that system's body may add to it (not another system, not the host between frames; " +
			"a kernel sums per worker and the body adds the sum once)")
	}
	p := &c.run.Counters[c.i]
	p.Pending += n
	p.Total += n
}

// Total is what every run of the system added since the world was built
// (the frame report has one frame's sum). Call it between frames or from
// the body; 0 for a zero Counter.
func (c Counter) Total() int64 {
	if c.run == nil || c.i < 0 {
		return 0
	}
	return c.run.Counters[c.i].Total
}

// Name is the counter's name ("" for a zero Counter).
func (c Counter) Name() string {
	if c.run == nil || c.i < 0 {
		return ""
	}
	return c.run.Counters[c.i].Name
}
