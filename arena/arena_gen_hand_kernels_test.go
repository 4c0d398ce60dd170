package arena

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// The hand-written kernels of IntegrateBodies and IntegrateProjectiles, in
// every lane: the baselines of the generated kernels and of their SIMD
// variants (bodies and projectiles in arena_gen_hand_test.go, BenchmarkMoveBounce and
// BenchmarkAdvance below), and nothing else. Their SIMD forms are in
// arena_gen_hand_kernels_simd_test.go.

// moveBounce moves units by one tick and bounces them off the walls: the
// bounce of docs/arena-spec.md (IntegrateBodies), whose one home is
// rules.MoveUnits. It runs lane l, which this build and CPU must run: the
// lane's SIMD form on whole vectors, rules.MoveUnits on the rest. Shapes
// as rules.MoveUnits.
func moveBounce(l tickwork.Lane, x, y, vx, vy []float32) {
	y, vx, vy = y[:len(x)], vx[:len(x)], vy[:len(x)]
	n := 0
	switch {
	case l >= tickwork.LaneAVX512 && moveBounce16 != nil:
		n = moveBounce16(x, y, vx, vy)
	case l >= tickwork.LaneAVX2 && moveBounce8 != nil:
		n = moveBounce8(x, y, vx, vy)
	}
	rules.MoveUnits(x[n:], y[n:], vx[n:], vy[n:])
}

// advance moves projectiles by one tick and ages them (docs/arena-spec.md,
// IntegrateProjectiles) in lane l, as moveBounce; y, vx, vy and ttl must
// be at least len(x) long.
func advance(l tickwork.Lane, x, y, vx, vy []float32, ttl []int32) {
	y, vx, vy, ttl = y[:len(x)], vx[:len(x)], vy[:len(x)], ttl[:len(x)]
	n := 0
	switch {
	case l >= tickwork.LaneAVX512 && advance16 != nil:
		n = advance16(x, y, vx, vy, ttl)
	case l >= tickwork.LaneAVX2 && advance8 != nil:
		n = advance8(x, y, vx, vy, ttl)
	}
	advanceRows(x[n:], y[n:], vx[n:], vy[n:], ttl[n:])
}

// advanceRows is advance's scalar form: x += vx*DT, y += vy*DT, ttl--
// (wrapping at the int32 minimum). DT is a power of two, so every product
// is exact and no fused multiply-add can change a result.
func advanceRows(x, y, vx, vy []float32, ttl []int32) {
	y, vx, vy, ttl = y[:len(x)], vx[:len(x)], vy[:len(x)], ttl[:len(x)]
	for i := range x {
		x[i] += vx[i] * rules.DT
		y[i] += vy[i] * rules.DT
		ttl[i]--
	}
}

// The SIMD forms, 8 and 16 rows wide: each moves the longest prefix of
// whole vectors and returns its length. Set by arena_gen_hand_kernels_simd_test.go's
// init in a build with GOEXPERIMENT=simd on amd64, nil in every other.
var (
	moveBounce8, moveBounce16 func(x, y, vx, vy []float32) int
	advance8, advance16       func(x, y, vx, vy []float32, ttl []int32) int
)

// moveCols are n rows of the four columns moveBounce and advance move:
// Body's (or Projectile's) X, Y, VX, VY.
type moveCols struct {
	x, y, vx, vy []float32
}

// newUnits draws n units: mostly in the arena, often at a special value,
// sometimes any bit pattern; velocities large enough to cross a wall in
// one tick.
func newUnits(r *rand.Rand, n int) moveCols {
	u := moveCols{make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)}
	for i := range n {
		u.x[i], u.y[i] = value(r, rules.W), value(r, rules.W)
		u.vx[i], u.vy[i] = value(r, 64*rules.W)-32*rules.W, value(r, 64*rules.W)-32*rules.W
	}
	return u
}

func (u moveCols) clone() moveCols {
	return moveCols{append([]float32(nil), u.x...), append([]float32(nil), u.y...),
		append([]float32(nil), u.vx...), append([]float32(nil), u.vy...)}
}

