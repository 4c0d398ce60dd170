package systems_test

import (
	"errors"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/systems"
)

func newContext(t *testing.T, m systems.Manifest) (*systems.Context, *commands.Playback) {
	t.Helper()
	pb := commands.NewPlayback(nil)
	env := systems.NewEnv(nil, pb, 0.25)
	env.SetFrame(3, 0.5)
	env.SetTick(7)
	ctx, err := systems.NewContext(&systems.System{Name: "sys", Phase: systems.Update, Manifest: m, Run: noop}, env, 16)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, pb
}

func TestContextClock(t *testing.T) {
	ctx, _ := newContext(t, systems.Manifest{})
	if ctx.Name() != "sys" || ctx.Phase() != systems.Update || ctx.DT() != 0.5 || ctx.FixedDT() != 0.25 ||
		ctx.Frame() != 3 || ctx.Tick() != 7 || ctx.Workers() != 1 || ctx.Pool() != nil {
		t.Fatalf("context = %s %v dt %v fixed %v frame %d tick %d workers %d",
			ctx.Name(), ctx.Phase(), ctx.DT(), ctx.FixedDT(), ctx.Frame(), ctx.Tick(), ctx.Workers())
	}
	n := 0
	ctx.RunKernel(5, func(w, c int) { n += c })
	if n != 10 {
		t.Fatalf("RunKernel without pool visited chunk sum %d, want 10", n)
	}
}

// TestContextAccess checks every acquisition against a manifest: what is
// declared is handed out, anything else is an *AccessError naming it.
func TestContextAccess(t *testing.T) {
	f := newFixture(t)
	ctx, _ := newContext(t, systems.Manifest{
		Reads:     []systems.ColumnRef{systems.Col(f.x)},
		Writes:    []systems.ColumnRef{systems.Col(f.health)},
		Deletes:   []*ephemeral.Table{f.shots},
		Emits:     []events.Buffer{f.noise},
		Consumes:  []events.Buffer{f.hits},
		Resources: []systems.Resource{{Name: "clock"}},
	})
	denied := func(name, access, what string, err error) {
		t.Helper()
		var ae *systems.AccessError
		if !errors.Is(err, systems.ErrNotDeclared) || !errors.As(err, &ae) {
			t.Errorf("%s: err = %v, want an *AccessError (ErrNotDeclared)", name, err)
			return
		}
		if ae.System != "sys" || ae.Access != access || ae.What != what {
			t.Errorf("%s: AccessError = %+v, want sys/%s/%s", name, *ae, access, what)
		}
	}
	allowed := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v, want nil", name, err)
		}
	}

	_, err := ctx.Lease(f.bodies)
	allowed("lease Body", err)
	_, err = ctx.Lease(f.units)
	allowed("lease Unit", err)
	_, err = ctx.Lease(f.shots)
	allowed("lease Shot (deletes)", err)
	other, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Other", Capacity: 64})
	_, err = ctx.Lease(other)
	denied("lease Other", systems.AccessLease, "Other", err)

	xs, err := systems.Read(ctx, f.x)
	allowed("read Body.x", err)
	if len(xs) != f.bodies.Cap() && len(xs) != f.bodies.Chunks()*f.bodies.ChunkRows() {
		t.Errorf("Read(x) has %d rows", len(xs))
	}
	_, err = systems.Read(ctx, f.health)
	allowed("read Unit.health (written)", err)
	_, err = systems.Write(ctx, f.health)
	allowed("write Unit.health", err)
	_, err = systems.Read(ctx, f.y)
	denied("read Body.y", systems.AccessRead, "Body.y", err)
	_, err = systems.Write(ctx, f.x)
	denied("write Body.x (read only)", systems.AccessWrite, "Body.x", err)

	_, err = ctx.Recorder(f.units)
	denied("recorder Unit (written column only)", systems.AccessRecorder, "Unit", err)
	_, err = ctx.Recorder(f.shots)
	allowed("recorder Shot (deletes)", err)
	_, err = ctx.Recorder(f.bodies)
	denied("recorder Body (read only)", systems.AccessRecorder, "Body", err)
	_, err = ctx.WorkerRecorders(f.bodies)
	denied("worker recorders Body", systems.AccessRecorder, "Body", err)

	_, err = systems.NewEmitter(ctx, f.noise)
	allowed("emit noise", err)
	_, err = systems.ParallelEmitter(ctx, f.noise)
	allowed("parallel emit noise", err)
	_, err = systems.NewEmitter(ctx, f.hits)
	denied("emit hits (consumed)", systems.AccessEmit, "hits", err)
	_, err = systems.ParallelEmitter(ctx, f.hits)
	denied("parallel emit hits", systems.AccessEmit, "hits", err)
	_, err = systems.Reader(ctx, f.hits)
	allowed("consume hits", err)
	_, err = systems.Reader(ctx, f.noise)
	denied("consume noise (emitted)", systems.AccessConsume, "noise", err)

	allowed("resource clock", ctx.Resource("clock", false))
	denied("resource clock write", systems.AccessResourceWrite, "clock", ctx.Resource("clock", true))
	denied("resource rng", systems.AccessResource, "rng", ctx.Resource("rng", false))
	ctx.EndRun()
}

