package rules

// MoveUnits advances units by one fixed tick (arena rules v1,
// IntegrateBodies, ../shared/arena-spec.md): per unit i, x += vx*DT and
// y += vy*DT, then per axis a position below 0 is mirrored to -p and one
// above W to 2W-p, turning that velocity around. The four slices are
// positions and velocities in world units and world units per second;
// y, vx and vy must be at least len(x) long (only len(x) units move).
//
// This is the one home of the bounce in code: the baseline (package soa)
// and package arena's hand-written kernels call it (their SIMD forms are
// tested against it, bit for bit), and the runtime arena's IntegrateBodies
// (arena.tw, generated, with SIMD variants) is held to it by the digest
// tests. Every product is exact (DT is a power of two), so no fused
// multiply-add can change a result. The baseline's reference test checks
// it against an independent model. Allocates nothing; safe to call from
// kernels on disjoint slices.
func MoveUnits(x, y, vx, vy []float32) {
	y, vx, vy = y[:len(x)], vx[:len(x)], vy[:len(x)]
	const w2 = 2 * W
	for i := range x {
		px := x[i] + vx[i]*DT
		if px < 0 {
			px = -px
			vx[i] = -vx[i]
		} else if px > W {
			px = w2 - px
			vx[i] = -vx[i]
		}
		x[i] = px
		py := y[i] + vy[i]*DT
		if py < 0 {
			py = -py
			vy[i] = -vy[i]
		} else if py > W {
			py = w2 - py
			vy[i] = -vy[i]
		}
		y[i] = py
	}
}
