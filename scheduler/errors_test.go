package scheduler_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// framePanic runs s.Frame(dt), which must panic with a *scheduler.PanicError,
// and returns it.
func framePanic(t *testing.T, s *scheduler.Scheduler, dt float64) *scheduler.PanicError {
	t.Helper()
	r := func() (r any) {
		defer func() { r = recover() }()
		_ = s.Frame(dt)
		return nil
	}()
	pe, ok := r.(*scheduler.PanicError)
	require.True(t, ok, "Frame panicked with %T %v, want a *scheduler.PanicError", r, r)
	return pe
}

// kernel runs fn as a Parallel kernel whose state is fn itself (tests only:
// a capturing fn allocates).
func kernel(ctx *systems.Context, chunks int, fn func(w, c int)) {
	systems.Parallel(ctx, chunks, fn, func(f *func(w, c int), w, c int) { (*f)(w, c) })
}

// nestedMsg is the message of a Parallel called from inside a kernel.
const nestedMsg = "systems: Parallel called from inside a kernel of Parallel; a kernel must not start a kernel: " +
	"split the work into two systems, or into two Parallel calls made one after the other from the system's body"

// TestSystemPanicNamesSystem: a panic in a system's Run, or in a kernel it
// ran, leaves Frame as a *scheduler.PanicError whose message is one line
// naming the system, its phase, the frame and the panic value (the stack
// is in Stack, or the kernel's), and which unwraps to the original value
// (through a kernel's *kernels.PanicError); the scheduler is poisoned
// afterwards.
func TestSystemPanicNamesSystem(t *testing.T) {
	errBad := errors.New("bad row")
	cases := []struct {
		name    string
		workers int // 0: no pool
		phase   systems.Phase
		run     func(ctx *systems.Context)
		want    string // Error(), one line
		check   func(t *testing.T, pe *scheduler.PanicError)
	}{
		{name: "string", phase: systems.Update,
			run:  func(*systems.Context) { panic("boom") },
			want: `tickwork: frame 2: Update system "sys" panicked: boom`,
			check: func(t *testing.T, pe *scheduler.PanicError) {
				assert.Equal(t, "boom", pe.Value)
				assert.Nil(t, errors.Unwrap(pe))
				assert.Contains(t, string(pe.Stack), "TestSystemPanicNamesSystem", "the stack where the system panicked")
			}},
		{name: "error", phase: systems.FixedUpdate,
			run:  func(*systems.Context) { panic(fmt.Errorf("step: %w", errBad)) },
			want: `tickwork: frame 2: FixedUpdate system "sys" panicked: step: bad row`,
			check: func(t *testing.T, pe *scheduler.PanicError) {
				assert.ErrorIs(t, pe, errBad)
				assert.NotEmpty(t, pe.Stack)
			}},
		{name: "kernel", workers: 2, phase: systems.LateUpdate,
			run: func(ctx *systems.Context) {
				kernel(ctx, 4, func(w, c int) {
					if c == 3 {
						panic(fmt.Errorf("chunk %d: %w", c, errBad))
					}
				})
			},
			want: `tickwork: frame 2: LateUpdate system "sys" panicked in a tickwork.Parallel kernel on worker 1, chunk 3: chunk 3: bad row`,
			check: func(t *testing.T, pe *scheduler.PanicError) {
				var kpe *kernels.PanicError
				require.ErrorAs(t, pe, &kpe)
				assert.Equal(t, 1, kpe.Worker)
				assert.Equal(t, 3, kpe.Chunk)
				assert.ErrorIs(t, pe, errBad, "through the kernel's panic to its error")
				assert.ErrorIs(t, pe, kernels.ErrKernelPanic)
				assert.Nil(t, pe.Stack, "the kernel's panic holds the stack")
				assert.Contains(t, string(kpe.Stack), "TestSystemPanicNamesSystem", "the kernel's stack is in its Stack")
			}},
		{name: "nested kernel", workers: 2, phase: systems.FrameEnd,
			run: func(ctx *systems.Context) {
				kernel(ctx, 4, func(w, c int) {
					if c == 2 {
						kernel(ctx, 1, func(int, int) {})
					}
				})
			},
			want: `tickwork: frame 2: FrameEnd system "sys" panicked in a tickwork.Parallel kernel on worker 1, chunk 2: ` + nestedMsg,
			check: func(t *testing.T, pe *scheduler.PanicError) {
				assert.ErrorIs(t, pe, systems.ErrNestedParallel)
				assert.ErrorIs(t, pe, kernels.ErrNestedRun)
				var kpe *kernels.PanicError
				require.ErrorAs(t, pe, &kpe)
				assert.Equal(t, systems.ErrNestedParallel, kpe.Value)
				assert.Empty(t, kpe.Others, "one nested call")
			}},
		{name: "nested kernel on every worker", workers: 4, phase: systems.Update,
			run: func(ctx *systems.Context) {
				kernel(ctx, 8, func(w, c int) { kernel(ctx, 1, func(int, int) {}) })
			},
			want: `tickwork: frame 2: Update system "sys" panicked in a tickwork.Parallel kernel on worker 0, chunk 0: ` + nestedMsg + " (and 3 more on other workers)",
			check: func(t *testing.T, pe *scheduler.PanicError) {
				var kpe *kernels.PanicError
				require.ErrorAs(t, pe, &kpe)
				require.Len(t, kpe.Others, 3, "each worker stops at its first nested call")
				for _, o := range append(kpe.Others, kpe) {
					assert.Equal(t, systems.ErrNestedParallel, o.Value, "worker %d", o.Worker)
				}
			}},
		{name: "nested kernel without pool", phase: systems.FrameStart,
			run: func(ctx *systems.Context) {
				kernel(ctx, 2, func(w, c int) { kernel(ctx, 1, func(int, int) {}) })
			},
			want: `tickwork: frame 2: FrameStart system "sys" panicked in a tickwork.Parallel kernel on worker 0, chunk 0: ` + nestedMsg,
			check: func(t *testing.T, pe *scheduler.PanicError) {
				assert.ErrorIs(t, pe, systems.ErrNestedParallel)
				assert.ErrorIs(t, pe, kernels.ErrNestedRun)
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := scheduler.Config{FixedStep: 0.01, Pacing: scheduler.OneTickPerFrame}
			if tc.workers > 0 {
				restore := chunkorder.Set(chunkorder.Dealt()) // worker w runs kernels' span's chunks: the worker named below
				pool, err := kernels.NewPool(tc.workers)
				restore()
				require.NoError(t, err)
				pool.SetPolicy(kernels.AllWorkers) // every worker takes part, however few the chunks
				t.Cleanup(func() { _ = pool.Close() })
				cfg.Pool = pool
			}
			frames := 0
			s := seal(t, cfg, body("sys", tc.phase, func(ctx *systems.Context) {
				if frames++; frames == 3 {
					tc.run(ctx)
				}
			}))
			require.NoError(t, s.Frame(0.01))
			require.NoError(t, s.Frame(0.01))
			pe := framePanic(t, s, 0.01)
			assert.Equal(t, "sys", pe.System)
			assert.Equal(t, tc.phase, pe.Phase)
			assert.Equal(t, uint64(2), pe.Frame)
			assert.ErrorIs(t, pe, scheduler.ErrSystemPanic)
			assert.NotErrorIs(t, pe, scheduler.ErrSystem, "a panic is not a returned error")
			assert.Equal(t, tc.want, pe.Error(), "one line: the stack is in Stack")
			tc.check(t, pe)
			assert.False(t, s.Running())
			assert.ErrorIs(t, s.Frame(0.01), scheduler.ErrPoisoned)
			assert.Equal(t, 3, frames, "nothing runs after the panic")
		})
	}
}