// TestContextNoAlloc: acquisitions allocate nothing once a run has made them.
func TestContextNoAlloc(t *testing.T) {
	f := newFixture(t)
	ctx, pb := newContext(t, systems.Manifest{
		Reads:   []systems.ColumnRef{systems.Col(f.x)},
		Writes:  []systems.ColumnRef{systems.Col(f.ttl)},
		Creates: []*ephemeral.Table{f.shots},
		Emits:   []events.Buffer{f.noise},
	})
	run := func() {
		if _, err := ctx.Lease(f.bodies); err != nil {
			t.Fatal(err)
		}
		if _, err := systems.Read(ctx, f.x); err != nil {
			t.Fatal(err)
		}
		if _, err := systems.Write(ctx, f.ttl); err != nil {
			t.Fatal(err)
		}
		r, err := ctx.Recorder(f.shots)
		if err != nil {
			t.Fatal(err)
		}
		h := r.Create()
		commands.Set(r, f.ttl, h, 5)
		r.Delete(h)
		e, _ := systems.NewEmitter(ctx, f.noise)
		_ = e.Emit(1)
		p, _ := systems.ParallelEmitter(ctx, f.noise)
		p.Worker(0).Begin(0)
		_ = p.Worker(0).Emit(2)
		ctx.EndRun()
		pb.PlayAll([]*commands.Buffer{ctx.CommandBuffer()})
		f.noise.EndFrame()
	}
	run()
	if got := f.noise.Len(); got != 0 {
		t.Fatalf("noise after EndFrame = %d", got)
	}
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Fatalf("a run allocates %v times, want 0", n)
	}
}

func TestParallelEmitterMergedAtEndRun(t *testing.T) {
	f := newFixture(t)
	ctx, _ := newContext(t, systems.Manifest{Emits: []events.Buffer{f.noise}})
	p, err := systems.ParallelEmitter(ctx, f.noise)
	if err != nil {
		t.Fatal(err)
	}
	p.Worker(0).Begin(1)
	_ = p.Worker(0).Emit(11)
	p.Worker(0).Begin(0)
	_ = p.Worker(0).Emit(10)
	if f.noise.Len() != 0 {
		t.Fatal("events visible before EndRun")
	}
	ctx.EndRun()
	if got := f.noise.Read(); len(got) != 2 || got[0] != 10 || got[1] != 11 {
		t.Fatalf("after EndRun Read() = %v, want [10 11] (chunk order)", got)
	}
}

// TestRecorderNeedsStructuralDeclaration: a recorder creates and deletes
// rows, so only a table in Creates or Deletes gets one; declared writes of
// its columns do not suffice.
func TestRecorderNeedsStructuralDeclaration(t *testing.T) {
	f := newFixture(t)
	writer, _ := newContext(t, systems.Manifest{Writes: []systems.ColumnRef{systems.Col(f.ttl)}})
	_, err := writer.Recorder(f.shots)
	var ae *systems.AccessError
	require.ErrorAs(t, err, &ae)
	assert.ErrorIs(t, err, systems.ErrNotDeclared)
	assert.Equal(t, systems.AccessError{System: "sys", Access: systems.AccessRecorder, What: "Shot"}, *ae)
	assert.Equal(t, `systems: system "sys" may not take a recorder of table "Shot": not declared in its manifest`+
		` (a recorder needs the table in Creates or Deletes; write columns with systems.Write)`, err.Error())
	_, err = writer.WorkerRecorders(f.shots)
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, systems.AccessRecorder, ae.Access)
	assert.Nil(t, writer.CommandBuffer(), "a system that may not record gets no command buffer")
	ws, err := systems.Write(writer, f.ttl)
	require.NoError(t, err)
	assert.Len(t, ws, f.shots.Chunks()*f.shots.ChunkRows())

	for name, m := range map[string]systems.Manifest{
		"creates": {Creates: []*ephemeral.Table{f.shots}},
		"deletes": {Deletes: []*ephemeral.Table{f.shots}},
	} {
		ctx, _ := newContext(t, m)
		_, err := ctx.Recorder(f.shots)
		assert.NoError(t, err, name)
		_, err = ctx.WorkerRecorders(f.shots)
		assert.NoError(t, err, name)
		assert.NotNil(t, ctx.CommandBuffer(), name)
		_, err = ctx.Recorder(f.units)
		assert.ErrorIs(t, err, systems.ErrNotDeclared, name)
	}
}

