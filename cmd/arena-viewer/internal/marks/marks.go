package marks

import (
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/raster"
)

// N is how many units the viewer rings: the ten weakest.
const N = 10

// Weakest holds the declared query WeakestUnits over one arena's tables
// and its last result.
type Weakest struct {
	q    *arena.WeakestUnits
	rows []arena.WeakestUnitsRow // the last Update's result, cap N
}

// New makes the query over t (arena.Sim.Tables) and its buffer of N rows.
// It runs nothing: call [Weakest.Update].
func New(t *arena.Tables) *Weakest {
	return &Weakest{q: arena.NewWeakestUnits(t), rows: make([]arena.WeakestUnitsRow, 0, N)}
}

// Update runs the query into the reused buffer: the N weakest live units
// (fewer when fewer live), health ascending, ties by entity index. Call it
// between frames. Allocates nothing.
func (w *Weakest) Update() { w.rows = w.q.Run(w.rows[:0], N) }

// Rows returns the last Update's result; valid until the next Update.
func (w *Weakest) Rows() []arena.WeakestUnitsRow { return w.rows }

// Draw rings each unit of the last result on c through v, at its
// position in pres (the slot-indexed presentation buffer: a unit's slot is
// its entity index; rules.Sim.Presentation), skipping a slot outside pres
// or not alive there. It returns how many rings were on the canvas and
// allocates nothing.
func (w *Weakest) Draw(c *raster.Canvas, v raster.View, pres []rules.Slot) int {
	n := 0
	for _, r := range w.rows {
		i := int(r.Unit.Index())
		if i >= len(pres) || pres[i].Alive == 0 {
			continue
		}
		if c.Highlight(v, pres[i].X, pres[i].Y) {
			n++
		}
	}
	return n
}
