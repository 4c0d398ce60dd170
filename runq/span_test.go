package runq

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDivRemConst32MatchesGo checks the span lane's division and
// remainder by an int32 constant against Go's operators, at the edges
// (0, ±1, the extremes, multiples of d and their neighbours) and at random.
func TestDivRemConst32MatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	divisors := []int32{1, -1, 2, -2, 3, -3, 7, 8, -8, 10, -10, 1000, 1 << 30, -(1 << 30), math.MaxInt32, math.MinInt32, math.MaxInt32 - 1, 46341}
	for range 40 {
		d := int32(rng.Uint32())
		if d != 0 {
			divisors = append(divisors, d, d>>16|1)
		}
	}
	for _, d := range divisors {
		ns := []int32{0, 1, -1, 2, -2, math.MaxInt32, math.MinInt32, math.MaxInt32 - 1, math.MinInt32 + 1}
		for k := int64(-3); k <= 3; k++ {
			for _, m := range []int64{k * int64(d), math.MaxInt32 / int64(d) * int64(d), math.MinInt32 / int64(d) * int64(d)} {
				for delta := int64(-1); delta <= 1; delta++ {
					if v := m + delta; v >= math.MinInt32 && v <= math.MaxInt32 {
						ns = append(ns, int32(v))
					}
				}
			}
		}
		for range 2000 {
			ns = append(ns, int32(rng.Uint32()))
		}
		quo, rem := append([]int32(nil), ns...), append([]int32(nil), ns...)
		divRemConst32(quo, d, false)
		divRemConst32(rem, d, true)
		for j, n := range ns {
			if quo[j] != n/d || rem[j] != n%d {
				t.Fatalf("%d / %d, %% %d: got %d, %d, want %d, %d", n, d, d, quo[j], rem[j], n/d, n%d)
			}
		}
	}
}
