package index

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Cell is a grid cell: floor(x/size), floor(y/size), each clamped to
// int32; a row with a NaN or infinite coordinate is in the cell Outside.
type Cell struct{ X, Y int32 }

// Outside is the cell of rows with a non-finite coordinate; every box and
// disc query returns them as candidates.
var Outside = Cell{math.MinInt32, math.MinInt32}

// Grid is a spatial index over two float32 columns: rows by the square
// cell of side Size their point falls in (package doc, Kinds; candidate
// order: Rows and order).
//
// Layout: the occupied cells are records (cell, first row, count) found
// through an open-addressing table sized from the capacity (linear
// probing, backward-shift deletion), so coordinates need no bounds; a
// cell's rows form an intrusive doubly linked list in no order, and the
// rows of Outside one more list. Candidates are put in ascending row
// order after they are gathered (sortCandidates). Everything else is
// allocated by NewGrid.
type Grid struct {
	size float32
	inv  float64

	// Per row.
	cell []Cell
	cid  []int32 // the row's cell record, cellOutside, or noGroup when unfiled
	next []int32 // the next row of the cell's list, or NoRow
	prev []int32 // the previous row of the cell's list, or NoRow
	n    int

	// Per cell record (ids 0..capacity-1); order[:nc] are the occupied
	// cells, order[nc:] the free ids; pos[c] is c's place in order.
	cc    []Cell
	chead []int32
	cn    []int32
	order []int32
	pos   []int32
	nc    int

	outHead int32
	outN    int

	table []int32 // cell record + 1; 0 is an empty slot
	mask  uint64
}

const cellOutside int32 = -2

// MinCell is the least cell size a grid takes: a grid's cells are
// int32 a side, so a smaller cell's grid (2^31 cells from the origin)
// would not reach one world unit, and every coordinate past it would
// fall in its edge cells (or, with a non-finite inverse, Outside).
const MinCell = 0x1p-31

// CellSizeOK reports whether size is a cell size a grid takes: finite and
// at least MinCell.
func CellSizeOK(size float32) bool {
	return size >= MinCell && !math.IsInf(float64(size), 1)
}

// NewGrid returns an empty grid of cells of side size (world units) for
// rows 0..capacity-1, or ErrCapacity, or ErrCellSize when size is not a
// finite number of at least MinCell. It allocates everything the grid will use:
// about 44 bytes a row plus a table of 4 bytes by the power of two at
// least twice the capacity.
func NewGrid(capacity int, size float32) (*Grid, error) {
	if err := checkCap(capacity); err != nil {
		return nil, err
	}
	if !CellSizeOK(size) {
		return nil, fmt.Errorf("%w: %v (a finite size of at least 2^-31)", ErrCellSize, size)
	}
	ts := tableSize(capacity)
	g := &Grid{
		size:  size,
		inv:   1 / float64(size),
		cell:  make([]Cell, capacity),
		cid:   make([]int32, capacity),
		next:  make([]int32, capacity),
		prev:  make([]int32, capacity),
		cc:    make([]Cell, capacity),
		chead: make([]int32, capacity),
		cn:    make([]int32, capacity),
		order: make([]int32, capacity),
		pos:   make([]int32, capacity),
		table: make([]int32, ts),
		mask:  ts - 1,
	}
	g.Clear()
	return g, nil
}

func (g *Grid) check(method string, row int32) { checkRow(method, row, len(g.cid)) }

// Insert files row at (x, y). It panics when row is out of range or
// filed already. O(1) expected.
func (g *Grid) Insert(row int32, x, y float32) {
	g.check("Insert", row)
	if g.cid[row] != noGroup {
		panic(fmt.Sprintf("index: Insert of row %d, which is filed already: use Update to change its key", row))
	}
	g.file(row, g.CellOf(x, y))
}

