package fused_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema/codegen/internal/fused"
)

// dt is a step that is not a power of two, so that v*dt rounds.
const dt = 0.1

// fma32 is x*y + z rounded once to float32, as a fused multiply-add gives
// it (x*y is exact in float64; the double rounding through float64 does
// not matter for the inputs picked, which the guards below check).
func fma32(x, y, z float32) float32 { return float32(float64(x)*float64(y) + float64(z)) }

// stepInputs returns n (x, v) pairs whose step x + v*dt rounds one way
// as written (the product rounded on its own) and another fused.
func stepInputs(n int) (xs, vs []float32) {
	d := float32(dt)
	for i := 0; len(xs) < n; i++ {
		x, v := 1+float32(i)*0.37, 3+float32(i)*0.113
		if x+float32(v*d) != fma32(v, d, x) {
			xs, vs = append(xs, x), append(vs, v)
		}
	}
	return xs, vs
}

// distanceInputs returns n (dx, dy) pairs near the circle of radius 3
// whose squared distance as written (each product rounded) differs from
// both fusings (either product fused into the sum), and whose comparison
// with R2 does too: a fused kernel would call them the other way.
func distanceInputs(n int) (dxs, dys []float32) {
	for i := 0; len(dxs) < n && i < 1<<20; i++ {
		dx := 1.5 + float32(i)*0.000731
		dy0 := float32(math.Sqrt(float64(fused.R2 - dx*dx)))
		for k := -3; k <= 3; k++ {
			dy := math.Nextafter32(dy0, float32(math.Inf(k)))
			for range abs(k) - 1 {
				dy = math.Nextafter32(dy, float32(math.Inf(k)))
			}
			d2 := float32(dx*dx) + float32(dy*dy)
			a, b := fma32(dx, dx, float32(dy*dy)), fma32(dy, dy, float32(dx*dx))
			near := d2 <= fused.R2
			if d2 != a && d2 != b && near != (a <= fused.R2) && near != (b <= fused.R2) {
				dxs, dys = append(dxs, dx), append(dys, dy)
				break
			}
		}
	}
	return dxs, dys
}

func abs(k int) int { return max(k, -k) }

// TestProductsRoundAsWritten: after one fixed tick, every row's X, D2 and
// Near are the values of the schema's arithmetic with each product
// rounded on its own (docs/schema.md, Arithmetic), bit for bit, on inputs
// where a fused multiply-add gives other bits and the other comparison.
// Built with GOAMD64=v3 (make fma) or for arm64 (make arm64), it fails if
// the generator stops converting products.
func TestProductsRoundAsWritten(t *testing.T) {
	const n = 32
	xs, vs := stepInputs(n)
	dxs, dys := distanceInputs(n)
	require.Len(t, dxs, n, "not enough discriminating distance inputs: the test would prove nothing")
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(dt), tickwork.WithPacing(tickwork.OneTickPerFrame))
			tabs, err := fused.Declare(b, fused.DefaultSizes())
			require.NoError(t, err)
			b.Add(fused.NewSystems(tabs).All()...)
			w, err := b.Build()
			require.NoError(t, err)
			defer w.Close()
			body := &tabs.Body
			hs := make([]tickwork.Handle, n)
			require.NoError(t, body.Table.InsertN(hs))
			for i, h := range hs {
				body.X.Set(h, xs[i])
				body.VX.Set(h, vs[i])
				body.DX.Set(h, dxs[i])
				body.DY.Set(h, dys[i])
			}
			require.NoError(t, w.Frame(dt))
			d := float32(dt)
			for i, h := range hs {
				x, _ := body.X.Get(h)
				d2, _ := body.D2.Get(h)
				near, _ := body.Near.Get(h)
				wantX := xs[i] + float32(vs[i]*d)
				wantD2 := float32(dxs[i]*dxs[i]) + float32(dys[i]*dys[i])
				assert.Equal(t, math.Float32bits(wantX), math.Float32bits(x), "row %d: X (fused: %#x)", i, math.Float32bits(fma32(vs[i], d, xs[i])))
				assert.Equal(t, math.Float32bits(wantD2), math.Float32bits(d2), "row %d: D2", i)
				assert.Equal(t, wantD2 <= fused.R2, near, "row %d: Near", i)
			}
		})
	}
}
