package rules

import "math/rand/v2"

// NewRand returns the single random stream of a run (arena rules v1,
// ../shared/arena-spec.md, "Random numbers"):
// rand.New(rand.NewPCG(seed, PCGStream)). The only draws the rules allow on it
// are [Spawn] and the three r.IntN draws per shot of Fire. The result is not
// safe for concurrent use.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, PCGStream))
}

// Spawn makes the four draws of spawn(slot) (arena rules v1, "Random
// numbers"), in this order: x := r.Float32()*W, y := r.Float32()*W,
// vx := (2*r.Float32()-1)*VMax, vy := (2*r.Float32()-1)*VMax. Positions are in
// world units in [0, W), velocities in world units per second in
// [-VMax, VMax). Every step is exact in float32, so the result does not depend
// on instruction selection. The new unit's health is [Health]; the caller sets
// it. Spawn draws from r and so must not run concurrently with other draws.
func Spawn(r *rand.Rand) (x, y, vx, vy float32) {
	x = r.Float32() * W
	y = r.Float32() * W
	vx = (2*r.Float32() - 1) * VMax
	vy = (2*r.Float32() - 1) * VMax
	return x, y, vx, vy
}