// Remove unfiles row; false when it was not filed. It panics when row is
// out of range. O(1) expected.
func (g *Grid) Remove(row int32) bool {
	g.check("Remove", row)
	if g.cid[row] == noGroup {
		return false
	}
	g.unfile(row)
	return true
}

// Update files row at (x, y); it reports whether row changed cell (an
// unfiled row is filed). It panics when row is out of range. O(1): a
// row that stays in its cell costs the cell's computation and one
// comparison; a crossing costs a Remove and an Insert.
func (g *Grid) Update(row int32, x, y float32) bool {
	checkRow("Update", row, len(g.cid))
	c := g.CellOf(x, y)
	if g.cell[row] == c && g.cid[row] != noGroup {
		return false
	}
	g.move(row, c)
	return true
}

// move files row in cell c, from its cell if it had one.
func (g *Grid) move(row int32, c Cell) {
	if g.cid[row] != noGroup {
		g.unfile(row)
	}
	g.file(row, c)
}

// Key returns row's cell and whether row is filed. It panics when row is
// out of range.
func (g *Grid) Key(row int32) (Cell, bool) {
	g.check("Key", row)
	if g.cid[row] == noGroup {
		return Cell{}, false
	}
	return g.cell[row], true
}

// Len returns the number of filed rows.
func (g *Grid) Len() int { return g.n }

// Cells returns the number of occupied cells (Outside not counted).
func (g *Grid) Cells() int { return g.nc }

// Clear unfiles every row. O(capacity).
func (g *Grid) Clear() {
	clear(g.cell)
	clear(g.table)
	for i := range g.cid {
		g.cid[i] = noGroup
		g.order[i] = int32(i)
		g.pos[i] = int32(i)
	}
	g.n, g.nc = 0, 0
	g.outHead, g.outN = NoRow, 0
}

func cellHash(c Cell) uint64 {
	x := uint64(uint32(c.X))<<32 | uint64(uint32(c.Y))
	x = (x ^ x>>33) * 0xff51afd7ed558ccd
	x = (x ^ x>>33) * 0xc4ceb9fe1a85ec53
	return x ^ x>>33
}

// find returns the record of cell c, or noGroup.
func (g *Grid) find(c Cell) int32 {
	for i := cellHash(c) & g.mask; ; i = (i + 1) & g.mask {
		e := g.table[i]
		if e == 0 {
			return noGroup
		}
		if g.cc[e-1] == c {
			return e - 1
		}
	}
}

func (g *Grid) file(row int32, c Cell) {
	g.cell[row] = c
	g.n++
	g.prev[row] = NoRow
	if c == Outside {
		g.cid[row] = cellOutside
		g.next[row] = g.outHead
		if g.outHead != NoRow {
			g.prev[g.outHead] = row
		}
		g.outHead = row
		g.outN++
		return
	}
	id := g.find(c)
	if id == noGroup {
		id = g.order[g.nc]
		g.nc++
		g.cc[id], g.chead[id], g.cn[id] = c, NoRow, 0
		i := cellHash(c) & g.mask
		for g.table[i] != 0 {
			i = (i + 1) & g.mask
		}
		g.table[i] = id + 1
	}
	g.cid[row] = id
	h := g.chead[id]
	g.next[row] = h
	if h != NoRow {
		g.prev[h] = row
	}
	g.chead[id] = row
	g.cn[id]++
}

func (g *Grid) unfile(row int32) {
	id := g.cid[row]
	p, s := g.prev[row], g.next[row]
	if s != NoRow {
		g.prev[s] = p
	}
	g.cid[row] = noGroup
	g.cell[row] = Cell{}
	g.n--
	if id == cellOutside {
		if p == NoRow {
			g.outHead = s
		} else {
			g.next[p] = s
		}
		g.outN--
		return
	}
	if p == NoRow {
		g.chead[id] = s
	} else {
		g.next[p] = s
	}
	if g.cn[id]--; g.cn[id] == 0 {
		g.dropCell(id)
	}
}

