package hud

import (
	"slices"
	"time"

	"github.com/tickwork/tickwork/arena/rules"
)

// FrameRing keeps the wall times of the last frames, a fixed number of them.
// It allocates only in [NewFrameRing].
type FrameRing struct {
	ns      []int64 // ring of frame times, nanoseconds
	n       int     // how many of ns hold a time
	next    int     // where the next time goes
	scratch []int64 // sorted copy for P50
}

// NewFrameRing returns an empty ring of the last size frames (at least 1).
func NewFrameRing(size int) *FrameRing {
	size = max(size, 1)
	return &FrameRing{ns: make([]int64, size), scratch: make([]int64, size)}
}

// Add records one frame's wall time, forgetting the oldest when full.
func (r *FrameRing) Add(d time.Duration) {
	r.ns[r.next] = int64(d)
	r.next = (r.next + 1) % len(r.ns)
	r.n = min(r.n+1, len(r.ns))
}

// Len is the number of frames in the window.
func (r *FrameRing) Len() int { return r.n }

// P50 is the median of the window: with the n times sorted ascending, the
// one at index n/2 (the upper median when n is even); 0 when empty.
func (r *FrameRing) P50() time.Duration {
	if r.n == 0 {
		return 0
	}
	s := r.scratch[:r.n]
	copy(s, r.ns[:r.n])
	slices.Sort(s)
	return time.Duration(s[r.n/2])
}

// TopSystems writes into top the up to len(top) entries of ts with the
// largest Nanos, largest first (the earlier entry first on a tie), and
// returns how many it wrote.
func TopSystems(ts []rules.SystemTime, top *[3]rules.SystemTime) int {
	n := 0
	for _, t := range ts {
		// Insertion into a sorted list of at most 3.
		i := n
		for i > 0 && top[i-1].Nanos < t.Nanos {
			i--
		}
		if i >= len(top) {
			continue
		}
		end := min(n, len(top)-1)
		copy(top[i+1:end+1], top[i:end])
		top[i] = t
		n = min(n+1, len(top))
	}
	return n
}
