package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena/rules"
)

func TestNewRandIsTheSpecStream(t *testing.T) {
	got := rules.NewRand(42)
	want := rand.New(rand.NewPCG(42, 0xda3e39cb94b95bdb))
	for range 16 {
		require.Equal(t, want.Uint64(), got.Uint64())
	}
}

func TestSpawnDrawOrder(t *testing.T) {
	r := rules.NewRand(7)
	ref := rules.NewRand(7)
	for range 1000 {
		x, y, vx, vy := rules.Spawn(r)
		wx := ref.Float32() * 2048
		wy := ref.Float32() * 2048
		wvx := (2*ref.Float32() - 1) * 32
		wvy := (2*ref.Float32() - 1) * 32
		require.Equal(t, [4]float32{wx, wy, wvx, wvy}, [4]float32{x, y, vx, vy})
		require.True(t, x >= 0 && x < rules.W && y >= 0 && y < rules.W, "position (%v, %v) outside [0, W)", x, y)
		require.True(t, vx >= -rules.VMax && vx < rules.VMax && vy >= -rules.VMax && vy < rules.VMax,
			"velocity (%v, %v) outside [-VMax, VMax)", vx, vy)
	}
	// Both streams made the same number of draws.
	assert.Equal(t, ref.Uint64(), r.Uint64())
}

func TestSpawnGolden(t *testing.T) {
	// The first spawn of seed 42, recorded once from this implementation; it
	// guards against a change in draw order or in math/rand/v2's PCG.
	x, y, vx, vy := rules.Spawn(rules.NewRand(42))
	assert.Equal(t, [4]float32{goldenX, goldenY, goldenVX, goldenVY}, [4]float32{x, y, vx, vy})
}

// First spawn of seed 42 (x, y, vx, vy), printed with %v from this
// implementation; %v prints the shortest decimal that reads back as the same
// float32.
const (
	goldenX  float32 = 772.8176
	goldenY  float32 = 1346.262
	goldenVX float32 = 17.6642
	goldenVY float32 = -2.517105
)