func (g *Grid) dropCell(id int32) {
	i := cellHash(g.cc[id]) & g.mask
	for g.table[i] != id+1 {
		i = (i + 1) & g.mask
	}
	for j := (i + 1) & g.mask; ; j = (j + 1) & g.mask {
		e := g.table[j]
		if e == 0 {
			break
		}
		home := cellHash(g.cc[e-1]) & g.mask
		if (j-home)&g.mask >= (j-i)&g.mask {
			g.table[i] = e
			i = j
		}
	}
	g.table[i] = 0
	last := int32(g.nc - 1)
	p := g.pos[id]
	o := g.order[last]
	g.order[p], g.pos[o] = o, p
	g.order[last], g.pos[id] = id, last
	g.nc--
}

// lanes is how many cells' lists a gather walks in lock-step: a list is
// a chain of dependent loads, and chains walked side by side overlap
// their cache misses.
const lanes = 16

// gather holds the cursors of the cells' lists being walked.
type gather struct {
	cur [lanes]int32
	k   int
}

// add queues the rows of record id, walking the queue when it is full.
func (g *Grid) add(q *gather, dst []int32, id int32) []int32 {
	q.cur[q.k] = g.chead[id] // an occupied cell has a row
	q.k++
	if q.k == lanes {
		dst = g.drain(q, dst)
	}
	return dst
}

// drain appends the rows of the queued lists, one step of each in turn.
func (g *Grid) drain(q *gather, dst []int32) []int32 {
	k := q.k
	for k > 0 {
		for i := 0; i < k; {
			r := q.cur[i]
			dst = append(dst, r)
			if nx := g.next[r]; nx != NoRow {
				q.cur[i] = nx
				i++
			} else {
				k--
				q.cur[i] = q.cur[k]
			}
		}
	}
	q.k = 0
	return dst
}

// AppendBox appends to dst, in ascending row order, every filed row whose
// cell the box [x0, x1] × [y0, y1] touches, and every row in Outside: a
// superset of the rows whose point is in the box, which the caller tests
// exactly. A box with a NaN bound, or with x1 < x0 or y1 < y0, touches no
// cell (its Outside rows are still appended). Cost: O(min(cells the box
// touches, occupied cells) + candidates), plus their sort (a radix sort
// in dst's spare capacity). It allocates only when dst must grow, and
// the sort needs room for twice the candidates (n new candidates need
// len(dst)+2n capacity, or len(dst)+n when n <= 24): a dst reused from
// call to call stops allocating once grown. It reads the grid only
// (package doc, Contract).
func (g *Grid) AppendBox(dst []int32, x0, y0, x1, y1 float32) []int32 {
	start := len(dst)
	var q gather
	if lo, hi, ok := g.span(x0, y0, x1, y1); ok {
		w := int64(hi.X) - int64(lo.X) + 1
		h := int64(hi.Y) - int64(lo.Y) + 1
		if nc := int64(g.nc); w <= nc && h <= nc && w*h <= nc {
			for cy := int64(lo.Y); cy <= int64(hi.Y); cy++ {
				for cx := int64(lo.X); cx <= int64(hi.X); cx++ {
					if id := g.find(Cell{int32(cx), int32(cy)}); id != noGroup {
						dst = g.add(&q, dst, id)
					}
				}
			}
		} else {
			for _, id := range g.order[:g.nc] {
				if c := g.cc[id]; c.X >= lo.X && c.X <= hi.X && c.Y >= lo.Y && c.Y <= hi.Y {
					dst = g.add(&q, dst, id)
				}
			}
		}
	}
	dst = g.drain(&q, dst)
	for r := g.outHead; r != NoRow; r = g.next[r] {
		dst = append(dst, r)
	}
	return sortCandidates(dst, start, len(g.cid))
}