// TestPlaybackErrorNamesSystem: a command that playback cannot carry out
// comes back from Frame as a *scheduler.PlaybackError (the one type,
// commands.PlaybackError) naming the system that recorded it by its
// buffer's name, its phase and the frame, in one line, whether
// it was recorded serially (among other systems' buffers played together)
// or by a kernel's worker recorders; it unwraps to the
// *commands.PlaybackError and the capacity error, and the report holds the
// same error.
func TestPlaybackErrorNamesSystem(t *testing.T) {
	type setup struct {
		workers int
		systems func(tab *ephemeral.Table) []systems.System
		phase   systems.Phase
		buffer  int // id of the first failing record's buffer
		record  int // its index in that buffer
		failed  int // capacity errors
	}
	creates := func(rec *systems.Recorder, n int) {
		for range n {
			rec.Create()
		}
	}
	cases := map[string]setup{
		"serial": {
			// fill and spawn play back as one PlayAll after the tick: fill's
			// create and spawn's first fit, spawn's second does not.
			systems: func(tab *ephemeral.Table) []systems.System {
				return []systems.System{
					{Name: "fill", Phase: systems.FixedUpdate, Declare: func(s *systems.Decl) systems.RunFunc {
						rec := systems.Record(s, tab)
						return func(*systems.Context) { creates(rec, 1) }
					}},
					{Name: "spawn", Phase: systems.FixedUpdate, After: []string{"fill"}, Declare: func(s *systems.Decl) systems.RunFunc {
						rec := systems.Record(s, tab)
						return func(*systems.Context) { creates(rec, 2) }
					}},
				}
			},
			// Serial buffers come first, in sealed order (frame.BindSerial):
			// fill's is 0, spawn's 1; the per-worker ones follow.
			phase: systems.FixedUpdate, buffer: 1, record: 1, failed: 1,
		},
		"worker recorders": {
			// One create per chunk, 4 chunks on 2 workers, merged by chunk:
			// chunks 2 and 3 (worker 1's records) do not fit.
			workers: 2,
			systems: func(tab *ephemeral.Table) []systems.System {
				return []systems.System{{Name: "spawn", Phase: systems.Update, Declare: func(s *systems.Decl) systems.RunFunc {
					rec := systems.Record(s, tab)
					return func(ctx *systems.Context) {
						kernel(ctx, 4, func(w, c int) { rec.Worker(w, c).Create() })
					}
				}}}
			},
			// Buffer 0 is spawn's serial buffer; the worker buffers come
			// next, worker 1's is 2.
			phase: systems.Update, buffer: 2, record: 0, failed: 2,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 3})
			require.NoError(t, err)
			_, err = tab.Insert() // one row taken: room for two creates
			require.NoError(t, err)
			cfg := scheduler.Config{FixedStep: 0.01, Pacing: scheduler.OneTickPerFrame}
			if tc.workers > 0 {
				restore := chunkorder.Set(chunkorder.Dealt()) // worker w runs kernels' span's chunks: the worker named below
				pool, err := kernels.NewPool(tc.workers)
				restore()
				require.NoError(t, err)
				pool.SetPolicy(kernels.AllWorkers) // every worker takes part, however few the chunks
				t.Cleanup(func() { _ = pool.Close() })
				cfg.Pool = pool
			}
			s := seal(t, cfg, tc.systems(tab)...)
			err = s.Frame(0.01)
			var spe *scheduler.PlaybackError
			require.ErrorAs(t, err, &spe, "Frame = %v", err)
			assert.Equal(t, "spawn", spe.System)
			assert.Equal(t, tc.phase.String(), spe.Phase)
			assert.Equal(t, uint64(0), spe.Frame)
			var cpe *commands.PlaybackError
			require.ErrorAs(t, err, &cpe)
			assert.Same(t, cpe, spe, "one playback error type")
			assert.Equal(t, tc.buffer, cpe.Buffer)
			assert.Equal(t, tc.record, cpe.Record)
			assert.ErrorIs(t, err, scheduler.ErrPlayback)
			assert.ErrorIs(t, err, commands.ErrPlayback)
			assert.ErrorIs(t, err, ephemeral.ErrCapacity)
			assert.NotErrorIs(t, err, scheduler.ErrSystem)
			assert.Contains(t, cpe.Err.Error(), `table "T" is full`)
			assert.Equal(t, tc.record+1, cpe.Create, "only creates were recorded")
			assert.Equal(t, fmt.Sprintf(`tickwork: frame 0: %v system "spawn": create %d in table "T" (record %d of creates and sets): ephemeral: table "T" is full: capacity 3 rows, 3 live, 1 requested`,
				tc.phase, tc.record+1, tc.record), err.Error())
			assert.Same(t, spe, s.Report().Commands.Err, "the report holds the same error")
			assert.Equal(t, tc.failed, s.Report().Commands.CapacityErrors)
			assert.Equal(t, 3, tab.Len())
		})
	}
}
