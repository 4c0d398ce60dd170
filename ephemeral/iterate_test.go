package ephemeral_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/quick"

	"github.com/kelindar/bitmap"
	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/ephemeral"
)

// naiveRuns is the reference for EachRun: it walks the mask bit by bit.
func naiveRuns(mask bitmap.Bitmap) [][2]int {
	var runs [][2]int
	n := len(mask) * 64
	for i := 0; i < n; {
		if !mask.Contains(uint32(i)) {
			i++
			continue
		}
		j := i
		for j < n && mask.Contains(uint32(j)) {
			j++
		}
		runs = append(runs, [2]int{i, j})
		i = j
	}
	return runs
}

func eachRuns(mask bitmap.Bitmap) [][2]int {
	var runs [][2]int
	ephemeral.EachRun(mask, func(lo, hi int) { runs = append(runs, [2]int{lo, hi}) })
	return runs
}

// maskOf makes a mask of the given number of words with bits [lo, hi) of
// each range set.
func maskOf(words int, ranges ...[2]int) bitmap.Bitmap {
	m := make(bitmap.Bitmap, words)
	for _, r := range ranges {
		for i := r[0]; i < r[1]; i++ {
			m.Set(uint32(i))
		}
	}
	return m
}

func wordsOf(ws ...uint64) bitmap.Bitmap { return bitmap.Bitmap(ws) }

func TestEachRun(t *testing.T) {
	const alt = 0x5555_5555_5555_5555
	tests := []struct {
		name string
		mask bitmap.Bitmap
		want [][2]int // nil: no run
	}{
		{"nil", nil, nil},
		{"zero words", bitmap.Bitmap{}, nil},
		{"empty word", maskOf(1), nil},
		{"empty chunk", maskOf(64), nil},
		{"full word", maskOf(1, [2]int{0, 64}), [][2]int{{0, 64}}},
		{"full chunk", maskOf(64, [2]int{0, 4096}), [][2]int{{0, 4096}}},
		{"bit 0", maskOf(2, [2]int{0, 1}), [][2]int{{0, 1}}},
		{"bit 63", maskOf(2, [2]int{63, 64}), [][2]int{{63, 64}}},
		{"bit 64", maskOf(2, [2]int{64, 65}), [][2]int{{64, 65}}},
		{"bit 127", maskOf(2, [2]int{127, 128}), [][2]int{{127, 128}}},
		{"last bit of a chunk", maskOf(64, [2]int{4095, 4096}), [][2]int{{4095, 4096}}},
		{"bits 0, 63, 64", maskOf(2, [2]int{0, 1}, [2]int{63, 65}), [][2]int{{0, 1}, {63, 65}}},
		{"bits 63 and 64 in two ranges merge", maskOf(2, [2]int{60, 64}, [2]int{64, 68}), [][2]int{{60, 68}}},
		{"alternating 0101", wordsOf(alt, alt), func() [][2]int {
			var want [][2]int
			for i := 0; i < 128; i += 2 {
				want = append(want, [2]int{i, i + 1})
			}
			return want
		}()},
		{"alternating 1010", wordsOf(^uint64(alt)), func() [][2]int {
			var want [][2]int
			for i := 1; i < 64; i += 2 {
				want = append(want, [2]int{i, i + 1})
			}
			return want
		}()},
		{"run crossing a word boundary", maskOf(2, [2]int{60, 70}), [][2]int{{60, 70}}},
		{"run crossing two boundaries", maskOf(4, [2]int{10, 200}), [][2]int{{10, 200}}},
		{"run over a full middle word", maskOf(3, [2]int{63, 129}), [][2]int{{63, 129}}},
		{"full word then empty", maskOf(3, [2]int{64, 128}), [][2]int{{64, 128}}},
		{"run to the end", maskOf(3, [2]int{100, 192}), [][2]int{{100, 192}}},
		{"all but bit 0", maskOf(1, [2]int{1, 64}), [][2]int{{1, 64}}},
		{"all but bit 63", maskOf(1, [2]int{0, 63}), [][2]int{{0, 63}}},
		{"all but bit 64", maskOf(3, [2]int{0, 64}, [2]int{65, 192}), [][2]int{{0, 64}, {65, 192}}},
		{"two runs in one word", maskOf(1, [2]int{3, 6}, [2]int{10, 13}), [][2]int{{3, 6}, {10, 13}}},
		{"hole at a boundary", maskOf(2, [2]int{0, 63}, [2]int{65, 128}), [][2]int{{0, 63}, {65, 128}}},
		{"sparse", maskOf(64, [2]int{5, 6}, [2]int{700, 703}, [2]int{4000, 4096}),
			[][2]int{{5, 6}, {700, 703}, {4000, 4096}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, naiveRuns(tc.mask), "reference")
			assert.Equal(t, tc.want, eachRuns(tc.mask))
		})
	}
}

// shapeMask turns random words into masks with runs of every kind: a word
// becomes empty, full, a prefix, a suffix, a single bit or stays random.
func shapeMask(words []uint64, shapes []uint8) bitmap.Bitmap {
	mask := make(bitmap.Bitmap, len(words))
	for i, w := range words {
		shape := uint8(i)
		if len(shapes) > 0 {
			shape = shapes[i%len(shapes)]
		}
		switch shape % 6 {
		case 0:
			mask[i] = 0
		case 1:
			mask[i] = ^uint64(0)
		case 2:
			mask[i] = ^uint64(0) >> (w & 63)
		case 3:
			mask[i] = ^uint64(0) << (w & 63)
		case 4:
			mask[i] = 1 << (w & 63)
		default:
			mask[i] = w
		}
	}
	return mask
}

func TestEachRunProperty(t *testing.T) {
	prop := func(words []uint64, shapes []uint8) bool {
		mask := shapeMask(words, shapes)
		got, want := eachRuns(mask), naiveRuns(mask)
		if !assert.Equal(t, want, got, "mask %#x", []uint64(mask)) {
			return false
		}
		// Runs are ascending, non-empty and maximal: never adjacent.
		for i, r := range got {
			if r[0] >= r[1] || (i > 0 && got[i-1][1] >= r[0]) {
				return false
			}
		}
		return true
	}
	cfg := &quick.Config{MaxCount: 2000, Rand: nil}
	if err := quick.Check(prop, cfg); err != nil {
		t.Fatal(err)
	}
	// Whole chunks of the default size, seeded.
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		words := make([]uint64, ephemeral.DefaultChunkRows/64)
		shapes := make([]uint8, 1+rng.IntN(8))
		for k := range words {
			words[k] = rng.Uint64()
		}
		for k := range shapes {
			shapes[k] = uint8(rng.Uint32())
		}
		if !prop(words, shapes) {
			t.Fatalf("chunk mask %d: %s", i, fmt.Sprint(shapes))
		}
	}
}