// AppendRadius appends to dst, in ascending row order, every filed row
// whose cell the disc of centre (x, y) and radius r touches, and every
// row in Outside: a superset of the rows whose point p has |p - (x, y)|
// <= r, with a margin (a relative 2^-16 of r, and 2^-20 of |x|+|y|) so
// that a caller's float32 distance test never accepts a row outside the
// candidates. Only the cells the disc touches are visited (each row of
// cells across the disc's width at that row). A NaN argument, r < 0, or
// an infinite centre with a finite r touches no cell; an r whose float32
// square overflows (|r| > 1.8e19, +Inf) touches every cell. Cost and allocation as AppendBox.
func (g *Grid) AppendRadius(dst []int32, x, y, r float32) []int32 {
	start := len(dst)
	rr := float64(r)
	if sq := r * r; r > 0 && math.IsInf(float64(sq), 1) {
		// A float32 distance test against r*r = +Inf accepts every point
		// whose squared distance overflows too: every cell is a candidate.
		rr = math.Inf(1)
	}
	var q gather
	g.discCells(&q, &dst, float64(x), float64(y), rr)
	dst = g.drain(&q, dst)
	for row := g.outHead; row != NoRow; row = g.next[row] {
		dst = append(dst, row)
	}
	return sortCandidates(dst, start, len(g.cid))
}

func (g *Grid) discCells(q *gather, dst *[]int32, x, y, r float64) {
	if x != x || y != y || r != r || r < 0 {
		return
	}
	if math.IsInf(r, 1) {
		for _, id := range g.order[:g.nc] {
			*dst = g.add(q, *dst, id)
		}
		return
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return
	}
	R := r + r/65536 + (math.Abs(x)+math.Abs(y))/(1<<20)
	loY, hiY := g.coord64(y-R), g.coord64(y+R)
	loX, hiX := g.coord64(x-R), g.coord64(x+R)
	w := int64(hiX) - int64(loX) + 1
	h := int64(hiY) - int64(loY) + 1
	size := float64(g.size)
	if nc := int64(g.nc); w <= nc && h <= nc && w*h <= nc {
		for cy := int64(loY); cy <= int64(hiY); cy++ {
			dy := g.gap(y, cy, size)
			half := math.Sqrt(max(R*R-dy*dy, 0))
			a, b := int64(g.coord64(x-half)), int64(g.coord64(x+half))
			for cx := a; cx <= b; cx++ {
				if id := g.find(Cell{int32(cx), int32(cy)}); id != noGroup {
					*dst = g.add(q, *dst, id)
				}
			}
		}
		return
	}
	for _, id := range g.order[:g.nc] {
		c := g.cc[id]
		if c.X < loX || c.X > hiX || c.Y < loY || c.Y > hiY {
			continue
		}
		dx, dy := g.gap(x, int64(c.X), size), g.gap(y, int64(c.Y), size)
		if dx*dx+dy*dy <= R*R {
			*dst = g.add(q, *dst, id)
		}
	}
}

// gap is the distance from v to the cells' interval of coordinate c (0
// inside it; the clamped end cells reach to infinity), shrunk by a
// 2^-20 of the cell for the rounding of the cell's bounds.
func (g *Grid) gap(v float64, c int64, size float64) float64 {
	if c <= math.MinInt32+1 || c >= math.MaxInt32 {
		return 0
	}
	lo := float64(c) * size
	hi := lo + size
	var d float64
	switch {
	case v < lo:
		d = lo - v
	case v > hi:
		d = v - hi
	}
	return max(d-size/(1<<20)-math.Abs(v)/(1<<20), 0)
}

// sortThreshold: up to this many candidates an insertion sort, above it
// a radix sort (BenchmarkGridSort at 100 000 rows, ~360 candidates:
// radix and a bitmap over the rows tie, pdqsort takes 1.5-2x, insertion
// 8x; the radix sort needs no scratch of the grid's, so reads stay
// read-only).
const sortThreshold = 24

