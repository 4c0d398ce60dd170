package runtime

import (
	"strconv"

	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/scheduler"
)

// config collects the options.
type config struct {
	workers int
	policy  *kernels.Policy // WithKernelPolicy; nil: the pool's default
	budget  int64           // bytes, WithMemoryBudget
	sched   scheduler.Config
	host    []byte // WithHostConfig, a copy
	allow   int    // WithStateAllowance, bytes
	noIndex bool   // WithoutIndexes
}

// Option configures a Builder. A bad value, or a nil Option, is the
// Builder's error, an *OptionError (errors.Is ErrOption).
type Option func(*config) error

// WithWorkers sets the number of kernel workers, the frame loop's goroutine
// included, 1..kernels.MaxWorkers. The default is GOMAXPROCS when the
// Builder is made (capped at kernels.MaxWorkers); WithWorkers(1) runs every
// kernel inline and the world starts no goroutine. A world with n workers
// starts n-1 goroutines at Build and stops them at Close; each kernel run
// uses as many of them as its work pays for (WithKernelPolicy). Results do
// not depend on n (see package kernels).
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 || n > kernels.MaxWorkers {
			return &OptionError{Option: "WithWorkers", Value: itoa(n), Reason: "want 1.." + itoa(kernels.MaxWorkers) + " workers"}
		}
		c.workers = n
		return nil
	}
}

// WithKernelPolicy sets the worker policy of the world's pool: how many
// workers a kernel run uses, from its chunk count (kernels.Policy; the
// default is the zero kernels.Policy, see package kernels, "Worker
// policy"). A system overrides it for one run with
// systems.ParallelPolicy. Any Policy is valid (zero fields take
// their defaults).
func WithKernelPolicy(pol kernels.Policy) Option {
	return func(c *config) error {
		c.policy = &pol
		return nil
	}
}

// WithPacing chooses Accumulate (the default) or OneTickPerFrame.
func WithPacing(p scheduler.Pacing) Option {
	return func(c *config) error {
		if p != scheduler.Accumulate && p != scheduler.OneTickPerFrame {
			return &OptionError{Option: "WithPacing", Value: p.String(), Reason: "want Accumulate or OneTickPerFrame"}
		}
		c.sched.Pacing = p
		return nil
	}
}

// WithFixedStep sets the fixed step in seconds, in
// [scheduler.MinFixedStep, scheduler.MaxFixedStep] (default 1/60 s).
func WithFixedStep(seconds float64) Option {
	return func(c *config) error {
		if !(seconds >= scheduler.MinFixedStep && seconds <= scheduler.MaxFixedStep) {
			return &OptionError{Option: "WithFixedStep", Value: strconv.FormatFloat(seconds, 'g', -1, 64),
				Reason: "want seconds in [1e-06, 60]"}
		}
		c.sched.FixedStep = seconds
		return nil
	}
}

// WithMaxTicksPerFrame caps the fixed ticks of one frame in Accumulate
// pacing, 1..scheduler.MaxTicksPerFrameLimit (default 8); time beyond the
// cap is dropped and reported.
func WithMaxTicksPerFrame(n int) Option {
	return func(c *config) error {
		if n < 1 || n > scheduler.MaxTicksPerFrameLimit {
			return &OptionError{Option: "WithMaxTicksPerFrame", Value: itoa(n), Reason: "want 1..65536 ticks"}
		}
		c.sched.MaxTicksPerFrame = n
		return nil
	}
}

// WithReportWindow sets how many runs of each system the report's rolling
// p50/p99/mean cover, 1..scheduler.MaxReportWindow (default 128: 128
// frames for a system that runs once a frame).
func WithReportWindow(runs int) Option {
	return func(c *config) error {
		if runs < 1 || runs > scheduler.MaxReportWindow {
			return &OptionError{Option: "WithReportWindow", Value: itoa(runs), Reason: "want 1..65536 runs"}
		}
		c.sched.ReportWindow = runs
		return nil
	}
}

// WithExactAllocs makes the frame report's AllocBytes and AllocObjects
// exact when on (scheduler.Config.ExactAllocs: two runtime.ReadMemStats, so
// two stops of the world, a frame); off, the default, they come from
// runtime/metrics, as scheduler.FrameReport.AllocBytes describes.
func WithExactAllocs(on bool) Option {
	return func(c *config) error {
		c.sched.ExactAllocs = on
		return nil
	}
}

