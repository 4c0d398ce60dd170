package rules_test

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/arena/rules"
)

// referenceDigest is the digest written the long way, with hash/fnv and
// encoding/binary, straight from the text of the rules.
func referenceDigest(pres []rules.Slot, frames int64, c rules.Counters, sum uint64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, p := range pres {
		if p.Alive == 0 {
			h.Write([]byte{0})
			continue
		}
		h.Write([]byte{1})
		binary.LittleEndian.PutUint32(b[:4], math.Float32bits(p.X))
		h.Write(b[:4])
		binary.LittleEndian.PutUint32(b[:4], math.Float32bits(p.Y))
		h.Write(b[:4])
	}
	for _, v := range []uint64{
		uint64(frames), uint64(c.ShotsFired), uint64(c.Hits), uint64(c.Deaths),
		uint64(c.Lost), uint64(c.Expired), uint64(c.LiveProjectiles), sum,
	} {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	return h.Sum64()
}

func randomPresentation(r *rand.Rand, n int) []rules.Slot {
	pres := make([]rules.Slot, n)
	for i := range pres {
		pres[i] = rules.Slot{X: r.Float32() * rules.W, Y: r.Float32() * rules.W, Health: int32(r.IntN(4))}
		if r.IntN(8) != 0 {
			pres[i].Alive = 1
		}
	}
	return pres
}

func TestDigestMatchesHashFNV(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 1000} {
		pres := randomPresentation(r, n)
		c := rules.Counters{ShotsFired: 1000, Hits: 300, Deaths: 90, Lost: 200, Expired: 400, LiveProjectiles: 100}
		frames := int64(720)
		sum := r.Uint64()
		got := rules.Digest(pres, frames, c, sum)
		want := referenceDigest(pres, frames, c, sum)
		assert.Equalf(t, want, got, "Digest(n=%d)", n)
	}
}

func TestDigestIgnoresHealthAndDeadPositions(t *testing.T) {
	pres := []rules.Slot{{X: 1, Y: 2, Health: 3, Alive: 1}, {X: 5, Y: 6, Alive: 0}}
	want := rules.Digest(pres, 1, rules.Counters{}, 0)
	pres[0].Health = 1
	pres[1].X, pres[1].Y = 7, 8
	assert.Equal(t, want, rules.Digest(pres, 1, rules.Counters{}, 0))
	pres[0].X = 1.5
	assert.NotEqual(t, want, rules.Digest(pres, 1, rules.Counters{}, 0))
}

func TestDigestAllocatesNothing(t *testing.T) {
	pres := randomPresentation(rand.New(rand.NewPCG(3, 4)), 4096)
	var sink uint64
	allocs := testing.AllocsPerRun(100, func() {
		sink += rules.Digest(pres, 720, rules.Counters{Hits: 1}, 99)
		sink += rules.ProjectileHash(1, 2, 3, 4)
	})
	assert.Zero(t, allocs, "allocations per Digest+ProjectileHash")
	_ = sink
}

func TestProjectileHashMatchesHashFNV(t *testing.T) {
	tests := []struct {
		x, y        float32
		ttl, damage int32
	}{
		{0, 0, 0, 0},
		{1024.5, 3.25, rules.TTL, 3},
		{-7.125, 4096.75, -1, 1},
	}
	for _, tt := range tests {
		h := fnv.New64a()
		var b [16]byte
		binary.LittleEndian.PutUint32(b[0:], math.Float32bits(tt.x))
		binary.LittleEndian.PutUint32(b[4:], math.Float32bits(tt.y))
		binary.LittleEndian.PutUint32(b[8:], uint32(tt.ttl))
		binary.LittleEndian.PutUint32(b[12:], uint32(tt.damage))
		h.Write(b[:])
		assert.Equalf(t, h.Sum64(), rules.ProjectileHash(tt.x, tt.y, tt.ttl, tt.damage),
			"ProjectileHash(%v, %v, %v, %v)", tt.x, tt.y, tt.ttl, tt.damage)
	}
}

func TestFormatDigest(t *testing.T) {
	tests := []struct {
		in   uint64
		want string
	}{
		{0, "0000000000000000"},
		{0xabc, "0000000000000abc"},
		{0x0123456789abcdef, "0123456789abcdef"},
		{math.MaxUint64, "ffffffffffffffff"},
	}
	for _, tt := range tests {
		assert.Equalf(t, tt.want, rules.FormatDigest(tt.in), "FormatDigest(%#x)", tt.in)
	}
}
