package commands_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
)

type world struct {
	units *ephemeral.Table
	value *ephemeral.Column[int64]
}

func newWorld(t testing.TB, capacity, chunkRows int) world {
	t.Helper()
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Capacity: capacity, ChunkRows: chunkRows})
	if err != nil {
		t.Fatal(err)
	}
	col, err := ephemeral.AddColumn[int64](tab, "value")
	if err != nil {
		t.Fatal(err)
	}
	return world{tab, col}
}

// insert inserts n rows with values 1..n directly and returns their handles.
func (w world) insert(t testing.TB, n int) []ephemeral.Handle {
	t.Helper()
	hs := make([]ephemeral.Handle, n)
	if err := w.units.InsertN(hs); err != nil {
		t.Fatal(err)
	}
	for i, h := range hs {
		w.value.Set(h, int64(i+1))
	}
	return hs
}

// newBuffer makes a buffer of p with room for records records.
func newBuffer(t testing.TB, p *commands.Playback, records int) *commands.Buffer {
	t.Helper()
	b, err := p.NewBuffer("", records)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkStats(t *testing.T, got, want commands.Stats) {
	t.Helper()
	gotErr, wantErr := got.Err, want.Err
	got.Err, want.Err = nil, nil
	if got != want {
		t.Errorf("stats = %+v\nwant    %+v", got, want)
	}
	if (gotErr == nil) != (wantErr == nil) {
		t.Errorf("stats.Err = %v, want %v", gotErr, wantErr)
	}
}

func mustResolve(t *testing.T, p *commands.Playback, h ephemeral.Handle) ephemeral.Handle {
	t.Helper()
	r, ok := p.Resolve(h)
	if !ok {
		t.Fatalf("Resolve(%v) = _, false", h)
	}
	return r
}

func TestCreateSet(t *testing.T) {
	w := newWorld(t, 8, 64)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 4)
	rec := b.Recorder(w.units)
	a := rec.Create()
	commands.Set(rec, w.value, a, 10)
	c := rec.Create()
	commands.NewSetter(rec, w.value).Set(c, 20)
	if w.units.Len() != 0 || w.units.IsAlive(a) {
		t.Fatal("recording changed the table")
	}
	if b.Len() != 4 {
		t.Errorf("Len() = %d, want 4", b.Len())
	}
	st := p.PlayAll([]*commands.Buffer{b})
	checkStats(t, st, commands.Stats{Played: 4, Created: 2, Sets: 2})
	if b.Len() != 0 {
		t.Errorf("after Play Len() = %d, want 0", b.Len())
	}
	for _, tc := range []struct {
		h    ephemeral.Handle
		want int64
	}{{a, 10}, {c, 20}} {
		real := mustResolve(t, p, tc.h)
		if got, ok := w.value.Get(real); !ok || got != tc.want {
			t.Errorf("value of %v (%v) = %d, %v, want %d, true", tc.h, real, got, ok, tc.want)
		}
	}
	if got := mustResolve(t, p, a); got != w.units.Domain().MakeHandle(0, 1) {
		t.Errorf("first create resolved to %v, want 0:1 (lowest free slot)", got)
	}
}

// TestProvisionalNeverReal: ephemeral never takes a provisional handle for a
// real one, even when its index names a live row.
func TestProvisionalNeverReal(t *testing.T) {
	w := newWorld(t, 16, 64)
	w.insert(t, 8) // provisional indexes 0..7 name live rows
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	rec := b.Recorder(w.units)
	for i := 0; i < 8; i++ {
		h := rec.Create()
		if !commands.IsProvisional(h) || h.IsZero() {
			t.Fatalf("Create() = %v: IsProvisional false or zero", h)
		}
		if h.Generation()&1 != 0 {
			t.Errorf("Create() = %v has an odd (live) generation", h)
		}
		if w.units.IsAlive(h) || w.units.Domain().IsAlive(h) || w.units.Lease().IsAlive(h) {
			t.Errorf("ephemeral takes provisional %v for live", h)
		}
		if _, ok := w.value.Get(h); ok {
			t.Errorf("Column.Get(%v) succeeded", h)
		}
	}
	if commands.IsProvisional(0) || commands.IsProvisional(ephemeral.MakeHandle(3, 5)) {
		t.Error("IsProvisional true for the zero handle or an odd generation")
	}
	if commands.IsProvisional(w.units.Domain().MakeHandle(3, 2)) {
		t.Error("IsProvisional true for a tagged (domain) handle with an even generation")
	}
	if r, ok := p.Resolve(ephemeral.MakeHandle(3, 5)); !ok || r != ephemeral.MakeHandle(3, 5) {
		t.Errorf("Resolve(real) = %v, %v, want it unchanged, true", r, ok)
	}
	if _, ok := p.Resolve(0); ok {
		t.Error("Resolve(0) = _, true")
	}
	if _, ok := p.Resolve(ephemeral.MakeHandle(0, 2)); ok {
		t.Error("Resolve of a provisional handle never played = _, true")
	}
	// Another buffer's ids give different provisional handles.
	if h0, h1 := newBuffer(t, p, 0).Recorder(w.units).Create(), newBuffer(t, p, 0).Recorder(w.units).Create(); h0 == h1 {
		t.Errorf("buffers 0 and 1 both made %v", h0)
	}
}

