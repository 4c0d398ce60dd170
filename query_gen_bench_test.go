package tickwork_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/ephemeral"
)

// BenchmarkQueryAll walks 64 Ki rows of two columns (one row in eight
// deleted) through the face's Query2.All and, as the baseline in the same
// run, through the engine's: the face's iterator adds no cost per row.
func BenchmarkQueryAll(b *testing.B) {
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := bl.Table(tickwork.TableSpec{Name: "T", Capacity: 1 << 16})
	x := tickwork.AddColumn[float32](bl, tab, "X")
	v := tickwork.AddColumn[float32](bl, tab, "V")
	w, err := bl.Build()
	require.NoError(b, err)
	defer w.Close()
	q := tickwork.HostQuery2(x, v)
	require.NoError(b, q.Err())
	require.NoError(b, q.InsertN(tab.Cap(), func(h tickwork.Handle, x, v *float32) { *v = float32(h.Index() % 7) }))
	for row := 0; row < tab.Cap(); row += 8 {
		h, _ := tab.HandleAt(row)
		tab.Delete(h)
	}
	eq, err := ephemeral.NewQuery2((*ephemeral.Column[float32])(x), (*ephemeral.Column[float32])(v))
	require.NoError(b, err)
	b.Run("face", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for r := range q.All() {
				px, pv := r.Get()
				*px += *pv
			}
		}
	})
	b.Run("engine", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for r := range eq.All() {
				px, pv := r.Get()
				*px += *pv
			}
		}
	})
}

// BenchmarkQueryAllWide is BenchmarkQueryAll for five columns, whose rows
// the face makes itself (an index into its own column block, as the
// engine's wide rows are): the face's row form against the engine's on
// the same 64 Ki rows, one in eight deleted. Each walk is a function of
// its own, as a system's body is, so that its loop inlines (calls written
// straight in a b.Loop body stay calls).
func BenchmarkQueryAllWide(b *testing.B) {
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := bl.Table(tickwork.TableSpec{Name: "T", Capacity: 1 << 16})
	x := tickwork.AddColumn[float32](bl, tab, "X")
	y := tickwork.AddColumn[float32](bl, tab, "Y")
	vx := tickwork.AddColumn[float32](bl, tab, "VX")
	vy := tickwork.AddColumn[float32](bl, tab, "VY")
	age := tickwork.AddColumn[int32](bl, tab, "Age")
	w, err := bl.Build()
	require.NoError(b, err)
	defer w.Close()
	q := tickwork.HostQuery5(x, y, vx, vy, age)
	require.NoError(b, q.Err())
	require.NoError(b, q.InsertN(tab.Cap(), func(h tickwork.Handle, x, y, vx, vy *float32, age *int32) {
		*vx, *vy = float32(h.Index()%7), 1
	}))
	for row := 0; row < tab.Cap(); row += 8 {
		h, _ := tab.HandleAt(row)
		tab.Delete(h)
	}
	e := func(c *tickwork.Column[float32]) *ephemeral.Column[float32] { return (*ephemeral.Column[float32])(c) }
	eq, err := ephemeral.NewQuery5(e(x), e(y), e(vx), e(vy), (*ephemeral.Column[int32])(age))
	require.NoError(b, err)
	b.Run("face", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			walkFace5(q)
		}
	})
	b.Run("engine", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			walkEngine5(eq)
		}
	})
}

func walkFace5(q tickwork.Query5[float32, float32, float32, float32, int32]) {
	for r := range q.All() {
		px, py, pvx, pvy, pa := r.Get()
		*px += *pvx
		*py += *pvy
		*pa++
	}
}

func walkEngine5(q ephemeral.Query5[float32, float32, float32, float32, int32]) {
	for r := range q.All() {
		px, py, pvx, pvy, pa := r.Get()
		*px += *pvx
		*py += *pvy
		*pa++
	}
}

// BenchmarkSpawn is a frame whose one system spawns 1 000 entities through
// a spawner of 1, 5 and 15 int64 columns (Reserve made room; the rows are
// deleted outside the timer after each frame): what a column adds to a
// spawn, recorded and played back.
func BenchmarkSpawn(b *testing.B) {
	for _, cols := range []int{1, 5, 15} {
		b.Run(fmt.Sprint(cols, "-columns"), func(b *testing.B) {
			bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
			tab := bl.Table(tickwork.TableSpec{Name: "T", Capacity: 1 << 14})
			var c [15]*tickwork.Column[int64]
			for j := range c {
				c[j] = tickwork.AddColumn[int64](bl, tab, string(rune('A'+j)))
			}
			const per = 1000
			bl.System("spawn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				switch cols {
				case 1:
					sp := tickwork.NewSpawner1(d, c[0])
					sp.Reserve(per)
					return func(*tickwork.Context) {
						for i := range int64(per) {
							sp.Spawn(i)
						}
					}
				case 5:
					sp := tickwork.NewSpawner5(d, c[0], c[1], c[2], c[3], c[4])
					sp.Reserve(per)
					return func(*tickwork.Context) {
						for i := range int64(per) {
							sp.Spawn(i, i, i, i, i)
						}
					}
				}
				sp := tickwork.NewSpawner15(d, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14])
				sp.Reserve(per)
				return func(*tickwork.Context) {
					for i := range int64(per) {
						sp.Spawn(i, i, i, i, i, i, i, i, i, i, i, i, i, i, i)
					}
				}
			})
			w, err := bl.Build()
			require.NoError(b, err)
			defer w.Close()
			hs := make([]tickwork.Handle, 0, per)
			b.ReportAllocs()
			for b.Loop() {
				if err := w.Frame(1.0 / 60); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				hs = hs[:0]
				for r := range per {
					h, _ := tab.HandleAt(r)
					hs = append(hs, h)
				}
				tab.DeleteN(hs)
				b.StartTimer()
			}
		})
	}
}
