package arena

import (
	"unsafe"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// present is PresentationSync's kernel state.
type present struct {
	body   tickwork.Query2[float32, float32] // X, Y
	health tickwork.Query1[int32]
	pres   []rules.Slot
	lane   tickwork.Lane
}

func (s *Sim) presentKernel(pres []rules.Slot) present {
	body := tickwork.HostQuery2(s.t.Body.X, s.t.Body.Y)
	health := tickwork.HostQuery1(s.t.Unit.Health)
	return present{body, health, pres, s.lane}
}

// presentationSync writes the slot-indexed presentation buffer: entry s is
// row s of the Actors domain, alive when its enabled bit is set.
func (s *Sim) presentationSync(d *tickwork.Decl) tickwork.RunFunc {
	t := s.t
	k := present{
		body:   tickwork.NewQuery2(tickwork.Read(d, t.Body.X), tickwork.Read(d, t.Body.Y)),
		health: tickwork.NewQuery1(tickwork.Read(d, t.Unit.Health)),
		pres:   *tickwork.WriteResource(d, s.pres),
		lane:   s.lane,
	}
	return func(ctx *tickwork.Context) { tickwork.Parallel(ctx, t.Unit.Table.Chunks(), k, (*present).chunk) }
}

func (k *present) chunk(_, c int) {
	unit := k.health.Table()
	lo := c * unit.ChunkRows()
	pres := k.pres[lo:min(lo+unit.ChunkRows(), len(k.pres))]
	x, y := k.body.Spans(c)
	presentLane(k.lane, pres, x, y, k.health.Spans(c), unit.Enabled(c))
}

// presentLane is presentRows in lane l, which this build and CPU run (the
// Sim's lane does: New selects it): in a SIMD lane the SIMD form
// writes the whole 64-row words of the enabled mask and presentRows the
// rest, with the same bits (package lanes, "Bit identity"; it only moves
// bits). Lane AVX512 runs the 8-wide form (there is no 16-wide one).
func presentLane(l tickwork.Lane, pres []rules.Slot, x, y []float32, health []int32, mask []uint64) {
	n := 0
	if l >= tickwork.LaneAVX2 && presentSIMD8 != nil {
		n = presentSIMD8(pres, x, y, health, mask)
	}
	presentRows(pres[n:], x[n:], y[n:], health[n:], mask[n>>6:])
}

// presentSIMD8 writes pres[i] as presentRows does for i < n, n the whole
// 64-row words of len(pres), and returns n: set by present_simd.go's init
// in a build with GOEXPERIMENT=simd on amd64, nil in every other build.
var presentSIMD8 func(pres []rules.Slot, x, y []float32, health []int32, mask []uint64) int

// presentRows writes pres[i] from row i of x, y, health and the enabled
// mask: X, Y, Health, and Alive = bit i of mask (mask[i/64] >> (i%64) & 1).
// x, y and health must be at least len(pres) long and mask at least
// (len(pres)+63)/64 words (shorter ones panic). The Scalar form of
// PresentationSync's kernel; a leaf of its own, so that the loop gets the
// registers.
//
//go:noinline
func presentRows(pres []rules.Slot, x, y []float32, health []int32, mask []uint64) {
	x, y, health, mask = x[:len(pres)], y[:len(pres)], health[:len(pres)], mask[:(len(pres)+63)/64]
	for k, word := range mask {
		// One mask word a 64-row block, shifted a bit a row: no variable
		// shift (its count would take CX from the loop) and no word load
		// a row.
		lo := k * 64
		hi := min(lo+64, len(pres))
		p, xs, ys, hs := pres[lo:hi], x[lo:hi], y[lo:hi], health[lo:hi]
		xs, ys, hs = xs[:len(p)], ys[:len(p)], hs[:len(p)]
		for i := range p {
			// Branch-free: a dead row's values are stale, and the rules leave
			// them meaningless when Alive is 0.
			p[i] = rules.Slot{X: xs[i], Y: ys[i], Health: hs[i], Alive: uint8(word & 1)}
			word >>= 1
		}
	}
}

// These fail to compile unless rules.Slot is the record the SIMD form
// writes through a view of pres as 32-bit words: X, Y, Health at word
// offsets 0, 1, 2 and Alive the first byte of word 3, 16 bytes in all (on
// a little-endian machine the word 0 or 1 is Alive 0 or 1 and zero
// padding).
var (
	_ = [1]struct{}{}[unsafe.Sizeof(rules.Slot{})-16] // each index is 0 or fails
	_ = [1]struct{}{}[unsafe.Offsetof(rules.Slot{}.X)]
	_ = [1]struct{}{}[unsafe.Offsetof(rules.Slot{}.Y)-4]
	_ = [1]struct{}{}[unsafe.Offsetof(rules.Slot{}.Health)-8]
	_ = [1]struct{}{}[unsafe.Offsetof(rules.Slot{}.Alive)-12]
)