// TestStaleDelete: deleting a stale, deleted, zero or never-played handle is
// a no-op counted in StaleDeletes.
func TestStaleDelete(t *testing.T) {
	w := newWorld(t, 8, 64)
	hs := w.insert(t, 3)
	w.units.Delete(hs[0]) // stale from now on
	p := commands.NewPlayback(nil)
	other := newBuffer(t, p, 0)
	unplayed := other.Recorder(w.units).Create()
	b := newBuffer(t, p, 0)
	rec := b.Recorder(w.units)
	rec.Delete(hs[0])
	rec.Delete(0)
	rec.Delete(unplayed)
	rec.Remove(hs[0])
	rec.Delete(hs[1])
	st := p.PlayAll([]*commands.Buffer{b})
	checkStats(t, st, commands.Stats{Played: 5, Deleted: 1, StaleDeletes: 4})
	if w.units.Len() != 1 || !w.units.IsAlive(hs[2]) {
		t.Errorf("Len() = %d, IsAlive(hs[2]) = %v, want 1, true", w.units.Len(), w.units.IsAlive(hs[2]))
	}
}

// TestDeleteTwice: one handle deleted twice in one playback, from one buffer
// or two, is deleted once, counted once, and its slot is freed once.
func TestDeleteTwice(t *testing.T) {
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprint("two buffers=", split), func(t *testing.T) {
			w := newWorld(t, 4, 64)
			hs := w.insert(t, 3)
			p := commands.NewPlayback(nil)
			b0, b1 := newBuffer(t, p, 0), newBuffer(t, p, 0)
			second := b0
			if split {
				second = b1
			}
			b0.Recorder(w.units).Delete(hs[1])
			second.Recorder(w.units).Delete(hs[1])
			st := p.PlayAll([]*commands.Buffer{b0, b1})
			checkStats(t, st, commands.Stats{Played: 2, Deleted: 1, StaleDeletes: 1})
			if w.units.Len() != 2 || w.units.Domain().Len() != 2 {
				t.Fatalf("Len() = %d, domain Len() = %d, want 2, 2", w.units.Len(), w.units.Domain().Len())
			}
			// Two later creates get two different handles: the freed slot
			// and the next free one.
			rec := b0.Recorder(w.units)
			x, y := rec.Create(), rec.Create()
			checkStats(t, p.PlayAll([]*commands.Buffer{b0}), commands.Stats{Played: 2, Created: 2})
			rx, ry := mustResolve(t, p, x), mustResolve(t, p, y)
			if rx == ry {
				t.Fatalf("two creates resolved to the same handle %v", rx)
			}
			if rx.Index() != 1 || ry.Index() != 3 {
				t.Errorf("creates took slots %d and %d, want 1 and 3", rx.Index(), ry.Index())
			}
			if rx == hs[1] || w.units.IsAlive(hs[1]) {
				t.Errorf("the deleted handle %v is alive again", hs[1])
			}
		})
	}
}

