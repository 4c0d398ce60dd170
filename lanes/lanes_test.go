package lanes_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/lanes"
)

var allLanes = []lanes.Lane{lanes.Scalar, lanes.AVX2, lanes.AVX512}

// forLanes runs f as one subtest per lane, skipping the lanes this build or
// CPU cannot run (say so in -v output rather than passing silently).
func forLanes(t *testing.T, f func(t *testing.T, l lanes.Lane)) {
	for _, l := range allLanes {
		t.Run(l.String(), func(t *testing.T) {
			if !lanes.Available(l) {
				t.Skipf("lane %s not available in this build or on this CPU", l)
			}
			f(t, l)
		})
	}
}

func TestLaneNamesAndSelection(t *testing.T) {
	for _, l := range allLanes {
		got, err := lanes.Parse(l.String())
		require.NoError(t, err)
		assert.Equal(t, l, got)
	}
	_, err := lanes.Parse("neon")
	assert.ErrorIs(t, err, lanes.ErrUnknownLane)
	assert.Contains(t, err.Error(), `"neon"`)
	assert.Equal(t, "Lane(9)", lanes.Lane(9).String())

	assert.True(t, lanes.Available(lanes.Scalar))
	assert.False(t, lanes.Available(lanes.Lane(9)))
	best := lanes.Best()
	assert.True(t, lanes.Available(best))
	for _, l := range allLanes {
		if l > best {
			assert.False(t, lanes.Available(l), "Best %s is not the widest: %s is available", best, l)
		}
		got, err := lanes.Select(l)
		if lanes.Available(l) {
			require.NoError(t, err)
			assert.Equal(t, l, got)
		} else {
			assert.ErrorIs(t, err, lanes.ErrUnavailable)
			assert.Equal(t, lanes.Scalar, got)
		}
	}
	_, err = lanes.Select(lanes.Lane(9))
	assert.ErrorIs(t, err, lanes.ErrUnknownLane)
}

// ---- the model ----
//
// The model computes each operation in float64 and rounds it to float32
// explicitly. A product of two float32s is exact in float64, and rounding a
// float64 sum or difference of two float32s to float32 gives the correctly
// rounded float32 result (53 >= 2*24+2: double rounding is innocuous for
// + - * /). So the model is "round after every operation" by construction,
// whatever the compiler fuses, and independent of the kernels' code.

func neg(f float32) float32 { return math.Float32frombits(math.Float32bits(f) ^ 1<<31) }

func mul(a, b float32) float32 { return float32(float64(a) * float64(b)) }
func add(a, b float32) float32 { return float32(float64(a) + float64(b)) }
func sub(a, b float32) float32 { return float32(float64(a) - float64(b)) }

// modelAxis is one axis of MoveBounce, from its doc.
func modelAxis(p, v, dt, w float32) (float32, float32) {
	q := add(p, mul(v, dt))
	switch {
	case q < 0:
		return neg(q), neg(v)
	case q > w:
		return sub(mul(2, w), q), neg(v)
	}
	return q, v
}

// ---- inputs ----

// special are values at and around the edges of the rules: signed zeros,
// the walls, their neighbours, subnormals, the extremes, infinities, NaN.
func special(w float32) []float32 {
	return []float32{
		0, neg(0), 1, -1, w, -w, 2 * w, -2 * w, w / 2,
		math.Nextafter32(0, 1), math.Nextafter32(0, -1), math.Nextafter32(w, 0), math.Nextafter32(w, 2*w),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 1e-40, -1e-40,
		math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
	}
}

// value draws one input: mostly in-range positions or velocities, often a
// special value, sometimes any bit pattern at all.
func value(r *rand.Rand, w, scale float32) float32 {
	switch r.IntN(8) {
	case 0:
		s := special(w)
		return s[r.IntN(len(s))]
	case 1:
		return math.Float32frombits(r.Uint32())
	default:
		return (r.Float32()*1.5 - 0.25) * scale
	}
}

