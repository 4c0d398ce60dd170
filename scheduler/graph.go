package scheduler

import (
	"errors"
	"runtime/debug"
	"slices"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/systems"
)

// Seal runs the hooks, then checks and orders the systems of every phase.
// It returns an error after a successful Seal ("already sealed"), a *HookError when a hook
// fails (returns an error, or panics: then it wraps a *HookPanicError),
// and otherwise:
//
//   - names must be unique (*DuplicateError) and constraints must name
//     registered systems (*UnknownSystemError); a constraint across phases
//     must agree with the phase order (*PhaseOrderError);
//   - each phase's constraints must not form a cycle (*CycleError, naming
//     it); the running order is a topological sort that prefers
//     registration order (Kahn's algorithm taking the ready system
//     registered first);
//   - two systems of a phase that no chain of constraints orders must not
//     touch the same data (docs/architecture.md, Access rules); a
//     *ConflictError names every such pair with the datum;
//   - a consumer of a ThisFrame event table must run after every system
//     that emits it, in every frame (*EventOrderError, one per consumer
//     and table; the rule: docs/architecture.md, Delivery rule);
//   - a ThisFrame event table that systems emit into must have a consuming
//     system, unless its spec allows its events to go unread
//     (*UnreadEventsError, one per table; docs/architecture.md, Retention
//     and capacity).
//
// Errors of one stage are joined (errors.Join) and stop Seal before the
// next stage. Hooks run once, on the first call, even when Seal fails; a
// failed Seal may be retried after more Add calls. On success it builds
// the systems' contexts, command buffers and report, and the scheduler is
// ready to run frames. It allocates; everything Frame needs is allocated
// here.
func (s *Scheduler) Seal() error {
	if s.sealed {
		return errSealed
	}
	if !s.hooksRan {
		s.hooksRan = true
		h := &Hook{s: s}
		for i, fn := range s.hooks {
			if err := runHook(fn, h); err != nil {
				h.done = true
				return &HookError{Index: i, Err: err}
			}
		}
		h.done = true
	}
	if err := s.checkNames(); err != nil {
		return err
	}
	var phases [systems.NumPhases][]*entry
	var errs []error
	for p := range systems.Phase(systems.NumPhases) {
		order, err := s.sortPhase(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		phases[p] = order
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var conflicts []Conflict
	for p := range systems.Phase(systems.NumPhases) {
		conflicts = s.phaseConflicts(p, phases[p], conflicts)
	}
	if len(conflicts) > 0 {
		return &ConflictError{Conflicts: conflicts}
	}
	if errs := append(checkEventOrder(phases), checkUnread(phases)...); len(errs) > 0 {
		return errors.Join(errs...)
	}
	return s.build(phases)
}

// checkNames reports duplicates, unknown names and constraints that the
// phase order contradicts.
func (s *Scheduler) checkNames() error {
	var errs []error
	seen := make(map[string]bool, len(s.entries))
	for _, e := range s.entries {
		if seen[e.sys.Name] {
			errs = append(errs, &DuplicateError{Name: e.sys.Name})
		}
		seen[e.sys.Name] = true
	}
	check := func(e *entry, rel string, names []string, later bool) {
		for _, n := range names {
			o, ok := s.byName[n]
			if !ok {
				errs = append(errs, &UnknownSystemError{System: e.sys.Name, Relation: rel, Name: n})
				continue
			}
			if o.sys.Phase == e.sys.Phase {
				continue
			}
			// e runs before o (later) or after o: the phases must agree.
			if later != (o.sys.Phase > e.sys.Phase) {
				errs = append(errs, &PhaseOrderError{System: e.sys.Name, Relation: rel, Other: n,
					Phase: e.sys.Phase, OtherPhase: o.sys.Phase})
			}
		}
	}
	for _, e := range s.entries {
		check(e, "before", e.sys.Before, true)
		check(e, "after", e.sys.After, false)
	}
	return errors.Join(errs...)
}

// checkEventOrder reports, for every consumer of a ThisFrame event table in
// running order, the first emitter of the table (in running order) whose
// events it would miss: one that does not run before it in every frame.
// The phases are sorted and free of conflicts, so systems of one phase
// that share a table are ordered.
func checkEventOrder(phases [systems.NumPhases][]*entry) []error {
	var order []*entry // running order; a FixedUpdate tick counts once
	for p := range phases {
		order = append(order, phases[p]...)
	}
	var errs []error
	for ci, c := range order {
		for k, ev := range c.man.Consumes {
			if ev.Lifetime() != events.ThisFrame || slices.Contains(c.man.Consumes[:k], ev) {
				continue
			}
			for ei, e := range order {
				if e == c || !slices.Contains(e.man.Emits, ev) {
					continue
				}
				// e's events reach c in every frame only when e runs
				// before c, and in FixedUpdate only from FixedUpdate.
				if ei < ci && (c.sys.Phase != systems.FixedUpdate || e.sys.Phase == systems.FixedUpdate) {
					continue
				}
				errs = append(errs, &EventOrderError{Consumer: c.sys.Name, ConsumerPhase: c.sys.Phase,
					Emitter: e.sys.Name, EmitterPhase: e.sys.Phase, Events: ev.Name()})
				break
			}
		}
	}
	return errs
}

// checkUnread reports every ThisFrame event table that a system emits
// and no system consumes, unless its spec says its events may go unread
// (events.Spec.MayGoUnread): its events would end every frame unread
// (docs/architecture.md, Retention and capacity). One *UnreadEventsError
// per table, in running order of its first emitter, naming its emitters.
func checkUnread(phases [systems.NumPhases][]*entry) []error {
	var tables []events.Buffer
	emitters := map[events.Buffer][]string{}
	consumed := map[events.Buffer]bool{}
	for p := range phases {
		for _, e := range phases[p] {
			for _, ev := range e.man.Emits {
				if ev.Lifetime() != events.ThisFrame || ev.MayGoUnread() {
					continue
				}
				if _, ok := emitters[ev]; !ok {
					tables = append(tables, ev)
				}
				if !slices.Contains(emitters[ev], e.sys.Name) {
					emitters[ev] = append(emitters[ev], e.sys.Name)
				}
			}
			for _, ev := range e.man.Consumes {
				consumed[ev] = true
			}
		}
	}
	var errs []error
	for _, ev := range tables {
		if !consumed[ev] {
			errs = append(errs, &UnreadEventsError{Events: ev.Name(), Emitters: emitters[ev]})
		}
	}
	return errs
}

// phaseNodes returns the entries of phase p in registration order.
func (s *Scheduler) phaseNodes(p systems.Phase) []*entry {
	var out []*entry
	for _, e := range s.entries {
		if e.sys.Phase == p {
			out = append(out, e)
		}
	}
	return out
}

// edges returns, for the nodes of one phase, succ[i]: the nodes that must
// run after node i.
func (s *Scheduler) edges(nodes []*entry) [][]int {
	pos := make(map[*entry]int, len(nodes))
	for i, e := range nodes {
		pos[e] = i
	}
	succ := make([][]int, len(nodes))
	add := func(a, b int) {
		for _, x := range succ[a] {
			if x == b {
				return
			}
		}
		succ[a] = append(succ[a], b)
	}
	for i, e := range nodes {
		for _, n := range e.sys.Before {
			if j, ok := pos[s.byName[n]]; ok {
				add(i, j)
			}
		}
		for _, n := range e.sys.After {
			if j, ok := pos[s.byName[n]]; ok {
				add(j, i)
			}
		}
	}
	return succ
}

// sortPhase orders phase p: Kahn's algorithm, taking among the ready nodes
// the one registered first. It returns a *CycleError when some nodes never
// become ready.
func (s *Scheduler) sortPhase(p systems.Phase) ([]*entry, error) {
	nodes := s.phaseNodes(p)
	succ := s.edges(nodes)
	indeg := make([]int, len(nodes))
	for _, ss := range succ {
		for _, j := range ss {
			indeg[j]++
		}
	}
	done := make([]bool, len(nodes))
	order := make([]*entry, 0, len(nodes))
	for len(order) < len(nodes) {
		next := -1
		for i := range nodes { // nodes are in registration order
			if !done[i] && indeg[i] == 0 {
				next = i
				break
			}
		}
		if next < 0 {
			return nil, &CycleError{Phase: p, Cycle: findCycle(nodes, succ, done)}
		}
		done[next] = true
		order = append(order, nodes[next])
		for _, j := range succ[next] {
			indeg[j]--
		}
	}
	return order, nil
}

// findCycle returns a cycle among the nodes not done, every one of which
// has a predecessor not done: walk predecessors (the earliest registered
// first) from the earliest registered node until a node repeats.
func findCycle(nodes []*entry, succ [][]int, done []bool) []string {
	pred := make([][]int, len(nodes))
	for i, ss := range succ {
		for _, j := range ss {
			pred[j] = append(pred[j], i)
		}
	}
	start := 0
	for done[start] {
		start++
	}
	at := make(map[int]int) // node -> position in path
	var path []int
	for n := start; ; {
		if k, ok := at[n]; ok {
			path = path[k:]
			break
		}
		at[n] = len(path)
		path = append(path, n)
		best := -1
		for _, q := range pred[n] {
			if !done[q] && (best < 0 || q < best) {
				best = q
			}
		}
		n = best
	}
	// path follows predecessors: reverse it into running order, starting
	// at the member registered first.
	slices.Reverse(path)
	first := 0
	for i, n := range path {
		if n < path[first] {
			first = i
		}
	}
	out := make([]string, 0, len(path))
	for i := range path {
		out = append(out, nodes[path[(first+i)%len(path)]].sys.Name)
	}
	return out
}

// phaseConflicts appends the conflicts of every pair of phase p's systems
// (in sealed order) that no chain of constraints orders.
func (s *Scheduler) phaseConflicts(p systems.Phase, order []*entry, dst []Conflict) []Conflict {
	n := len(order)
	if n < 2 {
		return dst
	}
	succ := s.edges(order) // indexes are sealed positions
	words := (n + 63) / 64
	reach := make([]uint64, n*words) // reach[i]: nodes reachable from i
	for i := n - 1; i >= 0; i-- {    // successors come later in topological order
		ri := reach[i*words : (i+1)*words]
		for _, j := range succ[i] {
			ri[j/64] |= 1 << (j % 64)
			for w, v := range reach[j*words : (j+1)*words] {
				ri[w] |= v
			}
		}
	}
	ordered := func(i, j int) bool { return reach[i*words+j/64]>>(j%64)&1 == 1 }
	var overlaps []frame.Overlap
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if ordered(i, j) {
				continue
			}
			overlaps = frame.Conflicts(overlaps[:0], &order[i].man, &order[j].man)
			for _, o := range overlaps {
				dst = append(dst, Conflict{Phase: p, A: order[i].sys.Name, B: order[j].sys.Name, Overlap: Overlap(o)})
			}
		}
	}
	return dst
}

