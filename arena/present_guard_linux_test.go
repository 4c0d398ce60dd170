package arena

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// guarded returns a slice of n elements of T that ends exactly where an
// inaccessible page begins: a kernel that loads or stores one element past
// it crashes the test binary (SIGSEGV). release unmaps it.
func guarded[T any](t *testing.T, n int) (s []T, release func()) {
	t.Helper()
	page := syscall.Getpagesize()
	size := int(unsafe.Sizeof(*new(T)))
	data := (n*size + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, data+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	require.NoError(t, syscall.Mprotect(mem[data:], syscall.PROT_NONE))
	end := unsafe.Pointer(&mem[data-1])
	start := unsafe.Add(end, 1-n*size)
	return unsafe.Slice((*T)(start), n), func() { _ = syscall.Munmap(mem) }
}

// TestHandKernelsNoReadPastTheEnd runs moveBounce and advance in every lane
// on slices that end at a guard page, for lengths that leave every tail.
func TestHandKernelsNoReadPastTheEnd(t *testing.T) {
	forLanes(t, func(t *testing.T, l tickwork.Lane) {
		for n := 1; n <= 40; n++ {
			x, rx := guarded[float32](t, n)
			y, ry := guarded[float32](t, n)
			vx, rvx := guarded[float32](t, n)
			vy, rvy := guarded[float32](t, n)
			ttl, rttl := guarded[int32](t, n)
			for i := range n {
				x[i], y[i], vx[i], vy[i], ttl[i] = 1, 2, float32(i), -float32(i), int32(i)
			}
			moveBounce(l, x, y, vx, vy)
			advance(l, x, y, vx, vy, ttl)
			require.Equal(t, int32(n-2), ttl[n-1])
			for _, r := range []func(){rx, ry, rvx, rvy, rttl} {
				r()
			}
		}
	})
}

// TestPresentNoReadPastTheEnd: presentLane in every lane on columns, a
// bitmap and records that each end at a guard page.
func TestPresentNoReadPastTheEnd(t *testing.T) {
	forLanes(t, func(t *testing.T, l tickwork.Lane) {
		for n := 1; n <= 140; n++ {
			x, rx := guarded[float32](t, n)
			y, ry := guarded[float32](t, n)
			h, rh := guarded[int32](t, n)
			mask, rm := guarded[uint64](t, (n+63)/64)
			pres, rp := guarded[rules.Slot](t, n)
			for i := range mask {
				mask[i] = ^uint64(0)
			}
			presentLane(l, pres, x, y, h, mask)
			require.Equal(t, uint8(1), pres[n-1].Alive)
			for _, r := range []func(){rx, ry, rh, rm, rp} {
				r()
			}
		}
	})
}