// TestDeleteCreateDelete: a handle deleted, its slot reused by a create, and
// the old handle deleted again: the second delete is a no-op and the new
// row survives.
func TestDeleteCreateDelete(t *testing.T) {
	w := newWorld(t, 4, 64)
	hs := w.insert(t, 2)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	rec := b.Recorder(w.units)
	rec.Delete(hs[0])
	n := rec.Create()
	rec.Delete(hs[0])
	checkStats(t, p.PlayAll([]*commands.Buffer{b}), commands.Stats{Played: 3, Created: 1, Deleted: 1, StaleDeletes: 1})
	rn := mustResolve(t, p, n)
	if rn.Index() != hs[0].Index() || !w.units.IsAlive(rn) || w.units.Len() != 2 {
		t.Errorf("new row %v alive=%v (Len %d), want slot %d alive, Len 2", rn, w.units.IsAlive(rn), w.units.Len(), hs[0].Index())
	}
}

// TestCreateThenDelete: create then delete of one provisional handle in one
// buffer leaves no row and no live handle.
func TestCreateThenDelete(t *testing.T) {
	w := newWorld(t, 4, 64)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	rec := b.Recorder(w.units)
	h := rec.Create()
	commands.Set(rec, w.value, h, 5)
	rec.Delete(h)
	commands.Set(rec, w.value, h, 6) // after the delete: dropped
	checkStats(t, p.PlayAll([]*commands.Buffer{b}), commands.Stats{Played: 4, Created: 1, Sets: 1, Deleted: 1, DroppedSets: 1})
	if w.units.Len() != 0 || w.units.Domain().Len() != 0 {
		t.Errorf("Len() = %d, domain Len() = %d, want 0, 0", w.units.Len(), w.units.Domain().Len())
	}
	real, ok := p.Resolve(h)
	if !ok || w.units.IsAlive(real) || w.units.Domain().IsAlive(real) {
		t.Errorf("Resolve = %v, %v; alive = %v, want a dead real handle", real, ok, w.units.IsAlive(real))
	}
	for row := 0; row < w.units.Cap(); row++ {
		if hh, ok := w.units.HandleAt(row); ok {
			t.Errorf("row %d holds %v", row, hh)
		}
	}
}

// TestSetAfterDelete: a set recorded after a delete of the same handle is
// dropped and counted; a set before it is applied.
func TestSetAfterDelete(t *testing.T) {
	w := newWorld(t, 4, 64)
	hs := w.insert(t, 2)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	rec := b.Recorder(w.units)
	commands.Set(rec, w.value, hs[0], 100)
	rec.Delete(hs[0])
	commands.Set(rec, w.value, hs[0], 200)
	commands.Set(rec, w.value, hs[1], 300)
	checkStats(t, p.PlayAll([]*commands.Buffer{b}), commands.Stats{Played: 4, Deleted: 1, Sets: 2, DroppedSets: 1})
	if v, _ := w.value.Get(hs[1]); v != 300 {
		t.Errorf("hs[1] = %d, want 300", v)
	}
	want := int64(100) // the set before the delete
	if ephemeral.DebugBuild {
		want = -1 // the delete poisoned the row (ephemeral.PoisonByte)
	}
	if w.value.All()[hs[0].Index()] != want {
		t.Errorf("deleted row's storage = %d, want %d (the dropped set wrote nothing)", w.value.All()[hs[0].Index()], want)
	}
}