// build binds the run states of a sealed graph (command buffers in sealed
// order, serial ones first, then the per-worker sets; event readers,
// per-worker state) and makes the report. A bind's
// error (a parallel staging past the memory budget) fails Seal.
func (s *Scheduler) build(phases [systems.NumPhases][]*entry) error {
	s.env = &frame.Env{Pool: s.cfg.Pool, Playback: s.playback, Step: s.cfg.FixedStep}
	var names []string
	var ph []systems.Phase
	id := 0
	// Serial buffers first, so that their ids do not depend on the worker
	// count (frame.BindSerial).
	for p := range phases {
		for _, e := range phases[p] {
			if err := frame.BindSerial(e.run, s.env, s.cfg.CommandRecords); err != nil {
				return err
			}
		}
	}
	for p := range phases {
		for _, e := range phases[p] {
			if err := frame.Bind(e.run, s.env, s.cfg.CommandRecords); err != nil {
				return err
			}
			if p == int(systems.FixedUpdate) && s.cfg.Pacing != OneTickPerFrame {
				// Its creates resolve until the frame's end: up to
				// MaxTicksPerFrame playbacks of them between releases.
				if e.run.Serial != nil {
					e.run.Serial.SetPlays(s.cfg.MaxTicksPerFrame)
				}
				for _, b := range e.run.Workers {
					b.SetPlays(s.cfg.MaxTicksPerFrame)
				}
			}
			e.report = id
			e.syncs = s.indexSyncs(e)
			names = append(names, e.sys.Name)
			ph = append(ph, e.sys.Phase)
			id++
		}
	}
	// Event tables: registered ones, then those the manifests name, once each.
	add := func(b events.Buffer) {
		if !slices.Contains(s.events, b) {
			ops, _ := plumb.EventsOf(b) // every Buffer is an *events.Table[T]
			s.events, s.eventOps = append(s.events, b), append(s.eventOps, ops)
		}
	}
	for _, b := range s.extra { // AddEvents refused nil ones
		add(b)
	}
	for p := range phases {
		for _, e := range phases[p] {
			for _, b := range slices.Concat(e.man.Emits, e.man.Consumes) {
				add(b)
			}
		}
	}
	s.phases = phases
	s.report = newReport(names, ph, s.cfg.ReportWindow)
	for p := range phases {
		for _, e := range phases[p] {
			sr := &s.report.Systems[e.report]
			sr.Lane = e.sys.Lane
			sr.Counters = make([]CounterReport, len(e.run.Counters))
			for i, c := range e.run.Counters {
				sr.Counters[i].Name = c.Name
				e.run.Counters[i].Pending = 0 // nothing counts before the first frame (a host's Add panics: systems doc, Counters)
			}
		}
	}
	s.bindChanges()
	s.bufs = make([]*commands.Buffer, 0, 2*id+8)
	if debugChecks {
		s.debugSeal() // docs/architecture.md, Debug build
	}
	s.sealed = true
	return nil
}

// runHook calls fn(h) and returns its error, or a *HookPanicError when fn
// panics (Seal then fails like for a hook's error instead of unwinding
// through its caller's set-up).
func runHook(fn func(*Hook) error, h *Hook) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &HookPanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	return fn(h)
}