// diff reports the first column and row where u and w differ in their
// bits, or "" and -1.
func (u moveCols) diff(w moveCols) (string, int) {
	for _, c := range []struct {
		name string
		a, b []float32
	}{{"x", u.x, w.x}, {"y", u.y, w.y}, {"vx", u.vx, w.vx}, {"vy", u.vy, w.vy}} {
		if i := sameBits(c.a, c.b); i >= 0 {
			return c.name, i
		}
	}
	return "", -1
}

// TestHandKernelsMatchRules: in every lane, moveBounce gives the bits of
// rules.MoveUnits and advance those of advanceRows, NaNs included, at
// every tail length.
func TestHandKernelsMatchRules(t *testing.T) {
	forLanes(t, func(t *testing.T, l tickwork.Lane) {
		r := rand.New(rand.NewPCG(17, uint64(l)))
		for _, n := range sizes {
			in := newUnits(r, n)
			want, got := in.clone(), in.clone()
			rules.MoveUnits(want.x, want.y, want.vx, want.vy)
			moveBounce(l, got.x, got.y, got.vx, got.vy)
			if c, i := got.diff(want); i >= 0 {
				t.Fatalf("moveBounce n %d: %s[%d] differs from rules.MoveUnits; in x %v vx %v y %v vy %v", n, c, i, in.x[i], in.vx[i], in.y[i], in.vy[i])
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
			advanceRows(want.x, want.y, want.vx, want.vy, wantTTL)
			advance(l, got.x, got.y, got.vx, got.vy, gotTTL)
			assert.Equal(t, wantTTL, gotTTL, "advance ttl, n %d", n)
			if c, i := got.diff(want); i >= 0 {
				t.Fatalf("advance n %d: %s[%d] differs from advanceRows", n, c, i)
			}
		}
	})
}

// TestHandKernelsEdges pins single cases of the bounce whose bits a wrong
// blend or a wrong negation would change: the walls themselves do not
// bounce, -0 stays -0, a zero velocity turns into -0 when its unit
// bounces, NaN and infinities follow the comparisons.
func TestHandKernelsEdges(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	cases := []struct {
		name         string
		p, v         float32
		wantP, wantV float32
	}{
		{"at 0, no bounce", 1, -64, 0, -64},
		{"at W, no bounce", 2047, 64, 2048, 64},
		{"-0 stays -0", neg(0), neg(0), neg(0), neg(0)},
		{"below 0 with v = +0", -1, 0, 1, neg(0)},
		{"below 0 with v = -0", -1, neg(0), 1, 0},
		{"above W with v = +0", 2049, 0, 2047, neg(0)},
		{"just below 0", 0, -1, 1.0 / 64, 1},
		{"just above W", 2048, 1, 2048 - 1.0/64, -1},
		{"+inf", inf, 0, -inf, neg(0)},
		{"-inf", -inf, 0, inf, neg(0)},
		{"NaN position", nan, 1, nan, 1},
		{"NaN velocity", 5, nan, nan, nan},
	}
	forLanes(t, func(t *testing.T, l tickwork.Lane) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				// Whole vectors of 16 and a tail, so every element of
				// every SIMD register and the scalar tail see the case.
				const n = 16 + 16 + 5
				u := moveCols{make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)}
				for i := range n {
					u.x[i], u.vx[i], u.y[i], u.vy[i] = tc.p, tc.v, tc.p, tc.v
				}
				moveBounce(l, u.x, u.y, u.vx, u.vy)
				for i := range n {
					for _, got := range [][2]float32{{u.x[i], u.vx[i]}, {u.y[i], u.vy[i]}} {
						if tc.wantP != tc.wantP {
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

// TestHandKernelsWriteInside: no lane writes past len(x), into memory the
// caller's slices can reach (their capacity); the kernels allocate
// nothing.
func TestHandKernelsWriteInside(t *testing.T) {
	forLanes(t, func(t *testing.T, l tickwork.Lane) {
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
			moveBounce(l, x, y, vx, vy)
			advance(l, x, y, vx, vy, ttl[:n])
			for i, buf := range bufs {
				for j := n; j < len(buf); j++ {
					require.Equalf(t, math.Float32bits(sentinel), math.Float32bits(buf[j]), "n %d: slice %d written at %d", n, i, j)
				}
			}
			for j := n; j < len(ttl); j++ {
				require.Equalf(t, int32(7), ttl[j], "n %d: ttl written at %d", n, j)
			}
		}
		u := newUnits(rand.New(rand.NewPCG(1, 1)), 1031)
		ttl := make([]int32, 1031)
		assert.Zero(t, testing.AllocsPerRun(100, func() {
			moveBounce(l, u.x, u.y, u.vx, u.vy)
			advance(l, u.x, u.y, u.vx, u.vy, ttl)
		}))
	})
}

// FuzzHandMoveBounce compares moveBounce in the best lane with
// rules.MoveUnits on units built from the fuzzer's bytes (four floats a
// unit).
func FuzzHandMoveBounce(f *testing.F) {
	f.Add([]byte{0, 0, 0x80, 0x3f, 0, 0, 0x80, 0xbf, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(make([]byte, 16*37))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := len(data) / 16
		in := moveCols{make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)}
		word := func(b []byte) float32 {
			return math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
		}
		for i := range n {
			b := data[16*i:]
			in.x[i], in.y[i], in.vx[i], in.vy[i] = word(b[0:]), word(b[4:]), word(b[8:]), word(b[12:])
		}
		want, got := in.clone(), in.clone()
		rules.MoveUnits(want.x, want.y, want.vx, want.vy)
		moveBounce(tickwork.BestLane(), got.x, got.y, got.vx, got.vy)
		if c, i := got.diff(want); i >= 0 {
			t.Fatalf("lane %s: %s[%d] differs from rules.MoveUnits", tickwork.BestLane(), c, i)
		}
	})
}

// handBenchUnits is the arena's default unit count.
const handBenchUnits = 100_000

// benchHandLanes runs f in the best lane of this build and CPU ("simd";
// skipped when that is scalar) and in the scalar lane, in the same run.
func benchHandLanes(b *testing.B, f func(b *testing.B, l tickwork.Lane)) {
	b.Run("simd", func(b *testing.B) {
		if tickwork.BestLane() == tickwork.LaneScalar {
			b.Skip("no SIMD lane in this build or on this CPU (build with GOEXPERIMENT=simd on amd64)")
		}
		f(b, tickwork.BestLane())
	})
	b.Run("scalar", func(b *testing.B) { f(b, tickwork.LaneScalar) })
}

// arenaUnits are n units as the arena spawns them: positions in [0, W),
// velocities in [-VMax, VMax).
func arenaUnits(n int) moveCols {
	r := rand.New(rand.NewPCG(42, 42))
	u := moveCols{make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)}
	for i := range n {
		u.x[i], u.y[i] = r.Float32()*rules.W, r.Float32()*rules.W
		u.vx[i], u.vy[i] = r.Float32()*2*rules.VMax-rules.VMax, r.Float32()*2*rules.VMax-rules.VMax
	}
	return u
}

// BenchmarkMoveBounce: moveBounce over 100 000 units in one span.
func BenchmarkMoveBounce(b *testing.B) {
	benchHandLanes(b, func(b *testing.B, l tickwork.Lane) {
		u := arenaUnits(handBenchUnits)
		b.ReportAllocs()
		b.SetBytes(int64(16 * handBenchUnits))
		for b.Loop() {
			moveBounce(l, u.x, u.y, u.vx, u.vy)
		}
	})
}

// BenchmarkAdvance: advance over 100 000 projectiles in one span.
func BenchmarkAdvance(b *testing.B) {
	benchHandLanes(b, func(b *testing.B, l tickwork.Lane) {
		u := arenaUnits(handBenchUnits)
		ttl := make([]int32, handBenchUnits)
		b.ReportAllocs()
		b.SetBytes(int64(20 * handBenchUnits))
		for b.Loop() {
			advance(l, u.x, u.y, u.vx, u.vy, ttl)
		}
	})
}