// steps are (dt, w) pairs: the arena's (exact products, 1/64 and 2048),
// then steps whose products round, where an FMA would change the result.
var steps = []struct{ dt, w float32 }{
	{1.0 / 64, 2048}, {0.1, 2048}, {1.0 / 3, 100.5}, {0.7316, 1}, {1e-3, 3e7}, {-0.25, 10},
	// a negative w: meaningless to the rules, but it makes both walls hit
	// at once, where the scalar if / else if lets the 0 wall win
	{0.5, -10},
}

type axisCase struct {
	x, y, vx, vy []float32
}

func newCase(r *rand.Rand, n int, w float32) axisCase {
	c := axisCase{make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)}
	for i := range n {
		c.x[i], c.y[i] = value(r, w, w), value(r, w, w)
		// velocities large enough to cross a wall in one step
		c.vx[i], c.vy[i] = value(r, w, 64*w)-32*w, value(r, w, 64*w)-32*w
	}
	return c
}

func (c axisCase) clone() axisCase {
	return axisCase{append([]float32(nil), c.x...), append([]float32(nil), c.y...),
		append([]float32(nil), c.vx...), append([]float32(nil), c.vy...)}
}

// sameBits reports the first index where a and b differ in their bits, or -1.
func sameBits(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// sizes cover empty, below one vector, around 8 and 16, and long runs with
// tails of every length.
var sizes = []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 47, 63, 64, 65, 1000, 1024, 1031}

func TestMoveBounceMatchesModel(t *testing.T) {
	forLanes(t, func(t *testing.T, l lanes.Lane) {
		r := rand.New(rand.NewPCG(13, uint64(l)))
		for _, st := range steps {
			for _, n := range sizes {
				in := newCase(r, n, st.w)
				got := in.clone()
				lanes.MoveBounce(l, got.x, got.y, got.vx, got.vy, st.dt, st.w)
				for i := range n {
					wx, wvx := modelAxis(in.x[i], in.vx[i], st.dt, st.w)
					wy, wvy := modelAxis(in.y[i], in.vy[i], st.dt, st.w)
					for _, f := range []struct {
						name      string
						got, want float32
					}{{"x", got.x[i], wx}, {"vx", got.vx[i], wvx}, {"y", got.y[i], wy}, {"vy", got.vy[i], wvy}} {
						if !sameModel(f.got, f.want) {
							t.Fatalf("dt %v w %v n %d: %s[%d] = %v (%#08x), model %v (%#08x); in x %v vx %v y %v vy %v",
								st.dt, st.w, n, f.name, i, f.got, math.Float32bits(f.got), f.want, math.Float32bits(f.want),
								in.x[i], in.vx[i], in.y[i], in.vy[i])
						}
					}
				}
			}
		}
	})
}

// sameModel compares a kernel's result with the model's: the same bits, or
// both NaN. The model's NaN payloads come from float64 arithmetic, which
// need not propagate the payload the float32 instructions do; lane against
// lane is compared bit for bit, NaNs included (TestLanesMatchScalar).
func sameModel(got, want float32) bool {
	if want != want {
		return got != got
	}
	return math.Float32bits(got) == math.Float32bits(want)
}

