package bench

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
	"github.com/tickwork/tickwork/bench/ark"
)

// Impl is one arena implementation that [BenchmarkArena] runs: its
// sub-benchmark name and its constructor.
type Impl struct {
	// Name is the sub-benchmark's name: "tickwork-w<workers>", "soa" or "ark".
	Name string
	// Workers is the Config.Workers the implementation runs with (1 for
	// soa and ark, which ignore it).
	Workers int
	// New builds the Sim; its error is the implementation's New's.
	New func(rules.Config) (rules.Sim, error)
}

// Impls returns the implementations compared, in table order: the
// runtime's arena (package arena) at 1 worker and, when workers > 1, at
// workers (the default count, GOMAXPROCS), the hand-written baseline
// (package arena/soa) and the arena on Ark (package bench/ark). Pure; the
// result is the caller's.
func Impls(workers int) []Impl {
	impls := []Impl{{Name: "tickwork-w1", Workers: 1, New: newRuntime}}
	if workers > 1 {
		impls = append(impls, Impl{Name: "tickwork-w" + strconv.Itoa(workers), Workers: workers, New: newRuntime})
	}
	return append(impls,
		Impl{Name: "soa", Workers: 1, New: newSoA},
		Impl{Name: "ark", Workers: 1, New: newArk},
	)
}

// newRuntime and newSoA are the runtime's and the baseline's constructors.
var newRuntime, newSoA = rules.Factory(arena.New), rules.Factory(soa.New)

func newArk(cfg rules.Config) (rules.Sim, error) {
	s, err := ark.New(cfg)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// FrameTimes records frame times, up to a capacity fixed at
// [NewFrameTimes], so that recording allocates nothing inside a measured
// loop. Not safe for concurrent use.
type FrameTimes struct {
	ns []int64
}

// NewFrameTimes returns an empty record that keeps the first capacity
// frame times (capacity >= 1; a smaller one is taken as 1).
func NewFrameTimes(capacity int) *FrameTimes {
	return &FrameTimes{ns: make([]int64, 0, max(capacity, 1))}
}

// Add records d; beyond the capacity it is dropped. Allocates nothing.
func (f *FrameTimes) Add(d time.Duration) {
	if len(f.ns) < cap(f.ns) {
		f.ns = append(f.ns, int64(d))
	}
}

// Len is the number of frame times recorded.
func (f *FrameTimes) Len() int { return len(f.ns) }

// Quantile returns the q-quantile (0 <= q <= 1, clamped) of the recorded
// times by the nearest-rank rule: the smallest recorded time that at least
// q of them do not exceed (q = 0.5: the p50; q = 0: the least). It returns
// 0 when nothing is recorded. It sorts the record in place.
func (f *FrameTimes) Quantile(q float64) time.Duration {
	n := len(f.ns)
	if n == 0 {
		return 0
	}
	slices.Sort(f.ns)
	q = min(max(q, 0), 1)
	k := int(math.Ceil(q*float64(n))) - 1
	return time.Duration(f.ns[min(max(k, 0), n-1)])
}