// TestCapacityOverflow: a create past what the table could hold is refused
// by the recorder (one record stands for the refusals, writes naming its
// handle are not recorded) and fails with ephemeral.ErrCapacity in Stats
// at that record, a delete recorded before a create makes room for it, and
// nothing else in the buffer is lost.
func TestCapacityOverflow(t *testing.T) {
	w := newWorld(t, 4, 64)
	hs := w.insert(t, 2)
	p := commands.NewPlayback(nil)
	for range 7 {
		newBuffer(t, p, 0) // ids 0..6
	}
	b := newBuffer(t, p, 0) // id 7
	rec := b.Recorder(w.units)
	a := rec.Create()                      // record 0
	commands.Set(rec, w.value, a, 10)      // 1
	c := rec.Create()                      // 2
	commands.Set(rec, w.value, c, 20)      // 3
	failed := rec.Create()                 // 4: the table would be full: refused
	commands.Set(rec, w.value, failed, 30) // not recorded: dropped
	extra := rec.Create()                  // refused too, not recorded
	rec.Delete(failed)                     // 5: stale
	rec.Delete(hs[0])                      // 6
	d := rec.Create()                      // 7: fits in the freed slot
	commands.Set(rec, w.value, d, 40)      // 8
	commands.Set(rec, w.value, hs[1], 50)  // 9
	if b.Len() != 10 {
		t.Fatalf("Len = %d, want 10 records (the refusals recorded once)", b.Len())
	}
	st := p.PlayAll([]*commands.Buffer{b})
	checkStats(t, st, commands.Stats{Played: 10, Created: 3, Sets: 4, DroppedSets: 1, Deleted: 1,
		StaleDeletes: 1, CapacityErrors: 2, Err: errors.New("any")})
	if !errors.Is(st.Err, ephemeral.ErrCapacity) || !errors.Is(st.Err, commands.ErrPlayback) {
		t.Fatalf("Err = %v, want errors.Is ephemeral.ErrCapacity and commands.ErrPlayback", st.Err)
	}
	var ce *ephemeral.CapacityError
	var pe *commands.PlaybackError
	if !errors.As(st.Err, &ce) || !errors.As(st.Err, &pe) {
		t.Fatalf("Err = %#v, want a *PlaybackError wrapping an *ephemeral.CapacityError", st.Err)
	}
	if pe.Buffer != 7 || pe.Record != 4 || pe.Create != 3 || pe.Op != "create" || pe.Table != "units" || ce.Capacity != 4 {
		t.Errorf("Err = %+v (%+v), want buffer 7 record 4 (create 3) create in units, capacity 4", pe, ce)
	}
	if want := `tickwork: buffer 7: create 3 in table "units" (record 4 of creates and sets): ephemeral: table "units" is full: capacity 4 rows, 4 live, 1 requested`; st.Err.Error() != want {
		t.Errorf("Err %q, want %q (an unnamed buffer)", st.Err, want)
	}
	for _, h := range []ephemeral.Handle{failed, extra} {
		if r, ok := p.Resolve(h); ok {
			t.Errorf("failed create %v resolved to %v", h, r)
		}
	}
	for h, want := range map[ephemeral.Handle]int64{mustResolve(t, p, a): 10, mustResolve(t, p, c): 20, mustResolve(t, p, d): 40, hs[1]: 50} {
		if got, ok := w.value.Get(h); !ok || got != want {
			t.Errorf("value of %v = %d, %v, want %d", h, got, ok, want)
		}
	}
	if w.units.Len() != 4 || w.units.IsAlive(hs[0]) {
		t.Errorf("Len() = %d, IsAlive(deleted) = %v, want 4, false", w.units.Len(), w.units.IsAlive(hs[0]))
	}
}

// domainWorld has a unit domain with Unit and Body tables.
type domainWorld struct {
	unit, body *ephemeral.Table
	hp         *ephemeral.Column[int32]
	x          *ephemeral.Column[float32]
}

func newDomainWorld(t testing.TB, capacity int) domainWorld {
	t.Helper()
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: capacity, ChunkRows: 64})
	if err != nil {
		t.Fatal(err)
	}
	unit, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Unit", Domain: d})
	if err != nil {
		t.Fatal(err)
	}
	body, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: d})
	if err != nil {
		t.Fatal(err)
	}
	hp, _ := ephemeral.AddColumn[int32](unit, "hp")
	x, _ := ephemeral.AddColumn[float32](body, "x")
	return domainWorld{unit, body, hp, x}
}

