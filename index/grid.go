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

// Bounds is the half-open box [X0, X1) × [Y0, Y1) of float32 points, in
// world units: the points a grid files in one cell (Grid.CellBounds).
type Bounds struct{ X0, Y0, X1, Y1 float32 }

// Holds reports whether X0 <= x < X1 and Y0 <= y < Y1 (false when x or
// y is NaN): four comparisons, no arithmetic. It reads b only.
func (b Bounds) Holds(x, y float32) bool {
	return x >= b.X0 && x < b.X1 && y >= b.Y0 && y < b.Y1
}

// Grid is a spatial index over two float32 columns: rows by the square
// cell of side Size their point falls in (package doc, Kinds; candidate
// order: Rows and order).
//
// Layout: the occupied cells are records (cell, bounds, run of rows)
// found through an open-addressing table sized from the capacity (linear
// probing, backward-shift deletion), so coordinates need no bounds. Each
// record's rows are a contiguous run of one shared row array (twice the
// capacity long), in no order, with each row's place in its run kept per
// row: a row leaves its cell by a swap-remove (the run's last row takes
// its place) and joins one by an append to the run, touching no other
// row's cell. A run that is full moves to the array's free end with room
// to grow by half; when the free end is used up, the runs are packed and
// spread again with room in proportion to their rows (compact: O(rows +
// cells), no allocation), which amortises to O(1) a row. The rows of
// Outside are one more record. Candidates are put in ascending row order
// after they are gathered (sortCandidates). Everything is allocated by
// NewGrid.
type Grid struct {
	size float32
	inv  float64

	// Per row.
	rec  []int32 // the row's cell record (recOutside, recUnfiled)
	slot []int32 // the row's place in its record's run
	n    int

	// Per record (ids 0..capacity-1 cells, then recOutside, recUnfiled);
	// order[:nc] are the occupied cells, order[nc:] the free ids; pos[c]
	// is c's place in order.
	cc     []Cell
	box    []Bounds // the points of the record's cell (CellBounds)
	start  []int32  // the run's first place in runs
	cn     []int32  // the run's rows
	room   []int32  // the run's reserved places (cn <= room)
	order  []int32
	pos    []int32
	nc     int
	outRec int32 // recOutside
	unRec  int32 // recUnfiled

	runs        []int32 // the records' runs; runs[tail:] is free
	tail        int32
	compactions int // compact's calls (tests check they happen)

	// The open-addressing table: table[:mask+1] in use, a power of two
	// at least twice the occupied cells (grown in place, so that a few
	// cells' probes stay in a few cache lines), up to all of table.
	table []int32 // cell record + 1; 0 is an empty slot
	mask  uint64
}

// minTable is the length of the table in use of an empty grid.
const minTable = 16

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
// finite number of at least MinCell. It allocates everything the grid
// will use (GridBytes): about 60 bytes a row plus a table of 4 bytes by
// the power of two at least twice the capacity.
func NewGrid(capacity int, size float32) (*Grid, error) {
	if err := checkCap(capacity); err != nil {
		return nil, err
	}
	if !CellSizeOK(size) {
		return nil, fmt.Errorf("%w: %v (a finite size of at least 2^-31)", ErrCellSize, size)
	}
	ts := tableSize(capacity)
	recs := capacity + 2
	g := &Grid{
		size:   size,
		inv:    1 / float64(size),
		rec:    make([]int32, capacity),
		slot:   make([]int32, capacity),
		cc:     make([]Cell, recs),
		box:    make([]Bounds, recs),
		start:  make([]int32, recs),
		cn:     make([]int32, recs),
		room:   make([]int32, recs),
		order:  make([]int32, capacity),
		pos:    make([]int32, capacity),
		outRec: int32(capacity),
		unRec:  int32(capacity + 1),
		runs:   make([]int32, runsLen(capacity)),
		table:  make([]int32, ts),
		mask:   ts - 1,
	}
	inf := float32(math.Inf(1))
	// Outside holds no point: a kernel's test always reports its rows.
	g.cc[g.outRec], g.box[g.outRec] = Outside, Bounds{inf, inf, -inf, -inf}
	// An unfiled row holds every point: a kernel need not mark it (the
	// sync that files it reads its point then).
	g.box[g.unRec] = Bounds{-inf, -inf, inf, inf}
	g.Clear()
	return g, nil
}

// runsLen is the length of a grid's shared row array: twice the
// capacity, so that the runs keep room to grow.
func runsLen(capacity int) int { return 2 * capacity }

func (g *Grid) check(method string, row int32) { checkRow(method, row, len(g.rec)) }

// filed: row is filed (in a cell or Outside).
func (g *Grid) filed(row int32) bool { return g.rec[row] != g.unRec }