func TestLanesMatchScalar(t *testing.T) {
	forLanes(t, func(t *testing.T, l lanes.Lane) {
		r := rand.New(rand.NewPCG(17, uint64(l)))
		for _, st := range steps {
			for _, n := range sizes {
				in := newCase(r, n, st.w)
				want, got := in.clone(), in.clone()
				lanes.MoveBounce(lanes.Scalar, want.x, want.y, want.vx, want.vy, st.dt, st.w)
				lanes.MoveBounce(l, got.x, got.y, got.vx, got.vy, st.dt, st.w)
				for _, f := range []struct {
					name      string
					got, want []float32
				}{{"x", got.x, want.x}, {"vx", got.vx, want.vx}, {"y", got.y, want.y}, {"vy", got.vy, want.vy}} {
					if i := sameBits(f.got, f.want); i >= 0 {
						t.Fatalf("MoveBounce dt %v w %v n %d: %s[%d] = %#08x, scalar %#08x", st.dt, st.w, n, f.name, i,
							math.Float32bits(f.got[i]), math.Float32bits(f.want[i]))
					}
				}

				ttl := make([]int32, n)
				for i := range ttl {
					ttl[i] = int32(r.Uint32())
				}
				if n > 0 {
					ttl[0] = math.MinInt32
				}
				wantTTL, gotTTL := append([]int32(nil), ttl...), append([]int32(nil), ttl...)
				want, got = in.clone(), in.clone()
				lanes.Advance(lanes.Scalar, want.x, want.y, want.vx, want.vy, wantTTL, st.dt)
				lanes.Advance(l, got.x, got.y, got.vx, got.vy, gotTTL, st.dt)
				assert.Equal(t, wantTTL, gotTTL, "Advance ttl, n %d", n)
				for _, f := range []struct {
					name      string
					got, want []float32
				}{{"x", got.x, want.x}, {"y", got.y, want.y}, {"vx", got.vx, in.vx}, {"vy", got.vy, in.vy}} {
					if i := sameBits(f.got, f.want); i >= 0 {
						t.Fatalf("Advance dt %v n %d: %s[%d] = %#08x, scalar %#08x", st.dt, n, f.name, i,
							math.Float32bits(f.got[i]), math.Float32bits(f.want[i]))
					}
				}
			}
		}
	})
}

func TestAdvanceMatchesModel(t *testing.T) {
	forLanes(t, func(t *testing.T, l lanes.Lane) {
		r := rand.New(rand.NewPCG(19, uint64(l)))
		for _, st := range steps {
			for _, n := range sizes {
				in := newCase(r, n, st.w)
				got := in.clone()
				ttl := make([]int32, n)
				for i := range ttl {
					ttl[i] = int32(i) - 3
				}
				if n > 0 {
					ttl[n-1] = math.MinInt32
				}
				lanes.Advance(l, got.x, got.y, got.vx, got.vy, ttl, st.dt)
				for i := range n {
					require.Truef(t, sameModel(got.x[i], add(in.x[i], mul(in.vx[i], st.dt))), "dt %v n %d: x[%d]", st.dt, n, i)
					require.Truef(t, sameModel(got.y[i], add(in.y[i], mul(in.vy[i], st.dt))), "dt %v n %d: y[%d]", st.dt, n, i)
					want := int32(i) - 4
					if i == n-1 {
						want = math.MaxInt32 // wraps
					}
					require.Equalf(t, want, ttl[i], "n %d: ttl[%d]", n, i)
				}
			}
		}
	})
}

// TestTheEdges pins single cases of the bounce whose bits a wrong blend or
// a wrong negation would change: the walls themselves do not bounce, -0
// stays -0, a zero velocity turns into -0 when its point bounces, NaN and
// infinities follow the comparisons.
func TestTheEdges(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	cases := []struct {
		name          string
		p, v          float32
		wantP, wantV  float32
		wantNaNResult bool
	}{
		{"at 0, no bounce", 1, -64, 0, -64, false},
		{"at w, no bounce", 2047, 64, 2048, 64, false},
		{"-0 stays -0", neg(0), neg(0), neg(0), neg(0), false},
		{"below 0 with v = +0", -1, 0, 1, neg(0), false},
		{"below 0 with v = -0", -1, neg(0), 1, 0, false},
		{"above w with v = +0", 2049, 0, 2047, neg(0), false},
		{"just below 0", 0, -1, 1.0 / 64, 1, false},
		{"just above w", 2048, 1, 2048 - 1.0/64, -1, false},
		{"+inf", inf, 0, -inf, neg(0), false},
		{"-inf", -inf, 0, inf, neg(0), false},
		{"NaN position", nan, 1, nan, 1, true},
		{"NaN velocity", 5, nan, nan, nan, true},
	}
	forLanes(t, func(t *testing.T, l lanes.Lane) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				// Fill a whole vector (and a tail) with the case, so every
				// element of every SIMD register and the scalar tail see it.
				const n = 16 + 16 + 5
				x, y, vx, vy := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
				for i := range n {
					x[i], vx[i], y[i], vy[i] = tc.p, tc.v, tc.p, tc.v
				}
				lanes.MoveBounce(l, x, y, vx, vy, 1.0/64, 2048)
				for i := range n {
					for _, got := range [][2]float32{{x[i], vx[i]}, {y[i], vy[i]}} {
						if tc.wantNaNResult {
							assert.True(t, got[0] != got[0], "p[%d] = %v, want NaN", i, got[0])
						} else {
							assert.Equal(t, math.Float32bits(tc.wantP), math.Float32bits(got[0]), "p[%d] = %v, want %v", i, got[0], tc.wantP)
						}
						if tc.wantV == tc.wantV {
							assert.Equal(t, math.Float32bits(tc.wantV), math.Float32bits(got[1]), "v[%d] = %v, want %v", i, got[1], tc.wantV)
						}
					}
				}
			})
		}
	})
}

