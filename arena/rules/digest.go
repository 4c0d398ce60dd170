package rules

import (
	"fmt"
	"math"
)

// FNV-1a 64 parameters, the same as hash/fnv.New64a. The digest computes the
// hash inline: hash/fnv's io.Writer interface would make every Write's buffer
// escape to the heap.
const (
	fnvOffset64 uint64 = 14695981039346656037
	fnvPrime64  uint64 = 1099511628211
)

// fnvByte folds one byte into the FNV-1a 64 state h.
func fnvByte(h uint64, b byte) uint64 {
	return (h ^ uint64(b)) * fnvPrime64
}

// fnvU32 folds the 4 little-endian bytes of v into h.
func fnvU32(h uint64, v uint32) uint64 {
	h = (h ^ uint64(v&0xff)) * fnvPrime64
	h = (h ^ uint64(v>>8&0xff)) * fnvPrime64
	h = (h ^ uint64(v>>16&0xff)) * fnvPrime64
	h = (h ^ uint64(v>>24)) * fnvPrime64
	return h
}

// fnvU64 folds the 8 little-endian bytes of v into h.
func fnvU64(h uint64, v uint64) uint64 {
	h = fnvU32(h, uint32(v))
	return fnvU32(h, uint32(v>>32))
}

// Digest returns the digest of a run (arena rules v1,
// ../shared/arena-spec.md, "Counters and the digest"): FNV-1a 64 over, for
// each slot s of pres in ascending order, one byte Alive (1 or 0) and, when
// alive, the 4 little-endian bytes of math.Float32bits(X) then those of Y;
// then the 8 little-endian bytes of frames, c.ShotsFired, c.Hits, c.Deaths,
// c.Lost, c.Expired, c.LiveProjectiles; then those of projectileChecksum.
//
// pres is the presentation buffer after the last frame's PresentationSync
// (len N), frames the number of frames run since set-up (warm-up plus
// measured), projectileChecksum the sum from [ProjectileHash]. Health is not
// hashed. Any Alive other than 0 counts as 1. Digest allocates nothing and is
// safe for concurrent use as long as pres is not being written.
func Digest(pres []Slot, frames int64, c Counters, projectileChecksum uint64) uint64 {
	h := fnvOffset64
	for i := range pres {
		p := &pres[i]
		if p.Alive == 0 {
			h = fnvByte(h, 0)
			continue
		}
		h = fnvByte(h, 1)
		h = fnvU32(h, math.Float32bits(p.X))
		h = fnvU32(h, math.Float32bits(p.Y))
	}
	h = fnvU64(h, uint64(frames))
	h = fnvU64(h, uint64(c.ShotsFired))
	h = fnvU64(h, uint64(c.Hits))
	h = fnvU64(h, uint64(c.Deaths))
	h = fnvU64(h, uint64(c.Lost))
	h = fnvU64(h, uint64(c.Expired))
	h = fnvU64(h, uint64(c.LiveProjectiles))
	h = fnvU64(h, projectileChecksum)
	return h
}

// ProjectileHash returns the FNV-1a 64 of one live projectile (arena rules v1,
// "Counters and the digest"): over the 4 little-endian bytes each of
// math.Float32bits(x), math.Float32bits(y), uint32(ttl) and uint32(damage).
// x, y are the position in world units, ttl the remaining ticks, damage in
// damage points. The projectile checksum is the wrapping uint64 sum of
// ProjectileHash over every live projectile, so storage order cannot change
// it. Pure and allocation-free.
func ProjectileHash(x, y float32, ttl, damage int32) uint64 {
	h := fnvOffset64
	h = fnvU32(h, math.Float32bits(x))
	h = fnvU32(h, math.Float32bits(y))
	h = fnvU32(h, uint32(ttl))
	h = fnvU32(h, uint32(damage))
	return h
}

// FormatDigest formats a digest as the rules print it: 16 lower-case hex
// digits, zero-padded (arena rules v1, "Counters and the digest").
func FormatDigest(d uint64) string {
	return fmt.Sprintf("%016x", d)
}