func TestAttachRemoveDelete(t *testing.T) {
	w := newDomainWorld(t, 8)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	units, bodies := b.Recorder(w.unit), b.Recorder(w.body)
	u := units.Create()
	commands.Set(units, w.hp, u, 100)
	bodies.Attach(u) // a provisional handle of the same playback
	commands.Set(bodies, w.x, u, 1.5)
	v := units.Create()
	bodies.Attach(v)
	checkStats(t, p.PlayAll([]*commands.Buffer{b}), commands.Stats{Played: 6, Created: 2, Attached: 2, Sets: 2})
	ru, rv := mustResolve(t, p, u), mustResolve(t, p, v)
	if hp, _ := w.hp.Get(ru); hp != 100 {
		t.Errorf("hp = %d, want 100", hp)
	}
	if x, ok := w.x.Get(ru); !ok || x != 1.5 {
		t.Errorf("x = %v, %v, want 1.5, true", x, ok)
	}

	// Remove only the Body row; attach twice (an error); delete the entity.
	bodies.Remove(ru)
	bodies.Attach(rv) // already has a Body row: ErrRowExists
	units.Delete(rv)
	bodies.Attach(rv) // dead entity: counted, not an error
	bodies.Remove(rv) // gone with the entity
	st := p.PlayAll([]*commands.Buffer{b})
	checkStats(t, st, commands.Stats{Played: 5, Removed: 1, Deleted: 1, FailedAttaches: 2, StaleDeletes: 1, Err: errors.New("any")})
	if !errors.Is(st.Err, ephemeral.ErrRowExists) {
		t.Errorf("Err = %v, want ephemeral.ErrRowExists", st.Err)
	}
	if !w.unit.IsAlive(ru) || w.body.IsAlive(ru) {
		t.Errorf("after Remove: Unit alive %v, Body alive %v, want true, false", w.unit.IsAlive(ru), w.body.IsAlive(ru))
	}
	if w.unit.IsAlive(rv) || w.body.IsAlive(rv) || w.unit.Domain().Len() != 1 {
		t.Errorf("after Delete: rows of %v still alive or domain Len %d != 1", rv, w.unit.Domain().Len())
	}
}

// TestRecordOrderAcrossTables: a buffer's records keep their order across
// the tables of one domain: creates into two tables are not reordered.
func TestRecordOrderAcrossTables(t *testing.T) {
	w := newDomainWorld(t, 8)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	units, bodies := b.Recorder(w.unit), b.Recorder(w.body)
	u1 := units.Create()
	b1 := bodies.Create()
	u2 := units.Create()
	p.PlayAll([]*commands.Buffer{b})
	for i, h := range []ephemeral.Handle{u1, b1, u2} {
		if got := mustResolve(t, p, h).Index(); got != uint32(i) {
			t.Errorf("create %d took slot %d, want %d", i, got, i)
		}
	}
	if w.unit.Len() != 2 || w.body.Len() != 1 {
		t.Errorf("Unit, Body Len = %d, %d, want 2, 1", w.unit.Len(), w.body.Len())
	}
}

// TestBufferOrder: buffers play in the order given.
func TestBufferOrder(t *testing.T) {
	for _, deleterFirst := range []bool{true, false} {
		t.Run(fmt.Sprint("deleter first=", deleterFirst), func(t *testing.T) {
			w := newWorld(t, 8, 64)
			hs := w.insert(t, 3)
			p := commands.NewPlayback(nil)
			del, cre := newBuffer(t, p, 0), newBuffer(t, p, 0)
			del.Recorder(w.units).Delete(hs[0])
			h := cre.Recorder(w.units).Create()
			if deleterFirst {
				p.PlayAll([]*commands.Buffer{del, cre})
			} else {
				p.PlayAll([]*commands.Buffer{cre, del})
			}
			want := uint32(3)
			if deleterFirst {
				want = 0 // the freed slot
			}
			if got := mustResolve(t, p, h).Index(); got != want {
				t.Errorf("create took slot %d, want %d", got, want)
			}
		})
	}
}

// TestResolveAcrossBoundaries: resolutions stay readable across later
// playbacks, empty or not, until Release; provisional handles of another
// buffer may be named by later records.
func TestResolveAcrossBoundaries(t *testing.T) {
	w := newWorld(t, 8, 64)
	p := commands.NewPlayback(nil)
	spawner, setter := newBuffer(t, p, 0), newBuffer(t, p, 0)
	h := spawner.Recorder(w.units).Create()
	p.PlayAll([]*commands.Buffer{spawner}) // FrameEnd boundary
	real := mustResolve(t, p, h)
	p.PlayAll(nil)                                        // empty boundaries
	p.PlayAll([]*commands.Buffer{spawner, setter})        // empty buffers
	commands.Set(setter.Recorder(w.units), w.value, h, 9) // names the provisional handle
	h2 := spawner.Recorder(w.units).Create()
	checkStats(t, p.PlayAll([]*commands.Buffer{setter, spawner}), commands.Stats{Played: 2, Created: 1, Sets: 1})
	if got := mustResolve(t, p, h); got != real {
		t.Errorf("Resolve after more playbacks = %v, want %v", got, real)
	}
	if v, _ := w.value.Get(real); v != 9 {
		t.Errorf("value = %d, want 9", v)
	}
	// A create recorded but not played before Release resolves after its
	// playback.
	h3 := spawner.Recorder(w.units).Create()
	p.Release()
	for _, x := range []ephemeral.Handle{h, h2} {
		if r, ok := p.Resolve(x); ok {
			t.Errorf("after Release Resolve(%v) = %v, true", x, r)
		}
	}
	p.PlayAll([]*commands.Buffer{spawner})
	if r3 := mustResolve(t, p, h3); !w.units.IsAlive(r3) {
		t.Errorf("h3 resolved to dead %v", r3)
	}
	if _, ok := p.Resolve(h); ok {
		t.Error("a released handle resolves again after a later playback")
	}
}

