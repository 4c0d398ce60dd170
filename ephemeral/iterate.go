package ephemeral

import (
	"math/bits"

	"github.com/kelindar/bitmap"
)

// EachRun calls fn(lo, hi) for every maximal run of set bits [lo, hi) in
// mask, in ascending order. With a chunk's enabled bitmap and the chunk's
// column spans it visits the chunk's live rows in contiguous slices:
//
//	xs, vs := x.Span(c), v.Span(c)
//	ephemeral.EachRun(t.Enabled(c), func(lo, hi int) {
//		for r := lo; r < hi; r++ { xs[r] += vs[r] }
//	})
//
// A full chunk is one run. EachRun allocates nothing when fn does not escape.
func EachRun(mask bitmap.Bitmap, fn func(lo, hi int)) {
	lo := -1
	for w, word := range mask {
		base := w << 6
		if word == ^uint64(0) {
			if lo < 0 {
				lo = base
			}
			continue
		}
		if word == 0 {
			if lo >= 0 {
				fn(lo, base)
				lo = -1
			}
			continue
		}
		for b := 0; b < 64; {
			if word>>uint(b)&1 == 1 {
				if lo < 0 {
					lo = base + b
				}
				ones := bits.TrailingZeros64(^(word >> uint(b)))
				b += ones
			} else {
				if lo >= 0 {
					fn(lo, base+b)
					lo = -1
				}
				zeros := bits.TrailingZeros64(word >> uint(b))
				if zeros == 64 {
					break
				}
				b += zeros
			}
		}
	}
	if lo >= 0 {
		fn(lo, len(mask)<<6)
	}
}