// TestNilAcquisitions: a nil column, table or event table (what a failed
// declaration returns) gets an *AccessError with an empty What, not a
// panic.
func TestNilAcquisitions(t *testing.T) {
	f := newFixture(t)
	ctx, _ := newContext(t, systems.Manifest{
		Writes:   []systems.ColumnRef{systems.Col(f.x)},
		Creates:  []*ephemeral.Table{f.shots},
		Emits:    []events.Buffer{f.noise},
		Consumes: []events.Buffer{f.hits},
	})
	var col *ephemeral.Column[float32]
	var ev *events.Table[int]
	calls := []struct {
		access string
		call   func() error
		msg    string
	}{
		{systems.AccessRead, func() error { _, err := systems.Read(ctx, col); return err }, "read column <nil>: a nil column"},
		{systems.AccessWrite, func() error { _, err := systems.Write(ctx, col); return err }, "write column <nil>: a nil column"},
		{systems.AccessLease, func() error { _, err := ctx.Lease(nil); return err }, "take a lease of table <nil>: a nil table"},
		{systems.AccessRecorder, func() error { _, err := ctx.Recorder(nil); return err }, "take a recorder of table <nil>: a nil table"},
		{systems.AccessRecorder, func() error { _, err := ctx.WorkerRecorders(nil); return err }, "take a recorder of table <nil>: a nil table"},
		{systems.AccessEmit, func() error { _, err := systems.NewEmitter(ctx, ev); return err }, "emit into event table <nil>: a nil event table"},
		{systems.AccessEmit, func() error { _, err := systems.ParallelEmitter(ctx, ev); return err }, "emit into event table <nil>: a nil event table"},
		{systems.AccessConsume, func() error { _, err := systems.Reader(ctx, ev); return err }, "consume event table <nil>: a nil event table"},
	}
	for _, c := range calls {
		var err error
		require.NotPanics(t, func() { err = c.call() }, c.access)
		var ae *systems.AccessError
		require.ErrorAs(t, err, &ae, c.access)
		assert.ErrorIs(t, err, systems.ErrNotDeclared)
		assert.Equal(t, systems.AccessError{System: "sys", Access: c.access}, *ae)
		assert.Equal(t, `systems: system "sys" may not `+c.msg+` is never declared (check the error of the call that made it)`, err.Error())
	}
}

// TestAccessErrorMessages: each access kind reads as a sentence.
func TestAccessErrorMessages(t *testing.T) {
	for access, want := range map[string]string{
		systems.AccessLease:         `may not take a lease of table "Body": not declared in its manifest`,
		systems.AccessRead:          `may not read column "Body": not declared in its manifest`,
		systems.AccessWrite:         `may not write column "Body": not declared in its manifest`,
		systems.AccessRecorder:      `may not take a recorder of table "Body": not declared in its manifest (a recorder needs the table in Creates or Deletes; write columns with systems.Write)`,
		systems.AccessEmit:          `may not emit into event table "Body": not declared in its manifest`,
		systems.AccessConsume:       `may not consume event table "Body": not declared in its manifest`,
		systems.AccessResource:      `may not use resource "Body": not declared in its manifest`,
		systems.AccessResourceWrite: `may not write resource "Body": not declared in its manifest`,
	} {
		err := &systems.AccessError{System: "s", Access: access, What: "Body"}
		assert.Equal(t, `systems: system "s" `+want, err.Error(), access)
	}
}

// TestWorkerRecordersChunkPanicsOnBadWorker: a worker index outside
// 0..Workers()-1 is a kernel bug, reported with how to fix it.
func TestWorkerRecordersChunkPanicsOnBadWorker(t *testing.T) {
	f := newFixture(t)
	ctx, _ := newContext(t, systems.Manifest{Creates: []*ephemeral.Table{f.shots}})
	require.Equal(t, 1, ctx.Workers())
	wr, err := ctx.WorkerRecorders(f.shots)
	require.NoError(t, err)
	assert.NotPanics(t, func() { wr.Chunk(0, 0) })
	for _, w := range []int{5, 1, -1} {
		want := "systems: WorkerRecorders.Chunk(" + strconv.Itoa(w) + `, ...) of table "Shot": worker index out of range 0..0;` +
			" pass the worker index RunKernel gave the kernel (0..Context.Workers()-1)"
		assert.PanicsWithValue(t, want, func() { wr.Chunk(w, 0) }, "w=%d", w)
	}
	assert.PanicsWithValue(t,
		"systems: WorkerRecorders.Chunk on a zero WorkerRecorders: use the value Context.WorkerRecorders returned with a nil error",
		func() { systems.WorkerRecorders{}.Chunk(0, 0) })
	ctx.EndRun()
}