// TestReset: Buffer.Reset discards pending records; their handles never resolve.
func TestReset(t *testing.T) {
	w := newWorld(t, 8, 64)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	rec := b.Recorder(w.units)
	lost := rec.Create()
	commands.Set(rec, w.value, lost, 1)
	b.Reset()
	kept := rec.Create()
	checkStats(t, p.PlayAll([]*commands.Buffer{b}), commands.Stats{Played: 1, Created: 1})
	if _, ok := p.Resolve(lost); ok {
		t.Error("a discarded create resolves")
	}
	if r := mustResolve(t, p, kept); r.Index() != 0 {
		t.Errorf("kept create took slot %d, want 0", r.Index())
	}
}

func TestStatsAdd(t *testing.T) {
	e1, e2 := errors.New("1"), errors.New("2")
	s := commands.Stats{Played: 1, Created: 2, Err: nil}
	s.Add(commands.Stats{Played: 1, Attached: 1, Deleted: 1, Removed: 1, Sets: 1, StaleDeletes: 1, DroppedSets: 1,
		FailedAttaches: 1, CapacityErrors: 1, Err: e1})
	s.Add(commands.Stats{Created: 1, Err: e2})
	want := commands.Stats{Played: 2, Created: 3, Attached: 1, Deleted: 1, Removed: 1, Sets: 1, StaleDeletes: 1,
		DroppedSets: 1, FailedAttaches: 1, CapacityErrors: 1, Err: e1}
	if s != want {
		t.Errorf("Add = %+v, want %+v", s, want)
	}
}

func TestMisusePanics(t *testing.T) {
	w := newWorld(t, 8, 64)
	other := newWorld(t, 8, 64)
	const wrongRecorder = `tickwork: Set of column "units.value" through the recorder of table "units": ` +
		`record a write through the recorder of the column's table, tickwork.Record(d, table) for table "units" (declared in the same DeclareFunc)`
	tests := []struct {
		name string
		want string
		fn   func()
	}{
		{"set of another table's column", wrongRecorder, func() {
			p := commands.NewPlayback(nil)
			b := newBuffer(t, p, 0)
			commands.Set(b.Recorder(w.units), other.value, 0, 1)
		}},
		{"setter of another table's column", wrongRecorder, func() {
			commands.NewSetter(newBuffer(t, commands.NewPlayback(nil), 0).Recorder(w.units), other.value)
		}},
		{"buffer given twice", "given twice", func() {
			p := commands.NewPlayback(nil)
			b := newBuffer(t, p, 0)
			p.PlayAll([]*commands.Buffer{b, b})
		}},
		{"buffer of another playback", "buffer 0 of another Playback", func() {
			commands.NewPlayback(nil).PlayAll([]*commands.Buffer{newBuffer(t, commands.NewPlayback(nil), 0)})
		}},
		{"negative records", "a record capacity of at least 0", func() { _, _ = commands.NewPlayback(nil).NewBuffer("", -1) }},
		{"no buffers", "want at least 1 buffer", func() { _, _ = commands.NewPlayback(nil).NewBuffers("", 0, 8) }},
		{"nil table", "Recorder(nil)", func() { newBuffer(t, commands.NewPlayback(nil), 0).Recorder(nil) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if strings.HasPrefix(tt.want, "tickwork: ") { // a face API's misuse: the exact text
					if msg != tt.want {
						t.Errorf("panic %v, want %q", r, tt.want)
					}
				} else if !strings.HasPrefix(msg, "commands: ") || !strings.Contains(msg, tt.want) {
					t.Errorf("panic %v, want a commands: message containing %q", r, tt.want)
				}
			}()
			tt.fn()
		})
	}
}

