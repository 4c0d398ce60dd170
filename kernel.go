package tickwork

import "github.com/tickwork/tickwork/systems"

// ChunkKernel drives a generated system's kernel over its table's used
// chunks, on one worker or the pool: [systems.ChunkKernel].
type ChunkKernel[S any] = systems.ChunkKernel[S]

// ChunkOut is a masked kernel's worker outputs for one chunk:
// [systems.ChunkOut].
type ChunkOut = systems.ChunkOut

// Segmented is a recorder or parallel emitter a chunk kernel starts
// segments of: [systems.Segmented].
type Segmented = systems.Segmented

// DenseKernel declares a dense system's kernel: [systems.DenseKernel].
func DenseKernel[S any](d *Decl, t *Table, grain int, st *S, span func(st *S, lo, hi int)) *ChunkKernel[S] {
	return systems.DenseKernel(d, t, grain, st, span)
}

// MaskedKernel declares the kernel of a system over live rows:
// [systems.MaskedKernel].
func MaskedKernel[S any](d *Decl, t *Table, grain int, st *S, chunk func(st *S, o *ChunkOut, base int, mask []uint64), segs []Segmented, counters ...Counter) *ChunkKernel[S] {
	return systems.MaskedKernel(d, t, grain, st, chunk, segs, counters...)
}

// EmitChunk emits v through the chunk's worker segment of e:
// [systems.EmitChunk].
func EmitChunk[T any](o *ChunkOut, e *ParallelEmitter[T], v T) bool {
	return systems.EmitChunk(o, e, v)
}

// SIMDVariant returns, of a dense kernel's SIMD variants v8 (LaneAVX2)
// and v16 (LaneAVX512), nil where this build has none, the widest at most
// l and its lane, else nil and LaneScalar: the variant a generated system
// runs in lane l (docs/schema.md, SIMD variants).
func SIMDVariant[S any](l Lane, v8, v16 func(st *S, lo, hi int) int) (func(st *S, lo, hi int) int, Lane) {
	switch {
	case l >= LaneAVX512 && v16 != nil:
		return v16, LaneAVX512
	case l >= LaneAVX2 && v8 != nil:
		return v8, LaneAVX2
	}
	return nil, LaneScalar
}