// sortCandidates puts dst[start:] (distinct rows below capacity) in
// ascending order. The radix sort's buffer is dst's spare capacity: dst
// grows (allocates) only when it has less than len(dst[start:]) spare.
func sortCandidates(dst []int32, start, capacity int) []int32 {
	n := len(dst) - start
	if n <= sortThreshold {
		insertionSort(dst[start:])
		return dst
	}
	end := len(dst)
	dst = slices.Grow(dst, n)
	radixSort(dst[start:end], dst[end:end+n], capacity)
	return dst
}

func insertionSort(a []int32) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for ; j > 0 && a[j-1] > v; j-- {
			a[j] = a[j-1]
		}
		a[j] = v
	}
}

// radixSort sorts a (rows below capacity) through buf (len(a) long): LSD
// in the fewest passes of at most 10-bit digits that cover the rows.
func radixSort(a, buf []int32, capacity int) {
	if len(a) < 2 {
		return
	}
	width := bits.Len32(uint32(capacity - 1))
	passes := (width + 9) / 10
	digit := uint((width + passes - 1) / passes)
	buckets := 1 << digit
	var counts [1<<10 + 1]int32
	count := counts[:buckets+1]
	src, dst := a, buf
	for shift := uint(0); shift < uint(width); shift += digit {
		clear(count)
		mask := uint32(buckets - 1)
		for _, r := range src {
			count[(uint32(r)>>shift)&mask+1]++
		}
		for i := 1; i <= buckets; i++ {
			count[i] += count[i-1]
		}
		for _, r := range src {
			d := (uint32(r) >> shift) & mask
			dst[count[d]] = r
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}

// Size returns the cell side.
func (g *Grid) Size() float32 { return g.size }

// CellOf returns the cell of point (x, y): floor(x/Size), floor(y/Size)
// as the grid computes them (x·(1/Size) in float64), each clamped to
// MinInt32+1..MaxInt32, or Outside when x or y is NaN or infinite. A
// kernel that moves rows can compare the cells of a row's old and new
// point to mark only the rows that cross (a few ns a row, no memory
// touched but the grid's header).
func (g *Grid) CellOf(x, y float32) Cell {
	fx, fy := float64(x)*g.inv, float64(y)*g.inv // finite for finite x, y: |x|·inv < 1e84
	if fx-fx != 0 || fy-fy != 0 {                // NaN or ±Inf
		return Outside
	}
	return Cell{clampFloor(fx), clampFloor(fy)}
}

func finite(v float32) bool { return v-v == 0 }

func (g *Grid) coord(v float32) int32 { return g.coord64(float64(v)) }

// clampFloor is floor(v) clamped to MinInt32+1..MaxInt32 (v not NaN),
// by a truncation inside the range: no call, so CellOf inlines.
func clampFloor(v float64) int32 {
	if v < math.MinInt32+1 {
		return math.MinInt32 + 1
	}
	if v >= math.MaxInt32 {
		return math.MaxInt32
	}
	t := int32(v) // toward zero
	if float64(t) > v {
		t--
	}
	return t
}

// coord64 is the clamped cell coordinate of v (finite).
func (g *Grid) coord64(v float64) int32 { return clampFloor(v * g.inv) }

// span returns the cells of the box's corners, clamped; false when it
// touches none.
func (g *Grid) span(x0, y0, x1, y1 float32) (lo, hi Cell, ok bool) {
	if x0 != x0 || y0 != y0 || x1 != x1 || y1 != y1 || x1 < x0 || y1 < y0 {
		return lo, hi, false
	}
	return Cell{g.clampCoord(x0), g.clampCoord(y0)}, Cell{g.clampCoord(x1), g.clampCoord(y1)}, true
}

func (g *Grid) clampCoord(v float32) int32 {
	switch {
	case math.IsInf(float64(v), -1):
		return math.MinInt32 + 1
	case math.IsInf(float64(v), 1):
		return math.MaxInt32
	}
	return g.coord(v)
}