// TestLongCreateRun: a run of creates longer than one playback window, past
// capacity in the middle of a window: the table filled up between
// recording and playback (the host inserted rows), so the recorder took
// them all.
func TestLongCreateRun(t *testing.T) {
	w := newWorld(t, 3000, 64)
	w.insert(t, 1500)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	rec := b.Recorder(w.units)
	hs := make([]ephemeral.Handle, 1500)
	for i := range hs {
		hs[i] = rec.Create()
		commands.Set(rec, w.value, hs[i], int64(-i))
	}
	w.insert(t, 500)
	st := p.PlayAll([]*commands.Buffer{b})
	checkStats(t, st, commands.Stats{Played: 3000, Created: 1000, Sets: 1000, DroppedSets: 500, CapacityErrors: 500, Err: errors.New("any")})
	var pe *commands.PlaybackError
	if !errors.As(st.Err, &pe) || pe.Record != 2000 {
		t.Errorf("Err = %v, want record 2000 (the 1001st create)", st.Err)
	}
	for i, h := range hs {
		r, ok := p.Resolve(h)
		if ok != (i < 1000) {
			t.Fatalf("create %d resolved = %v, want %v", i, ok, i < 1000)
		}
		if !ok {
			continue
		}
		if v, _ := w.value.Get(r); v != int64(-i) || r.Index() != uint32(2000+i) {
			t.Fatalf("create %d: slot %d value %d, want slot %d value %d", i, r.Index(), v, 2000+i, -i)
		}
	}
}

// TestResolveConcurrently: kernels may resolve from many goroutines between
// playbacks (run with -race).
func TestResolveConcurrently(t *testing.T) {
	w := newWorld(t, 256, 64)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	rec := b.Recorder(w.units)
	hs := make([]ephemeral.Handle, 200)
	for i := range hs {
		hs[i] = rec.Create()
	}
	p.PlayAll([]*commands.Buffer{b})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, h := range hs {
				if r, ok := p.Resolve(h); !ok || r.Index() != uint32(i) || !w.units.IsAlive(r) {
					t.Errorf("Resolve(%v) = %v, %v", h, r, ok)
				}
			}
		}()
	}
	wg.Wait()
}

// TestMergeOrder: PlayMerged orders segments by key whatever the order they
// were begun in (equal keys: buffer order, then record order; records
// before any Begin have key 0; an empty segment is replaced by the next
// Begin), while PlayAll plays record order and ignores keys.
func TestMergeOrder(t *testing.T) {
	record := func(p *commands.Playback, w world) []*commands.Buffer {
		b0, b1 := newBuffer(t, p, 0), newBuffer(t, p, 0)
		r0, r1 := b0.Recorder(w.units), b1.Recorder(w.units)
		mk := func(r commands.Recorder, v int64) { commands.Set(r, w.value, r.Create(), v) }
		mk(r1, 10) // b1, key 0, no Begin
		b0.Begin(5)
		mk(r0, 50)
		b0.Begin(2)
		mk(r0, 20)
		mk(r0, 21)
		b1.Begin(9) // empty: replaced below
		b1.Begin(2)
		mk(r1, 22)
		b0.Begin(0)
		mk(r0, 0)
		if b0.ID() != 0 || b1.ID() != 1 || r1.Buffer() != b1 || r1.Table() != w.units {
			t.Fatal("ID, Buffer or Table accessor wrong")
		}
		return []*commands.Buffer{b0, b1}
	}
	values := func(w world) []int64 {
		var vs []int64
		for row := 0; row < w.units.Len(); row++ {
			h, _ := w.units.HandleAt(row)
			v, _ := w.value.Get(h)
			vs = append(vs, v)
		}
		return vs
	}
	merged := newWorld(t, 16, 64)
	p := commands.NewPlayback(nil)
	p.PlayMerged(record(p, merged))
	if got, want := values(merged), []int64{0, 10, 20, 21, 22, 50}; !slices.Equal(got, want) {
		t.Errorf("PlayMerged rows = %v, want %v", got, want)
	}
	serial := newWorld(t, 16, 64)
	p = commands.NewPlayback(nil)
	p.PlayAll(record(p, serial))
	if got, want := values(serial), []int64{50, 20, 21, 0, 10, 22}; !slices.Equal(got, want) {
		t.Errorf("PlayAll rows = %v, want %v", got, want)
	}
}
