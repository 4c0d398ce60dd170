package index

import (
	"fmt"
)

// linkedGrid is the grid's layout before the runs (kept as the baseline
// of BenchmarkGridRefile): each cell's rows an intrusive doubly linked
// list, the occupied cells in a table sized from the capacity.
type linkedGrid struct {
	size float32
	inv  float64

	// Per row.
	cell []Cell
	cid  []int32 // the row's cell record, linkedOutside, or noGroup when unfiled
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

const linkedOutside int32 = -2

// NewGrid returns an empty grid of cells of side size (world units) for
// rows 0..capacity-1, or ErrCapacity, or ErrCellSize when size is not a
// finite number of at least MinCell. It allocates everything the grid will use:
// about 44 bytes a row plus a table of 4 bytes by the power of two at
// least twice the capacity.
func newLinkedGrid(capacity int, size float32) (*linkedGrid, error) {
	if err := checkCap(capacity); err != nil {
		return nil, err
	}
	if !CellSizeOK(size) {
		return nil, fmt.Errorf("%w: %v (a finite size of at least 2^-31)", ErrCellSize, size)
	}
	ts := tableSize(capacity)
	g := &linkedGrid{
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

// Insert files row at (x, y). It panics when row is out of range or
// filed already. O(1) expected.
func (g *linkedGrid) Insert(row int32, x, y float32) {
	checkRow("Insert", row, len(g.cid))
	if g.cid[row] != noGroup {
		panic(fmt.Sprintf("index: Insert of row %d, which is filed already: use Update to change its key", row))
	}
	g.file(row, g.cellOf(x, y))
}

// Remove unfiles row; false when it was not filed. It panics when row is
// out of range. O(1) expected.
func (g *linkedGrid) Remove(row int32) bool {
	checkRow("Remove", row, len(g.cid))
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
func (g *linkedGrid) Update(row int32, x, y float32) bool {
	checkRow("Update", row, len(g.cid))
	c := g.cellOf(x, y)
	if g.cell[row] == c && g.cid[row] != noGroup {
		return false
	}
	g.move(row, c)
	return true
}

// move files row in cell c, from its cell if it had one.
func (g *linkedGrid) move(row int32, c Cell) {
	if g.cid[row] != noGroup {
		g.unfile(row)
	}
	g.file(row, c)
}

// Key returns row's cell and whether row is filed. It panics when row is
// out of range.
func (g *linkedGrid) Key(row int32) (Cell, bool) {
	checkRow("Key", row, len(g.cid))
	if g.cid[row] == noGroup {
		return Cell{}, false
	}
	return g.cell[row], true
}

// Len returns the number of filed rows.
func (g *linkedGrid) Len() int { return g.n }

// Cells returns the number of occupied cells (Outside not counted).
func (g *linkedGrid) Cells() int { return g.nc }

// Clear unfiles every row. O(capacity).
func (g *linkedGrid) Clear() {
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

// find returns the record of cell c, or noGroup.
func (g *linkedGrid) find(c Cell) int32 {
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

func (g *linkedGrid) file(row int32, c Cell) {
	g.cell[row] = c
	g.n++
	g.prev[row] = NoRow
	if c == Outside {
		g.cid[row] = linkedOutside
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

func (g *linkedGrid) unfile(row int32) {
	id := g.cid[row]
	p, s := g.prev[row], g.next[row]
	if s != NoRow {
		g.prev[s] = p
	}
	g.cid[row] = noGroup
	g.cell[row] = Cell{}
	g.n--
	if id == linkedOutside {
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

func (g *linkedGrid) dropCell(id int32) {
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

func (g *linkedGrid) cellOf(x, y float32) Cell {
	fx, fy := float64(x)*g.inv, float64(y)*g.inv
	if fx-fx != 0 || fy-fy != 0 {
		return Outside
	}
	return Cell{clampFloor(fx), clampFloor(fy)}
}