// Insert files row at (x, y). It panics when row is out of range or
// filed already. O(1) amortised.
func (g *Grid) Insert(row int32, x, y float32) {
	g.check("Insert", row)
	if g.filed(row) {
		panic(fmt.Sprintf("index: Insert of row %d, which is filed already: use Update to change its key", row))
	}
	g.file(row, g.CellOf(x, y))
}

// Remove unfiles row; false when it was not filed. It panics when row is
// out of range. O(1) expected.
func (g *Grid) Remove(row int32) bool {
	g.check("Remove", row)
	if !g.filed(row) {
		return false
	}
	g.unfile(row)
	return true
}

// Update files row at (x, y); it reports whether row changed cell (an
// unfiled row is filed). It panics when row is out of range. O(1)
// amortised: a row that stays in its cell costs the cell's computation
// and one comparison; a crossing costs a swap-remove from its run and an
// append to another's.
func (g *Grid) Update(row int32, x, y float32) bool {
	checkRow("Update", row, len(g.rec))
	c := g.CellOf(x, y)
	if id := g.rec[row]; id != g.unRec && g.cc[id] == c {
		return false
	}
	if g.filed(row) {
		g.unfile(row)
	}
	g.file(row, c)
	return true
}

// Key returns row's cell and whether row is filed. It panics when row is
// out of range.
func (g *Grid) Key(row int32) (Cell, bool) {
	g.check("Key", row)
	if !g.filed(row) {
		return Cell{}, false
	}
	return g.cc[g.rec[row]], true
}

// Len returns the number of filed rows.
func (g *Grid) Len() int { return g.n }

// Cells returns the number of occupied cells (Outside not counted).
func (g *Grid) Cells() int { return g.nc }

// Filing returns the grid's filing as a kernel that moves rows tests it:
// rec[row] is the record of the cell row is filed in, and box[rec[row]]
// the points of that cell (CellBounds; for a row with a non-finite
// point, filed in Outside, a box that holds no point; for an unfiled
// row, one that holds every point; rec[row] is len(rec) for a row in
// Outside and len(rec)+1 for an unfiled one). A row whose new point (x, y) has
// box[rec[row]].Holds(x, y) stays in its cell, exactly as CellOf says
// (TestFilingMatchesCellOf); one that does not may have left it. Both
// slices live as long as the grid (capacity and capacity+2 long) and
// change only when it is written: read them only, while nothing writes
// the grid (package doc, Contract).
func (g *Grid) Filing() (rec []int32, box []Bounds) { return g.rec, g.box }