// WithoutIndexes builds the world without keeping its declared indexes:
// AddIndex takes each one's name and keeps nothing of it (docs/architecture.md,
// Indexes, "Without indexes").
func WithoutIndexes() Option {
	return func(c *config) error {
		c.noIndex = true
		return nil
	}
}

// WithCommandRecords sets the initial capacity of each command buffer in
// records, 1..scheduler.MaxCommandRecords (default scheduler.DefaultCommandRecords,
// 1024); buffers grow past it while warming up. A record takes 24 bytes
// (commands.BufferBytes), charged to the world's memory budget and
// allocated at Build for each command buffer: a system that records
// (systems.Record) has one, and one per kernel worker (a set that does not
// fit fails Build; see the memory budget in docs/architecture.md).
func WithCommandRecords(n int) Option {
	return func(c *config) error {
		if n < 1 || n > scheduler.MaxCommandRecords {
			return &OptionError{Option: "WithCommandRecords", Value: itoa(n), Reason: "want 1..MaxCommandRecords (16777216) records"}
		}
		c.sched.CommandRecords = n
		return nil
	}
}

// WithMemoryBudget sets the world's memory budget in bytes,
// 1..math.MaxInt64 (default memory.DefaultBudget, 8 GiB). Every domain,
// table, column and event table declared on the Builder, every command
// buffer's initial records (WithCommandRecords) and every per-worker event
// staging a system makes (systems.EmitParallel), is charged to it before
// it allocates; the first that does not fit in what
// is left fails with a *memory.BudgetError (errors.Is ErrMemoryBudget)
// naming it, the bytes it asks for and the budget, and allocates nothing.
// What counts is stated in docs/architecture.md (memory budget); the budget
// bounds the world's storage, not the host's other memory.
func WithMemoryBudget(bytes int64) Option {
	return func(c *config) error {
		if bytes < 1 {
			return &OptionError{Option: "WithMemoryBudget", Value: strconv.FormatInt(bytes, 10), Reason: "want 1..9223372036854775807 bytes"}
		}
		c.budget = bytes
		return nil
	}
}

// DefaultMemoryBudget is the budget of a world without WithMemoryBudget,
// in bytes: memory.DefaultBudget (8 GiB).
const DefaultMemoryBudget = memory.DefaultBudget

// MaxHostConfig is the longest host configuration WithHostConfig takes, in
// bytes: 64 KiB.
const MaxHostConfig = 64 << 10

// WithHostConfig gives the world the host's own configuration, bytes the
// host chooses (the parameters that change the simulation but are not
// declarations: a rules version, a tuning value), at most MaxHostConfig
// (an *OptionError past it). Every snapshot carries them in its host
// section, covered by the checksum, and Restore refuses a snapshot whose
// host section is not these bytes, byte for byte (ErrHostConfig, a
// *HostConfigError holding both, for the host to say which parameter
// differs). They are not in the fingerprint. The bytes are copied; the
// default is none (an empty section). docs/state.md, "Host
// configuration".
func WithHostConfig(b []byte) Option {
	return func(c *config) error {
		if len(b) > MaxHostConfig {
			return &OptionError{Option: "WithHostConfig", Value: itoa(len(b)) + " bytes", Reason: "want at most MaxHostConfig (65536) bytes"}
		}
		c.host = append([]byte(nil), b...)
		return nil
	}
}

// DefaultStateAllowance is the state allowance of a world without
// WithStateAllowance, in bytes: 16 MiB.
const DefaultStateAllowance = 16 << 20

// MaxStateAllowance is the largest WithStateAllowance, in bytes: 1 TiB.
const MaxStateAllowance = 1 << 40

// WithStateAllowance sets, in bytes (0..MaxStateAllowance, default
// DefaultStateAllowance, 16 MiB), how much a snapshot may hold beyond the
// parts' declared sizes, summed over the parts without a declared bound:
// the pending resolutions of provisional handles (and the command
// buffers' entries, 24 bytes each), slice resources without declared
// lengths (AddSliceResource declares them) and codec resources. Snapshot
// refuses a state past it (ErrUnsupported) and Restore a snapshot past it
// (ErrCorrupt), naming the section (docs/state.md, "Sizes").
func WithStateAllowance(bytes int) Option {
	return func(c *config) error {
		if bytes < 0 || bytes > MaxStateAllowance {
			return &OptionError{Option: "WithStateAllowance", Value: itoa(bytes), Reason: "want 0..MaxStateAllowance (1099511627776) bytes"}
		}
		c.allow = bytes
		return nil
	}
}