// TestRunKernelNestedPanics: RunKernel from inside a kernel panics with
// kernels.ErrNestedRun, with or without a pool, and reaches the system as
// the outer kernel's *kernels.PanicError; RunKernel works afterwards and
// allocates nothing.
func TestRunKernelNestedPanics(t *testing.T) {
	for _, workers := range []int{0, 1, 3} { // 0: no pool
		t.Run("workers="+strconv.Itoa(workers), func(t *testing.T) {
			var pool *kernels.Pool
			if workers > 0 {
				var err error
				pool, err = kernels.NewPool(workers)
				require.NoError(t, err)
				defer pool.Close()
			}
			env := systems.NewEnv(pool, nil, 0.25)
			ctx, err := systems.NewContext(&systems.System{Name: "sys", Phase: systems.Update, Run: noop}, env, 16)
			require.NoError(t, err)
			inner := 0
			r := func() (r any) {
				defer func() { r = recover() }()
				ctx.RunKernel(3, func(w, c int) {
					if c == 1 {
						ctx.RunKernel(2, func(int, int) { inner++ })
					}
				})
				return nil
			}()
			var pe *kernels.PanicError
			require.IsType(t, pe, r, "RunKernel panicked with %v", r)
			pe = r.(*kernels.PanicError)
			assert.Equal(t, 1, pe.Chunk)
			assert.Equal(t, kernels.ErrNestedRun, pe.Value)
			assert.ErrorIs(t, pe, kernels.ErrNestedRun)
			assert.Zero(t, inner, "the nested kernel did not run")
			var visits [5]atomic.Int32
			fn := func(w, c int) { visits[c].Add(1) }
			assert.Zero(t, testing.AllocsPerRun(50, func() { ctx.RunKernel(5, fn) }), "RunKernel works again, allocating nothing")
			for c := range visits {
				assert.Equal(t, int32(51), visits[c].Load(), "chunk %d", c)
			}
		})
	}
}

// TestReaderPassesAtEndRun: Reader returns the same events throughout a
// run and passes them when the run ends; a run that does not call Reader
// leaves them for a later run. A FixedUpdate system's reader reads at the
// tick boundary (events.PerTick), any other at the frame boundary.
func TestReaderPassesAtEndRun(t *testing.T) {
	f := newFixture(t)
	env := systems.NewEnv(nil, nil, 0.25)
	mk := func(name string, p systems.Phase) *systems.Context {
		ctx, err := systems.NewContext(&systems.System{Name: name, Phase: p, Run: noop,
			Manifest: systems.Manifest{Consumes: []events.Buffer{f.hits}}}, env, 16)
		require.NoError(t, err)
		return ctx
	}
	update, fixed := mk("update", systems.Update), mk("fixed", systems.FixedUpdate)
	read := func(ctx *systems.Context) []ephemeral.Handle {
		evs, err := systems.Reader(ctx, f.hits)
		require.NoError(t, err)
		return append([]ephemeral.Handle(nil), evs...)
	}
	h := func(i uint32) ephemeral.Handle { return ephemeral.Handle(i) }
	require.NoError(t, f.hits.Emit(h(1)))
	f.hits.BeginTick()
	require.NoError(t, f.hits.Emit(h(2)))
	assert.Equal(t, []ephemeral.Handle{h(1)}, read(fixed), "PerTick: emitted before the tick began")
	assert.Empty(t, read(update), "PerFrame: nothing before the frame ends")
	fixed.EndRun()
	update.EndRun()
	f.hits.EndFrame()
	f.hits.BeginFrame()
	assert.Equal(t, []ephemeral.Handle{h(1), h(2)}, read(update))
	assert.Equal(t, []ephemeral.Handle{h(1), h(2)}, read(update), "same events within a run")
	update.EndRun()
	assert.Empty(t, read(update), "passed at the end of the run")
	update.EndRun()
	fixed.EndRun() // a run that did not call Reader: event 2 waits
	f.hits.BeginTick()
	assert.Equal(t, []ephemeral.Handle{h(2)}, read(fixed))
	fixed.EndRun()
	assert.Zero(t, f.hits.Held(), "every reader passed every event")
}