// Clear unfiles every row. O(capacity).
func (g *Grid) Clear() {
	clear(g.table)
	for i := range g.rec {
		g.rec[i] = g.unRec
		g.order[i] = int32(i)
		g.pos[i] = int32(i)
	}
	g.n, g.nc = 0, 0
	g.mask = uint64(min(minTable, len(g.table))) - 1
	g.tail = 0
	g.cn[g.outRec], g.room[g.outRec], g.start[g.outRec] = 0, 0, 0
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

// newCell takes a free record for cell c (no run yet).
func (g *Grid) newCell(c Cell) int32 {
	id := g.order[g.nc]
	g.nc++
	g.cc[id], g.box[id] = c, g.CellBounds(c)
	g.cn[id], g.room[id] = 0, 0
	if 2*uint64(g.nc) > g.mask+1 && g.mask+1 < uint64(len(g.table)) {
		g.widen() // id is in order[:nc]: widen files it
		return id
	}
	g.place(id)
	return id
}

// place files record id in the table.
func (g *Grid) place(id int32) {
	i := cellHash(g.cc[id]) & g.mask
	for g.table[i] != 0 {
		i = (i + 1) & g.mask
	}
	g.table[i] = id + 1
}

// widen doubles the table in use and files the occupied cells again:
// O(cells), once per doubling, so O(1) amortised a cell.
func (g *Grid) widen() {
	g.mask = 2*(g.mask+1) - 1
	clear(g.table[:g.mask+1])
	for _, id := range g.order[:g.nc] {
		g.place(id)
	}
}

func (g *Grid) file(row int32, c Cell) {
	id := g.outRec
	if c != Outside {
		if id = g.find(c); id == noGroup {
			id = g.newCell(c)
		}
	}
	if g.cn[id] == g.room[id] {
		g.grow(id)
	}
	s := g.cn[id]
	g.runs[g.start[id]+s] = row
	g.slot[row] = s
	g.cn[id] = s + 1
	g.rec[row] = id
	g.n++
}

func (g *Grid) unfile(row int32) {
	id := g.rec[row]
	s, last := g.slot[row], g.cn[id]-1
	st := g.start[id]
	if s != last {
		moved := g.runs[st+last]
		g.runs[st+s] = moved
		g.slot[moved] = s
	}
	g.cn[id] = last
	g.rec[row] = g.unRec
	g.n--
	if last == 0 {
		if st+g.room[id] == g.tail {
			g.tail = st // the run at the free end: its places are free again
		}
		g.room[id] = 0
		if id != g.outRec {
			g.dropCell(id)
		}
	}
}

// grow gives record id's full run room for at least one more row: in
// place when the run ends at the free end, else by moving it there, else
// by compacting every run (which leaves id room).
func (g *Grid) grow(id int32) {
	n, room, st := g.cn[id], g.room[id], g.start[id]
	want := n + n/2 + 4
	free := int32(len(g.runs)) - g.tail
	switch {
	case room > 0 && st+room == g.tail && want-room <= free:
		g.tail += want - room
	case want <= free:
		copy(g.runs[g.tail:], g.runs[st:st+n])
		g.start[id] = g.tail
		g.tail += want
	default:
		g.compact(id)
		if g.room[id] > g.cn[id] {
			return
		}
		want = min(4, int32(len(g.runs))-g.tail) // id has no run (compact left it room otherwise)
		g.start[id] = g.tail
		g.tail += want
	}
	g.room[id] = want
}

// extra is the room compact gives a run of n rows, before scaling.
func extra(n int32) int64 { return int64(n/4 + 2) }

// compact packs every run to the front of runs and spreads them again
// with room for extra rows each (scaled down so that at least half of
// the free places stay at the free end), giving record id (about to
// grow) room for one more row at least. O(places used + cells), in
// place: a place holds a live row r exactly when it is r's canonical
// place start[rec[r]] + slot[r], so the runs are found in place order
// without a second array.
func (g *Grid) compact(id int32) {
	g.compactions++
	// Pack: the runs in place order, to the front.
	w := int32(0)
	var want int64
	for p := int32(0); p < g.tail; {
		r := g.runs[p]
		q := g.rec[r]
		if q == g.unRec || g.start[q]+g.slot[r] != p {
			p++
			continue
		}
		n := g.cn[q] // r is the first row of q's run (slot 0): n >= 1
		copy(g.runs[w:], g.runs[p:p+n])
		p += max(n, 1)
		g.start[q] = w
		w += n
		want += extra(n)
	}
	spare := int64(len(g.runs)) - int64(w)
	scale := func(e int64) int64 { return e }
	if want > spare/2 {
		budget := spare / 2
		scale = func(e int64) int64 { return e * budget / want }
	}
	// Spread: the runs from the last, each moved right to its place.
	var total int64
	for p := w - 1; p >= 0; {
		q := g.rec[g.runs[p]]
		total += scale(extra(g.cn[q]))
		p = g.before(q, p)
	}
	if g.cn[id] > 0 && scale(extra(g.cn[id])) == 0 {
		total++ // id's one place (spare >= 1: fewer rows than capacity are filed)
	}
	right := int32(int64(w) + total)
	g.tail = right
	for p := w - 1; p >= 0; {
		q := g.rec[g.runs[p]]
		n, st := g.cn[q], g.start[q]
		e := int32(scale(extra(n)))
		if q == id && e == 0 {
			e = 1
		}
		right -= n + e
		copy(g.runs[right:], g.runs[st:st+n])
		g.start[q], g.room[q] = right, n+e
		p = st - 1
	}
}

// before is the place before record q's packed run, which holds place p:
// it panics when the run does not (the runs no longer match the rows'
// places, which only a bug in the grid makes: a panic, not a loop).
func (g *Grid) before(q int32, p int32) int32 {
	st := g.start[q]
	if q == g.unRec || st > p || st+g.cn[q] <= p {
		panic(fmt.Sprintf("index: grid runs inconsistent at place %d (record %d): a bug in package index", p, q))
	}
	return st - 1
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

// run returns the rows of record id.
func (g *Grid) run(id int32) []int32 {
	st := g.start[id]
	return g.runs[st : st+g.cn[id]]
}

// AppendBox appends to dst, in ascending row order, every filed row whose
// cell the box [x0, x1] × [y0, y1] touches, and every row in Outside: a
// superset of the rows whose point is in the box, which the caller tests
// exactly. A box with a NaN bound, or with x1 < x0 or y1 < y0, touches no
// cell (its Outside rows are still appended). Cost: O(min(cells the box
// touches, occupied cells) + candidates), each cell's rows a contiguous
// copy, plus their sort (a radix sort in dst's spare capacity). It
// allocates only when dst must grow, and the sort needs room for twice
// the candidates (n new candidates need len(dst)+2n capacity, or
// len(dst)+n when n <= 24): a dst reused from call to call stops
// allocating once grown. It reads the grid only (package doc, Contract).
func (g *Grid) AppendBox(dst []int32, x0, y0, x1, y1 float32) []int32 {
	start := len(dst)
	if lo, hi, ok := g.span(x0, y0, x1, y1); ok {
		w := int64(hi.X) - int64(lo.X) + 1
		h := int64(hi.Y) - int64(lo.Y) + 1
		if nc := int64(g.nc); w <= nc && h <= nc && w*h <= nc {
			for cy := int64(lo.Y); cy <= int64(hi.Y); cy++ {
				for cx := int64(lo.X); cx <= int64(hi.X); cx++ {
					if id := g.find(Cell{int32(cx), int32(cy)}); id != noGroup {
						dst = append(dst, g.run(id)...)
					}
				}
			}
		} else {
			for _, id := range g.order[:g.nc] {
				if c := g.cc[id]; c.X >= lo.X && c.X <= hi.X && c.Y >= lo.Y && c.Y <= hi.Y {
					dst = append(dst, g.run(id)...)
				}
			}
		}
	}
	dst = append(dst, g.run(g.outRec)...)
	return sortCandidates(dst, start, len(g.rec))
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
	dst = g.discCells(dst, float64(x), float64(y), rr)
	dst = append(dst, g.run(g.outRec)...)
	return sortCandidates(dst, start, len(g.rec))
}

func (g *Grid) discCells(dst []int32, x, y, r float64) []int32 {
	if x != x || y != y || r != r || r < 0 {
		return dst
	}
	if math.IsInf(r, 1) {
		for _, id := range g.order[:g.nc] {
			dst = append(dst, g.run(id)...)
		}
		return dst
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return dst
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
					dst = append(dst, g.run(id)...)
				}
			}
		}
		return dst
	}
	for _, id := range g.order[:g.nc] {
		c := g.cc[id]
		if c.X < loX || c.X > hiX || c.Y < loY || c.Y > hiY {
			continue
		}
		dx, dy := g.gap(x, int64(c.X), size), g.gap(y, int64(c.Y), size)
		if dx*dx+dy*dy <= R*R {
			dst = append(dst, g.run(id)...)
		}
	}
	return dst
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