// TestWritesStayInside checks that no lane writes past len(x), into
// memory the caller's slices can reach (their capacity).
func TestWritesStayInside(t *testing.T) {
	forLanes(t, func(t *testing.T, l lanes.Lane) {
		sentinel := math.Float32frombits(0x7fc0beef)
		for _, n := range sizes {
			bufs := make([][]float32, 4)
			for i := range bufs {
				bufs[i] = make([]float32, n+32)
				for j := range bufs[i] {
					bufs[i][j] = sentinel
				}
				for j := range n {
					bufs[i][j] = float32(j)
				}
			}
			ttl := make([]int32, n+32)
			for j := range ttl {
				ttl[j] = 7
			}
			x, y, vx, vy := bufs[0][:n], bufs[1][:n], bufs[2][:n], bufs[3][:n]
			lanes.MoveBounce(l, x, y, vx, vy, 0.5, 100)
			lanes.Advance(l, x, y, vx, vy, ttl[:n], 0.5)
			for i, buf := range bufs {
				for j := n; j < len(buf); j++ {
					require.Equalf(t, math.Float32bits(sentinel), math.Float32bits(buf[j]), "n %d: slice %d written at %d", n, i, j)
				}
			}
			for j := n; j < len(ttl); j++ {
				require.Equalf(t, int32(7), ttl[j], "n %d: ttl written at %d", n, j)
			}
		}
	})
}

func TestShortSlicesPanic(t *testing.T) {
	forLanes(t, func(t *testing.T, l lanes.Lane) {
		long, short := make([]float32, 9), make([]float32, 8)
		assert.Panics(t, func() { lanes.MoveBounce(l, long, long, long, short, 1, 1) })
		assert.Panics(t, func() { lanes.Advance(l, long, long, long, long, make([]int32, 8), 1) })
	})
}

func TestKernelsAllocateNothing(t *testing.T) {
	forLanes(t, func(t *testing.T, l lanes.Lane) {
		c := newCase(rand.New(rand.NewPCG(1, 1)), 1031, 2048)
		ttl := make([]int32, 1031)
		allocs := testing.AllocsPerRun(100, func() {
			lanes.MoveBounce(l, c.x, c.y, c.vx, c.vy, 1.0/64, 2048)
			lanes.Advance(l, c.x, c.y, c.vx, c.vy, ttl, 1.0/64)
		})
		assert.Zero(t, allocs)
	})
}

// FuzzMoveBounce compares the best lane with the scalar oracle on inputs
// built from the fuzzer's bytes (four floats per point).
func FuzzMoveBounce(f *testing.F) {
	f.Add([]byte{0, 0, 0x80, 0x3f, 0, 0, 0x80, 0xbf}, float32(1.0/64), float32(2048))
	f.Add(make([]byte, 16*37), float32(0.1), float32(1))
	f.Fuzz(func(t *testing.T, data []byte, dt, w float32) {
		n := len(data) / 16
		in := axisCase{make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)}
		for i := range n {
			b := data[16*i:]
			in.x[i] = math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
			in.y[i] = math.Float32frombits(uint32(b[4]) | uint32(b[5])<<8 | uint32(b[6])<<16 | uint32(b[7])<<24)
			in.vx[i] = math.Float32frombits(uint32(b[8]) | uint32(b[9])<<8 | uint32(b[10])<<16 | uint32(b[11])<<24)
			in.vy[i] = math.Float32frombits(uint32(b[12]) | uint32(b[13])<<8 | uint32(b[14])<<16 | uint32(b[15])<<24)
		}
		want, got := in.clone(), in.clone()
		lanes.MoveBounce(lanes.Scalar, want.x, want.y, want.vx, want.vy, dt, w)
		lanes.MoveBounce(lanes.Best(), got.x, got.y, got.vx, got.vy, dt, w)
		for k, pair := range [][2][]float32{{got.x, want.x}, {got.y, want.y}, {got.vx, want.vx}, {got.vy, want.vy}} {
			if i := sameBits(pair[0], pair[1]); i >= 0 {
				t.Fatalf("lane %s, column %d, element %d: %#08x, scalar %#08x", lanes.Best(), k, i,
					math.Float32bits(pair[0][i]), math.Float32bits(pair[1][i]))
			}
		}
	})
}

func ExampleMoveBounce() {
	x, y := []float32{1, 2047}, []float32{10, 10}
	vx, vy := []float32{-128, 128}, []float32{0, 0}
	// Whatever lane runs, the bits are the scalar oracle's.
	lanes.MoveBounce(lanes.Best(), x, y, vx, vy, 1.0/64, 2048)
	fmt.Println(x, vx)
	// Output: [1 2047] [128 -128]
}

func ExampleSelect() {
	l, err := lanes.Select(lanes.Lane(7))
	fmt.Println(l, errors.Is(err, lanes.ErrUnknownLane))
	// Output: scalar true
}

// TestSlots checks Slots in every lane against a model written from its
// doc, at every tail length and at offsets where an 8-record step starts
// mid-word of the bitmap, and that it writes nothing past 4*len(x) words.
func TestSlots(t *testing.T) {
	forLanes(t, func(t *testing.T, l lanes.Lane) {
		r := rand.New(rand.NewPCG(23, uint64(l)))
		for _, n := range append(sizes, 129, 200) {
			x, y, h := make([]float32, n), make([]float32, n), make([]int32, n)
			alive := make([]uint64, (n+63)/64+1)
			for i := range n {
				x[i], y[i], h[i] = value(r, 2048, 2048), value(r, 2048, 2048), int32(r.Uint32())
			}
			for i := range alive {
				alive[i] = r.Uint64()
			}
			const sentinel = 0xdeadbeef
			dst := make([]uint32, 4*n+16)
			for i := range dst {
				dst[i] = sentinel
			}
			lanes.Slots(l, dst[:4*n], x, y, h, alive)
			for i := range n {
				want := [4]uint32{math.Float32bits(x[i]), math.Float32bits(y[i]), uint32(h[i]), uint32(alive[i/64]>>(i%64)) & 1}
				require.Equalf(t, want, [4]uint32(dst[4*i:4*i+4]), "n %d: record %d", n, i)
			}
			for i := 4 * n; i < len(dst); i++ {
				require.Equalf(t, uint32(sentinel), dst[i], "n %d: word %d written", n, i)
			}
		}
	})
}

func ExampleSlots() {
	x, y, health := []float32{1, 2, 3}, []float32{4, 5, 6}, []int32{3, 2, 1}
	alive := []uint64{0b101} // elements 0 and 2
	dst := make([]uint32, 4*len(x))
	lanes.Slots(lanes.Best(), dst, x, y, health, alive)
	for i := range x {
		r := dst[4*i : 4*i+4]
		fmt.Println(math.Float32frombits(r[0]), math.Float32frombits(r[1]), int32(r[2]), r[3])
	}
	// Output:
	// 1 4 3 1
	// 2 5 2 0
	// 3 6 1 1
}

func ExampleAdvance() {
	x, y, vx, vy, ttl := []float32{0}, []float32{10}, []float32{64}, []float32{-32}, []int32{96}
	lanes.Advance(lanes.Best(), x, y, vx, vy, ttl, 1.0/64)
	fmt.Println(x[0], y[0], ttl[0])
	// Output: 1 9.5 95
}