// CellBounds returns the points CellOf files in cell c: the half-open
// box [X0, X1) × [Y0, Y1) of finite float32 points (X0 and X1 of c.X,
// Y0 and Y1 of c.Y), so that Bounds.Holds(x, y) is CellOf(x, y) == c for
// every x, y, bit for bit (TestFilingMatchesCellOf): each side is the
// least float32 whose cell coordinate (CellOf's floor(v·(1/Size)) in
// float64, clamped) reaches the coordinate, found from v = coord·Size by
// stepping a float at a time, which CellOf's monotone rule allows. The
// clamped edge cells reach -MaxFloat32 and +Inf (an infinite point is
// Outside and Holds rejects it); a coordinate no finite point reaches
// has X0 = X1 = +Inf. Outside holds no point: {+Inf, +Inf, -Inf, -Inf}.
// O(1): a few CellOf computations.
func (g *Grid) CellBounds(c Cell) Bounds {
	if c == Outside {
		inf := float32(math.Inf(1))
		return Bounds{inf, inf, -inf, -inf}
	}
	return Bounds{g.lowSide(int64(c.X)), g.lowSide(int64(c.Y)), g.lowSide(int64(c.X) + 1), g.lowSide(int64(c.Y) + 1)}
}

// lowSide is the least finite float32 whose clamped cell coordinate is at
// least c (-MaxFloat32 when every one's is; +Inf when none's is).
func (g *Grid) lowSide(c int64) float32 {
	if c <= math.MinInt32+1 {
		return -math.MaxFloat32
	}
	if c > math.MaxInt32 {
		return float32(math.Inf(1))
	}
	at := func(v float32) bool { return int64(g.coord(v)) >= c }
	v64 := float64(c) * float64(g.size)
	var v float32
	switch {
	case v64 >= math.MaxFloat32:
		v = math.MaxFloat32
	case v64 <= -math.MaxFloat32:
		v = -math.MaxFloat32
	default:
		v = float32(v64)
	}
	if at(v) {
		for v > -math.MaxFloat32 {
			d := math.Nextafter32(v, float32(math.Inf(-1)))
			if !at(d) {
				break
			}
			v = d
		}
		return v
	}
	for !at(v) {
		if v == math.MaxFloat32 {
			return float32(math.Inf(1))
		}
		v = math.Nextafter32(v, float32(math.Inf(1)))
	}
	return v
}
